// SPDX-License-Identifier: GPL-2.0
/*
 * What the VM mechanisms share: one VM with one vCPU in ring 0, the
 * capabilities a mechanism asks for, the context in the VM's arena, and a
 * run loop that hands the exits the VMM does not own to the mechanism.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>

#include "kvm_hc_abi.h"
#include "workload.h"

int wl_vm_setup(struct wl_inst *w, unsigned int caps, const char **why)
{
	*why = "vmm_init";
	if (vmm_init(&w->vm, 4 << 20))
		return -1;
	*why = "vcpu_init";
	if (vcpu_init(&w->vm, &w->vcpu, 0, false))
		return -1;
	if (caps & (WL_VM_HC | WL_VM_HC_EXIT)) {
		/* One mask: the forms KVM runs, and the exit to the VMM. */
		uint64_t mask = (caps & WL_VM_HC ? KVM_PV_HOST_SYSCALL_KERNEL |
			       KVM_PV_HOST_SYSCALL_REGS : 0) |
			       (caps & WL_VM_HC_EXIT ? KVM_PV_HOST_SYSCALL_EXIT : 0);

		*why = "KVM_CAP_ENFORCE_PV_FEATURE_CPUID/KVM_CAP_PV_HOST_SYSCALL";
		if (vcpu_enable_cap(&w->vcpu, KVM_CAP_ENFORCE_PV_FEATURE_CPUID, 1) ||
		    vcpu_enable_cap(&w->vcpu, KVM_CAP_PV_HOST_SYSCALL, mask))
			return -1;
	}
	*why = "the workload context in the arena";
	return wl_vm_alloc_ctx(w);
}

int wl_vm_alloc_ctx(struct wl_inst *w)
{
	w->ctx = vmm_alloc(&w->vm, sizeof(*w->ctx));
	w->job = vmm_alloc(&w->vm, sizeof(*w->job));
	return w->ctx && w->job ? 0 : -1;
}

void wl_vm_teardown(struct wl_inst *w)
{
	if (w->vcpu.run)
		vcpu_destroy(&w->vcpu);
	if (w->vm.kvm_fd > 0 || w->vm.arena)
		vmm_destroy(&w->vm);
	w->ctx = NULL;
	w->job = NULL;
}

struct exit_ctx {
	struct wl_inst *w;
	wl_exit_fn fn;
};

static int on_exit(struct vcpu *v, uint16_t port, void *arg)
{
	struct exit_ctx *x = arg;

	return x->fn ? x->fn(x->w, v->run, port) : -1;
}

/* The signal a process would get for exception vector v. */
static int vector_signal(int v)
{
	switch (v) {
	case 0: case 16: case 19:	/* #DE, #MF, #XM */
		return SIGFPE;
	case 1: case 3:			/* #DB, #BP */
		return SIGTRAP;
	case 6:				/* #UD */
		return SIGILL;
	case 17:			/* #AC */
		return SIGBUS;
	}
	return SIGSEGV;			/* #GP, #PF, #SS, #NP... */
}

int wl_vm_run(struct wl_inst *w, wl_exit_fn fn, char *why, size_t len)
{
	struct exit_ctx x = { .w = w, .fn = fn };
	struct kvm_sregs sregs;
	struct vmm_exit e;

	if (!vcpu_call(&w->vcpu, wl_guest_run, (uintptr_t)w->job, on_exit, &x, &e))
		return 0;
	vmm_exit_str(&e, why, len);
	if (e.vector >= 0) {
		w->ctx->fault_signal = vector_signal(e.vector);
		w->ctx->fault_pc = e.fault_rip;
		w->ctx->fault_addr = 0;
		if (e.vector == 14 && !ioctl(w->vcpu.fd, KVM_GET_SREGS, &sregs))
			w->ctx->fault_addr = sregs.cr2;
	}
	return -1;
}

/*
 * KVM_HC_HOST_SYSCALL forwarded as KVM_EXIT_HYPERCALL (exit-hypercall, and
 * the calls a BPF program sends to the VMM): the VMM runs the call.
 */
int wl_exit_hypercall(struct wl_inst *w, struct kvm_run *run, uint16_t port)
{
	if (run->exit_reason != KVM_EXIT_HYPERCALL ||
	    run->hypercall.nr != KVM_HC_HOST_SYSCALL)
		return -1;
	/* Same address space: a0 is a pointer of ours. */
	wl_run_for_code((struct pt_regs *)run->hypercall.args[0]);
	run->hypercall.ret = 0;
	w->exits++;
	return 0;
}
