// SPDX-License-Identifier: GPL-2.0
/*
 * Guest half of hc_fuzz_test: issue the hypercalls the host generated,
 * exactly as listed (all four argument registers), at whatever CPL the
 * vCPU runs.  Built freestanding.
 */
#include "kvm_hc_abi.h"
#include "hc_fuzz.h"

static int64_t hypercall4(const struct hc_fuzz_call *c)
{
	int64_t ret;

	if (guest_use_vmmcall)
		asm volatile("vmmcall" : "=a"(ret)
			     : "a"(c->nr), "b"(c->a0), "c"(c->a1), "d"(c->a2),
			       "S"(c->a3) : "memory");
	else
		asm volatile("vmcall" : "=a"(ret)
			     : "a"(c->nr), "b"(c->a0), "c"(c->a1), "d"(c->a2),
			       "S"(c->a3) : "memory");
	return ret;
}

uint64_t hc_fuzz_guest_run(uint64_t list)
{
	struct hc_fuzz_list *l = (struct hc_fuzz_list *)list;
	uint64_t made = 0;

	while (l->next < l->end) {
		struct hc_fuzz_call *c = &l->call[l->next];

		c->ret = hypercall4(c);
		l->next++;
		made++;
	}
	return made;
}
