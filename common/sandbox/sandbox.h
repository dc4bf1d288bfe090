/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sandbox: an unmodified static x86-64 program whose system calls a
 * mechanism of the workload serves (see README.md).
 *
 * The program's memory is three MAP_SHARED regions at the addresses the
 * program expects (its image followed by its brk heap, its stack, an arena
 * that mmap() hands out), the same in every process and VM that touches
 * it: the sandbox's own process, a stub forked from it, and the guest,
 * whose page tables map them at guest-virtual == host-virtual.  So a
 * pointer the program passes to a system call is valid wherever the call
 * runs, as the hypercall requires.
 *
 * The supervisor (supervisor.guest.c) sees every call: it runs itself what
 * cannot pass through (memory, the FS base, signals, exit), forwards what
 * every mechanism can run, and refuses the rest, which ends the program.
 * Its state, struct sb_state, is a fourth shared region.
 */
#ifndef SANDBOX_H
#define SANDBOX_H

#include <stdint.h>
#include <asm/ptrace.h>

#define SB_PAGE		4096UL
#define SB_HEAP_SIZE	(64UL << 20)	/* brk() room after the image */
#define SB_STACK_SIZE	(8UL << 20)
#define SB_ARENA_SIZE	(256UL << 20)	/* what mmap() hands out */
#define SB_ARENA_PAGES	(SB_ARENA_SIZE / SB_PAGE)
#define SB_NR_MAX	512		/* calls are counted per number below this */
#define SB_NR_RLIMITS	16
#define SB_PATH_MAX	256
/*
 * The program's descriptors are the sandbox's: 0..SB_FD_LIMIT-1 are left
 * to the program, the sandbox's own (KVM, the mechanism's) sit above, and
 * the supervisor refuses to close or replace those.
 */
#define SB_FD_LIMIT	64

/* How the program ended. */
enum sb_end {
	SB_RUNNING,
	SB_EXITED,	/* exit() or exit_group(): exit_status */
	SB_REFUSED,	/* a call the sandbox does not run: refused_nr at refused_pc */
	SB_KILLED,	/* it sent itself a signal whose default action ends it */
};

/* The exit status of a program that did not exit by itself. */
#define SB_STATUS_SIGNAL(sig)	(128 + (sig))

/* The kernel's struct sigaction on x86-64. */
struct sb_sigaction {
	uint64_t handler, flags, restorer, mask;
};

struct sb_state {
	/* Where the program starts (offsets used by ring3.guest.c's asm). */
	uint64_t entry;			/* 0: its first instruction */
	uint64_t sp;			/* 8: argc, argv, envp, auxv */
	/* Its memory, set by the loader. */
	uint64_t image, brk_start, brk, brk_end;
	uint64_t stack;			/* SB_STACK_SIZE bytes */
	uint64_t arena;			/* SB_ARENA_SIZE bytes */
	/* What the supervisor answers itself, captured before the run. */
	uint64_t pid;			/* the process whose calls these are */
	struct { uint64_t cur, max; } rlim[SB_NR_RLIMITS];
	char exe[SB_PATH_MAX];		/* readlink("/proc/self/exe") */
	char comm[16];			/* prctl(PR_GET_NAME) */
	char cwd[SB_PATH_MAX];		/* getcwd() */
	/* How a forwarded call reaches the host: the mechanism's hook. */
	long (*forward)(void *ctx, struct pt_regs *r);
	void *forward_ctx;

	/* The supervisor's own state. */
	uint8_t arena_used[SB_ARENA_PAGES / 8];
	struct sb_sigaction act[64];
	uint64_t sigmask;
	uint64_t fs_base;
	int fs_set;			/* fs_base changed: the thread must get it */
	/* Where a call the supervisor makes for itself writes (shared). */
	uint64_t scratch[2];

	/* How it ended. */
	int end;			/* enum sb_end */
	int exit_status;
	int signal;			/* SB_KILLED */
	uint64_t refused_nr, refused_pc;
	/* Calls per number (the last bucket: SB_NR_MAX and above). */
	uint64_t calls[SB_NR_MAX + 1];
	uint64_t handled, forwarded;
	/* Run time, from the first instruction to the end (CLOCK_MONOTONIC). */
	uint64_t t_start_ns, t_end_ns;
};

/*
 * The supervisor: serve the call in @r (the number in rax, the arguments
 * in rdi, rsi, rdx, r10, r8, r9; ip and sp the program's), result in
 * r->rax.  It may end the program (s->end) or change its FS base
 * (s->fs_set).  Freestanding: it runs in guest ring 0 as well.
 */
void sb_syscall(struct sb_state *s, struct pt_regs *r);

/*
 * Run the program on the vCPU, from guest ring 0 (a VM mechanism's code):
 * enter it in ring 3; its syscall instructions come back to the supervisor
 * in ring 0; returns when it ended.  @arg is the struct sb_state.
 */
uint64_t sb_guest_enter(uint64_t arg);
/* Run the program here, in a stub or the caller: jump into it. */
uint64_t sb_jump(uint64_t arg);
/*
 * The supervisor's way out in a VM: the mechanism's hook (c->call), with
 * the call where every hook looks for it; @ctx is the struct wl_ctx.
 */
long sb_vm_forward(void *ctx, struct pt_regs *r);

#endif
