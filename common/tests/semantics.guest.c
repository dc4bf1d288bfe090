// SPDX-License-Identifier: GPL-2.0
/*
 * semantics_test's code: one call through the mechanism's hook, wherever
 * the mechanism runs its code.  In a VM it first sets the guest's own GS
 * base, so that a call that reads the thread's GS base shows whose it got.
 * Freestanding.
 */
#include "workload.h"
#include "semantics.h"

#define MSR_GS_BASE	0xc0000101

uint64_t sem_probe_run(uint64_t arg)
{
	struct sem_probe *p = (struct sem_probe *)arg;
	struct wl_ctx *c = p->ctx;

	if (p->guest_gs)
		asm volatile("wrmsr" : : "c"(MSR_GS_BASE), "a"((uint32_t)p->guest_gs),
			     "d"((uint32_t)(p->guest_gs >> 32)));
	c->regs.rax = p->nr;
	c->regs.rdi = p->a0;
	c->regs.rsi = p->a1;
	c->regs.rdx = c->regs.r10 = c->regs.r8 = c->regs.r9 = 0;
	p->ret = c->call(c, &c->regs);
	return 0;
}
