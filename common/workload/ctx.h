/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest context: what the code (workload.guest.c, in guest ring 0 or a
 * process) works on, and the call hooks that hand a call over.
 */
#ifndef WL_CTX_H
#define WL_CTX_H

#include <stdint.h>
#include <asm/ptrace.h>
#include "op.h"

struct wl_ctx;

/*
 * How the code hands the call in c->regs over and gets its result back:
 * the syscall's return value (or -ENOSYS when the mechanism refused to run
 * it, counted in hc_errors).  Code run in a VM calls it in guest ring 0, so
 * a VM mechanism's hook is built with GUEST_CFLAGS (a *.guest.c file).
 */
typedef long (*wl_call_fn)(struct wl_ctx *c, struct pt_regs *r);
/* The mechanism's floor: its exit with nothing to run (VM mechanisms). */
typedef void (*wl_bare_fn)(struct wl_ctx *c);

/* Everything the code touches lives in the VM's arena (same VA on host). */
struct wl_ctx {
	struct pt_regs regs;		/* the syscall being handed over */
	wl_call_fn call;
	wl_bare_fn bare;		/* NULL: no floor (no VM) */
	void *mech_data;		/* the mechanism's, for its call hook */
	int pipe_r, pipe_w;
	int file_fd;
	long ppid;			/* what getppid() must return */
	uint64_t seq;			/* varies the pipe payload */
	uint64_t errors;		/* results that did not match */
	uint64_t hc_errors;		/* calls the mechanism refused to run */
	long last_hc_error;		/* the mechanism's last refusal */
	int stop;			/* set by a hook: no call can run any more */
	/*
	 * The mechanisms whose runner runs the code's calls (runs_calls) hand
	 * each to wl_serve(): the host runs it, unless serve is set (the
	 * sandbox's supervisor, common/sandbox).  A served call may end the
	 * job (stop), or give the code's thread a new FS base, which the
	 * mechanism applies before the code runs on.
	 */
	long (*serve)(struct wl_ctx *c, struct pt_regs *r);
	void *serve_arg;
	uint64_t fs_base;
	int fs_base_set;
	/*
	 * The code stopped on a fault (a signal in a stub, an exception in
	 * the guest): the signal it stands for, where, and the address.
	 */
	int fault_signal;
	uint64_t fault_pc, fault_addr;
	/* udp-rr: a socket connected to the echo server, -1 without one */
	int sock_fd;
	unsigned int rr_size;		/* OP_UDP_RR's payload */
	uint64_t rr_seq;		/* transactions made */
	uint64_t rr_fail_seq;		/* the first that failed, 0 if none */
	long rr_fail_ret;		/* what its call returned */
	int rr_fail_step;		/* 0 send, 1 receive, 2 wrong reply */
	unsigned char rr_out[WL_RR_MAX], rr_in[WL_RR_MAX];
	char path[64];
	unsigned char out[WL_PIPE_BYTES], in[WL_PIPE_BYTES];
	unsigned char page[WL_PAGE];
	unsigned char stat_buf[256];	/* struct stat of the syscall ABI */
};

struct wl_job {
	struct wl_ctx *ctx;
	int op;
	long iters;
	/* Set: the code runs program(program_arg) instead (common/sandbox). */
	uint64_t (*program)(uint64_t arg);
	uint64_t program_arg;
};

/* The code's entry: run job->op job->iters times; the wrong results. */
uint64_t wl_guest_run(uint64_t job);

/* The call hooks of workload.guest.c, for the mechanisms to pick from. */
long wl_call_syscall(struct wl_ctx *c, struct pt_regs *r);	/* `syscall` */
long wl_call_pio(struct wl_ctx *c, struct pt_regs *r);	/* out WL_PORT_SYSCALL */
long wl_call_hypercall(struct wl_ctx *c, struct pt_regs *r);	/* KVM_HC_HOST_SYSCALL */
long wl_call_hypercall_regs(struct wl_ctx *c, struct pt_regs *r); /* ..._REGS */
void wl_bare_pio(struct wl_ctx *c);
void wl_bare_hypercall(struct wl_ctx *c);

#endif
