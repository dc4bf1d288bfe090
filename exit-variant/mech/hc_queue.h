/* SPDX-License-Identifier: GPL-2.0 */
/* hc-queue's ring and guest hooks, shared by hc_queue.c and hc_queue.guest.c. */
#ifndef WL_MECH_HC_QUEUE_H
#define WL_MECH_HC_QUEUE_H

#include "workload.h"

/* The guest gave up spinning: the VMM serves (or waits for) the call. */
#define WL_PORT_QUEUE	WL_PORT_MECH

/*
 * hc-queue's ring, in the VM's arena; see mech/hc_queue.c.  Each slot is
 * one 32-bit word, the call's sequence number and its state, so that a
 * single compare-and-swap decides who runs a call and the word is also the
 * futex the fallback waits on.
 */
#define WL_QUEUE_SLOTS	16
#define WL_SLOT(seq, st)	((uint32_t)((seq) << 2) | (st))
#define WL_SLOT_STATE(w)	((w) & 3)
enum wl_slot_state {
	WL_SLOT_DONE,			/* the call's result is in; free */
	WL_SLOT_POSTED,			/* the guest posted the call */
	WL_SLOT_SERVER,			/* the VMM thread runs it */
	WL_SLOT_VCPU,			/* the vCPU thread runs it (fallback) */
};

struct wl_queue_slot {
	uint32_t word;			/* WL_SLOT(seq, state) */
	uint32_t pad;
	struct pt_regs *regs;		/* the call; NULL for the floor */
};

struct wl_queue {
	struct wl_queue_slot slot[WL_QUEUE_SLOTS];
	uint64_t head;			/* the next seq the guest posts */
	uint64_t spin;			/* guest spin budget before the exit */
};

/*
 * Every hc-queue instance this process opens from now on joins one VMM
 * thread shared by all of them (on) or starts its own (off, the default).
 */
void wl_hcq_share_server(bool on);

long wl_call_queue(struct wl_ctx *c, struct pt_regs *r);
void wl_bare_queue(struct wl_ctx *c);

#endif
