/* SPDX-License-Identifier: GPL-2.0 */
/* What hc_fuzz_test's host half hands its guest half: a list of hypercalls. */
#ifndef HC_FUZZ_H
#define HC_FUZZ_H
#include <stdint.h>

struct hc_fuzz_call {
	uint64_t nr;		/* rax: KVM_HC_HOST_SYSCALL(_REGS), mostly */
	uint64_t a0;		/* rbx: the pt_regs pointer, or the syscall number */
	uint64_t a1, a2, a3;	/* rcx, rdx, rsi: must be 0 for nr 13 */
	/* the register form: rdi, rsi, rdx, r10, r8, r9 instead of a2, a3 */
	uint64_t args[6];
	int regs_form;		/* issue it in the register form's convention */
	int64_t ret;		/* rax after the hypercall */
	uint64_t rbx;		/* rbx after it, for the register form */
};

struct hc_fuzz_list {
	uint64_t next;		/* first call not made yet */
	uint64_t end;		/* the guest stops before this one */
	struct hc_fuzz_call call[];
};

/* Make calls next..end-1; returns the number made. */
uint64_t hc_fuzz_guest_run(uint64_t list);
/*
 * The watchdog's own check: a guest call that does not come back, as a
 * stuck hypercall would look from the host (the vCPU in KVM_RUN, leaving
 * only for signals), until the host sets *flag.  Returns 1.
 */
uint64_t hc_fuzz_guest_spin(uint64_t flag);
#endif
