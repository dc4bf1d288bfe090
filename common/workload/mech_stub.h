/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WL_MECH_STUB_H
#define WL_MECH_STUB_H

#include "mech.h"

/* Shared by the mechanisms without a VM (stub.c). */
/*
 * In a stub that makes no system call of its own: record a fault of the
 * code in c->fault_* before the signal ends the stub (0, or -1).
 */
int wl_stub_catch_faults(struct wl_ctx *c);
/* Map ctx, job and a stack shared, so that a stub sees them at the same VA. */
int wl_shared_alloc(struct wl_inst *w);
void wl_shared_free(struct wl_inst *w);
/* Fork a stub that runs fn(w) with SIGKILL on our death; 0 or -1. */
int wl_stub_fork(struct wl_inst *w, void (*fn)(struct wl_inst *w));
/* Kill and reap the stub, if there is one. */
void wl_stub_kill(struct wl_inst *w);
/* 1 if the stub has died (reaped, with a description in why). */
int wl_stub_dead(struct wl_inst *w, char *why, size_t len);
/*
 * A syscall made from the stub's trusted text: the range that the
 * seccomp-trap filter allows and that SYSCALL_USER_DISPATCH exempts.
 */
long wl_trusted_syscall(long nr, long a0, long a1, long a2, long a3, long a4,
			long a5);
extern char wl_trusted_start[], wl_trusted_end[];
/* Install a SIGSYS handler whose sigreturn is in the trusted text. */
int wl_trusted_sigsys(void (*fn)(int sig, void *info, void *ucontext));
/* futex wait/wake on a shared (not private) word, from the trusted text. */
long wl_futex_wait(uint32_t *word, uint32_t val, long timeout_ms);
long wl_futex_wake(uint32_t *word);

#endif
