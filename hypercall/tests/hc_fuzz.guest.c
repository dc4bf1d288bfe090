// SPDX-License-Identifier: GPL-2.0
/*
 * Guest half of hc_fuzz_test: issue the hypercalls the host generated,
 * exactly as listed (all four argument registers, or for the register
 * form rbx, rcx and the six argument registers), at whatever CPL the vCPU
 * runs.  Built freestanding.
 */
#include "kvm_hc_abi.h"
#include "hc_fuzz.h"

uint64_t hc_fuzz_guest_run(uint64_t list)
{
	struct hc_fuzz_list *l = (struct hc_fuzz_list *)list;
	uint64_t made = 0;

	while (l->next < l->end) {
		struct hc_fuzz_call *c = &l->call[l->next];

		if (c->regs_form)
			c->ret = guest_hypercall_regs(c->nr, c->a0, c->a1,
						      (const unsigned long *)c->args,
						      (unsigned long *)&c->rbx);
		else
			c->ret = guest_hypercall4(c->nr, c->a0, c->a1, c->a2, c->a3);
		l->next++;
		made++;
	}
	return made;
}

uint64_t hc_fuzz_guest_spin(uint64_t flag)
{
	while (!*(volatile uint64_t *)flag)
		__builtin_ia32_pause();
	return 1;
}
