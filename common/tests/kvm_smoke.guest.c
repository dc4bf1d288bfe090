// SPDX-License-Identifier: GPL-2.0
/* Guest half of kvm_smoke_test: runs in the guest, built freestanding. */
#include "kvm_hc_abi.h"
#include "kvm_smoke.h"

uint64_t guest_hypercall_nr(uint64_t nr)
{
	return guest_hypercall1(nr, 0);
}

uint64_t guest_ud2(uint64_t unused)
{
	asm volatile("ud2");
	return 0;
}

uint64_t guest_bump(uint64_t addr)
{
	volatile uint64_t *p = (volatile uint64_t *)addr;

	return ++*p;
}
