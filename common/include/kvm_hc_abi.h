/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest ABI for asking the host to run a system call.
 *
 * The guest is a ring-0 kernel whose address space matches its host process
 * (gVisor's Sentry model): every pointer it hands over, including the
 * pt_regs block itself, is valid as a host virtual address.
 *
 *   rax = KVM_HC_HOST_SYSCALL, rbx = a0 = host-virtual address of a
 *   struct pt_regs; pt_regs.rax holds the syscall number, rdi, rsi, rdx,
 *   r10, r8, r9 the arguments (the x86-64 syscall convention).
 *
 *   On return rax = 0 if the syscall ran (its result is in pt_regs.rax),
 *   or a negative KVM error (-KVM_ENOSYS, -KVM_EPERM, -KVM_EFAULT...) if not.
 *
 * The register form, KVM_HC_HOST_SYSCALL_REGS: rbx = the syscall number,
 * rdi, rsi, rdx, r10, r8, r9 the arguments (where `syscall` takes them),
 * rcx = 0.  On return rax = 0 with the result in rbx, or -KVM_* with rbx
 * unchanged.  KVM touches no guest memory for the call itself.
 */
#ifndef KVM_HC_ABI_H
#define KVM_HC_ABI_H

#include <stdint.h>
#include <asm/ptrace.h>		/* struct pt_regs, user-space layout */

#ifndef KVM_HC_HOST_SYSCALL
#define KVM_HC_HOST_SYSCALL	13
#endif
#ifndef KVM_HC_HOST_SYSCALL_REGS
#define KVM_HC_HOST_SYSCALL_REGS	14
#endif
#ifndef KVM_CAP_PV_HOST_SYSCALL
#define KVM_CAP_PV_HOST_SYSCALL	239
#endif
#ifndef KVM_FEATURE_PV_HOST_SYSCALL
#define KVM_FEATURE_PV_HOST_SYSCALL	31
#endif
/* KVM_CHECK_EXTENSION(KVM_CAP_PV_HOST_SYSCALL): a mask */
#ifndef KVM_PV_HOST_SYSCALL_KERNEL
#define KVM_PV_HOST_SYSCALL_KERNEL	(1 << 0)
#endif
#ifndef KVM_PV_HOST_SYSCALL_REGS
#define KVM_PV_HOST_SYSCALL_REGS	(1 << 1)
#endif
#ifndef KVM_PV_HOST_SYSCALL_EXIT
#define KVM_PV_HOST_SYSCALL_EXIT	(1 << 2)
#endif

#define HC_KVM_ENOSYS	1000	/* uapi/linux/kvm_para.h */
#define HC_KVM_EPERM	1
#define HC_KVM_EFAULT	14
#define HC_KVM_EINVAL	22
#define HC_KVM_EOPNOTSUPP	95

/*
 * Set by the VMM before the guest runs: AMD wants vmmcall, Intel vmcall.
 * KVM would patch the other one in place, but guest text is a read-only
 * memslot here, and patching is a quirk userspace can turn off anyway.
 */
extern volatile int guest_use_vmmcall;

/* KVM's hypercall ABI: nr in rax, a0..a3 in rbx, rcx, rdx, rsi. */
static inline long guest_hypercall4(unsigned long nr, unsigned long a0,
				    unsigned long a1, unsigned long a2,
				    unsigned long a3)
{
	long ret;

	if (guest_use_vmmcall)
		asm volatile("vmmcall" : "=a"(ret)
			     : "a"(nr), "b"(a0), "c"(a1), "d"(a2), "S"(a3) : "memory");
	else
		asm volatile("vmcall" : "=a"(ret)
			     : "a"(nr), "b"(a0), "c"(a1), "d"(a2), "S"(a3) : "memory");
	return ret;
}

static inline long guest_hypercall1(unsigned long nr, unsigned long a0)
{
	/* a1..a3 must be 0: KVM_HC_HOST_SYSCALL checks. */
	return guest_hypercall4(nr, a0, 0, 0, 0);
}

static inline long guest_host_syscall(struct pt_regs *regs)
{
	return guest_hypercall1(KVM_HC_HOST_SYSCALL, (unsigned long)regs);
}

/*
 * The register form's convention, whatever its operands: nr in rax, a0 in
 * rbx, a1 in rcx, and args[] in rdi, rsi, rdx, r10, r8, r9.  Returns rax;
 * *rbx is what KVM left in rbx.
 */
static inline long guest_hypercall_regs(unsigned long nr, unsigned long a0,
					unsigned long a1, const unsigned long args[6],
					unsigned long *rbx)
{
	register unsigned long r10 asm("r10") = args[3];
	register unsigned long r8 asm("r8") = args[4];
	register unsigned long r9 asm("r9") = args[5];
	long ret = nr;

	if (guest_use_vmmcall)
		asm volatile("vmmcall"
			     : "+a"(ret), "+b"(a0)
			     : "c"(a1), "D"(args[0]), "S"(args[1]), "d"(args[2]),
			       "r"(r10), "r"(r8), "r"(r9)
			     : "memory");
	else
		asm volatile("vmcall"
			     : "+a"(ret), "+b"(a0)
			     : "c"(a1), "D"(args[0]), "S"(args[1]), "d"(args[2]),
			       "r"(r10), "r"(r8), "r"(r9)
			     : "memory");
	*rbx = a0;
	return ret;
}

/*
 * KVM_HC_HOST_SYSCALL_REGS: 0 with the syscall's result in *res, or the
 * negative KVM error (the call did not run).
 */
static inline long guest_host_syscall_regs(long nr, long a0, long a1, long a2,
					   long a3, long a4, long a5, long *res)
{
	const unsigned long args[6] = { a0, a1, a2, a3, a4, a5 };

	return guest_hypercall_regs(KVM_HC_HOST_SYSCALL_REGS, nr, 0, args,
				    (unsigned long *)res);
}

#endif
