// SPDX-License-Identifier: GPL-2.0
/*
 * hide_host_syscall PROGRAM [ARG...]: run PROGRAM on a kernel that seems
 * not to offer KVM_HC_HOST_SYSCALL.
 *
 * runsc_test checks that the KVM platform falls back to HLT exits when
 * KVM_CHECK_EXTENSION(KVM_CAP_PV_HOST_SYSCALL) answers 0, as on a kernel
 * without CONFIG_KVM_PV_HOST_SYSCALL, without booting a second kernel: a
 * seccomp filter, inherited by runsc's sandbox and Sentry, makes exactly
 * that ioctl return 0 without running it.  Every other call runs.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/kvm.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef KVM_CAP_PV_HOST_SYSCALL
#define KVM_CAP_PV_HOST_SYSCALL 239
#endif

#define ARG_LO(n) offsetof(struct seccomp_data, args[n])

int main(int argc, char **argv)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 7),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 5),
		/* ioctl() takes its request as 32 bits; the cap is a long. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(1)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, KVM_CHECK_EXTENSION, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(2)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, KVM_CAP_PV_HOST_SYSCALL, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),	/* returns 0 */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGRAM [ARG...]\n", argv[0]);
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		fprintf(stderr, "hide_host_syscall: seccomp: %s\n", strerror(errno));
		return 1;
	}
	execv(argv[1], argv + 1);
	fprintf(stderr, "hide_host_syscall: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
