/* SPDX-License-Identifier: GPL-2.0 */
/* What the two seccomp mechanisms share: the filter they install in the stub. */
#ifndef WL_MECH_SECCOMP_H
#define WL_MECH_SECCOMP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* The stub's "job done" call, which the supervisor answers with the next job. */
#define WL_SECCOMP_DONE	0x7fff0004L

/*
 * action for every syscall made outside [lo, hi) (the trusted text, or an
 * empty range), SECCOMP_RET_ALLOW inside it; a foreign arch is killed.
 * flags go to seccomp(2); its result (a listener fd with NEW_LISTENER).
 */
static inline long wl_seccomp_install(uint32_t action, uintptr_t lo, uintptr_t hi,
				      unsigned int flags)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		/* The trusted text is within one 4 GiB window: checked below. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, instruction_pointer) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(lo >> 32), 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, instruction_pointer)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)lo, 0, 2),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)hi, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, action),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if ((lo >> 32) != (hi >> 32) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

#endif
