// SPDX-License-Identifier: GPL-2.0
/*
 * hc-queue, the guest's side (guest ring 0, freestanding): post the call
 * to the ring, spin until a VMM thread has run it, and after a bounded
 * spin exit to the VMM, whose vCPU thread then runs it (or waits for the
 * VMM thread that already took it).  No VM exit while the thread keeps up.
 */
#include "hc_queue.h"

#define ENOSYS	38

/* 0 when the call in slot seq is done, whoever ran it. */
static int post(struct wl_ctx *c, struct pt_regs *r)
{
	struct wl_queue *q = c->mech_data;
	uint64_t seq = q->head++, spin;
	struct wl_queue_slot *s = &q->slot[seq % WL_QUEUE_SLOTS];

	s->regs = r;
	__atomic_store_n(&s->word, WL_SLOT(seq, WL_SLOT_POSTED), __ATOMIC_RELEASE);
	for (spin = q->spin; spin; spin--) {
		if (__atomic_load_n(&s->word, __ATOMIC_ACQUIRE) ==
		    WL_SLOT(seq, WL_SLOT_DONE))
			return 0;
		asm volatile("pause" ::: "memory");
	}
	asm volatile("outl %%eax, %%dx"
		     : : "a"(0), "d"(WL_PORT_QUEUE) : "memory");
	return __atomic_load_n(&s->word, __ATOMIC_ACQUIRE) ==
	       WL_SLOT(seq, WL_SLOT_DONE) ? 0 : -1;
}

long wl_call_queue(struct wl_ctx *c, struct pt_regs *r)
{
	if (post(c, r)) {
		c->hc_errors++;
		c->last_hc_error = -1;
		return -ENOSYS;
	}
	return r->rax;
}

/* The floor: a round trip through the ring with nothing to run. */
void wl_bare_queue(struct wl_ctx *c)
{
	if (post(c, 0))
		c->errors++;
}
