/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload's ops: what one iteration of each does, and the constants
 * the code and the runner agree on.
 */
#ifndef WL_OP_H
#define WL_OP_H

#include <stdbool.h>
#include "vmm.h"

enum wl_op {
	OP_BARE,	/* the mechanism's bare exit, no syscall: its floor */
	OP_NULL,	/* getppid() */
	OP_PIPE,	/* write 64 bytes to a pipe, read them back */
	OP_PREAD,	/* pread 4 KiB from a file */
	OP_OPEN,	/* open + fstat + close */
	OP_MIXED,	/* one of each of the above, in a row */
	NR_OPS,		/* the micro-ops */
	/*
	 * netperf's UDP_RR: one request, one reply (sendto + recvfrom) to an
	 * echo server on the loopback (wl_udp_start()), payload wl_udp.size,
	 * or 1 KiB; the reply must carry the request's sequence number.
	 */
	OP_UDP_RR = NR_OPS,
	OP_UDP_RR_1K,
	NR_BENCH_OPS,
	/*
	 * Tests only, not benched: an unknown syscall number must give
	 * -ENOSYS and a bad buffer -EFAULT, through every mechanism.
	 */
	OP_BAD = NR_BENCH_OPS,
	NR_ALL_OPS
};

#define WL_RR_MAX	1024		/* the 1 KiB point's payload */

/* The unknown syscall number OP_BAD makes (no mechanism uses it). */
#define WL_NR_UNKNOWN	0x7fff0ff0L
/* A buffer address mapped in no process of the workload, nor the guest. */
#define WL_BAD_PTR	0x1000UL

/* Ports of the exit mechanisms; ports from WL_PORT_MECH are theirs. */
#define WL_PORT_SYSCALL	(VMM_PORT_USER + 0)
/* exit-pio's floor: a PIO exit the VMM answers without running anything. */
#define WL_PORT_BARE	(VMM_PORT_USER + 1)
#define WL_PORT_MECH	(VMM_PORT_USER + 2)
#define WL_PIPE_BYTES	64
#define WL_PAGE		4096
#define WL_FILE_SIZE	(16 * WL_PAGE)
/* No VM: context, job and (for code run in a stub) a stack, shared. */
#define WL_STACK_SIZE	(64 * 1024)
#define WL_SHARED_SIZE	(sizeof(struct wl_ctx) + sizeof(struct wl_job) + WL_STACK_SIZE)

extern const char *const wl_op_names[NR_ALL_OPS];
/* Whether op is a udp-rr op (needs the echo server). */
static inline bool wl_op_is_udp(int op)
{
	return op == OP_UDP_RR || op == OP_UDP_RR_1K;
}
/* Syscalls one iteration of each op makes. */
extern const int wl_op_calls[NR_ALL_OPS];
/* Every syscall number the workload uses, and how many there are. */
extern const unsigned int wl_syscall_nrs[];
extern const unsigned int wl_nr_syscalls;

#endif
