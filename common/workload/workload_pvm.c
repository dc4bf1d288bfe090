// SPDX-License-Identifier: GPL-2.0
/*
 * The process_vm_exec() mechanisms (process-vm-exec/ series), without a VM.
 * A stub process, forked after the shared context is mapped, lends its mm:
 *
 * MECH_PVM_EXEC, the Sentry-on-host model of the 2021 RFC: the workload
 * code runs in the stub's mm; each of its syscall instructions brings the
 * thread back from process_vm_exec() with the registers, the caller runs
 * the call itself and resumes the code with the result.
 *
 * MECH_PVM_SYSCALL: the workload code runs in the caller, and each call
 * runs in the stub's mm with PROCESS_VM_EXEC_SYSCALL.
 *
 * The buffers are in the shared mapping, at the same address in both mms.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <asm/process_vm_exec.h>

#include "workload.h"

#ifndef __NR_process_vm_exec
#define __NR_process_vm_exec 463
#endif

/* The code's last act: a syscall with this number says the job is done. */
#define WL_PVM_DONE	0x7fff0003L

/* Where wl_guest_run() returns to, in the stub's mm. */
extern char wl_pvm_return[];
asm(".pushsection .text, \"ax\"\n"
    "wl_pvm_return:\n"
    "	movl $0x7fff0003, %eax\n"
    "	syscall\n"
    "	ud2\n"
    ".popsection\n");

static long process_vm_exec(pid_t pid, struct process_vm_exec_context *ctx,
			    unsigned long flags, siginfo_t *info, sigset_t *mask)
{
	/* sigsetsize: the kernel's sigset_t (8), not the C library's. */
	return syscall(__NR_process_vm_exec, pid, ctx, flags, info, mask, 8);
}

int wl_pvm_available(void)
{
	/* A NULL context: -EFAULT when the call exists, -ENOSYS when not. */
	return process_vm_exec(0, NULL, PROCESS_VM_EXEC_SYSCALL, NULL, NULL) == -1 &&
	       errno != ENOSYS;
}

static void pvm_syscall(struct wl_ctx *c, struct pt_regs *r)
{
	struct process_vm_exec_context ctx = {
		.version = PROCESS_VM_EXEC_CTX_V1,
		.sigctx = {
			.ax = r->rax, .di = r->rdi, .si = r->rsi, .dx = r->rdx,
			.r10 = r->r10, .r8 = r->r8, .r9 = r->r9,
		},
	};

	if (process_vm_exec(c->stub, &ctx, PROCESS_VM_EXEC_SYSCALL, NULL, NULL)) {
		c->hc_errors++;
		c->last_hc_error = -errno;
		r->rax = -ENOSYS;
		return;
	}
	r->rax = ctx.sigctx.ax;
}

/* The stub only lends its mm: it sleeps until killed. */
int pvm_start(struct wl_vm *w)
{
	w->stub = fork();
	if (w->stub < 0)
		return -1;
	if (!w->stub) {
		for (;;)
			pause();
	}
	w->ctx->stub = w->stub;
	w->ctx->pvm_syscall = pvm_syscall;
	return 0;
}

/* Run one job's code in the stub's mm: 0 when it reported done. */
int pvm_run(struct wl_vm *w, char *why, size_t len)
{
	uintptr_t top = ((uintptr_t)w->shared + WL_SHARED_SIZE) & ~15UL;
	struct process_vm_exec_context ctx = { .version = PROCESS_VM_EXEC_CTX_V1 };
	struct process_vm_exec_sigcontext *r = &ctx.sigctx;
	siginfo_t info;
	sigset_t mask;

	sigemptyset(&mask);
	/* As if called: a return address, and sp + 8 16-byte aligned. */
	top -= 8;
	*(uintptr_t *)top = (uintptr_t)wl_pvm_return;
	r->sp = top;
	r->ip = (uintptr_t)wl_guest_run;
	r->di = (uintptr_t)w->job;
	r->flags = 0x202;

	for (;;) {
		if (process_vm_exec(w->stub, &ctx, 0, &info, &mask)) {
			if (errno == EINTR)
				continue;	/* a signal of ours: resume */
			snprintf(why, len, "process_vm_exec: %s", strerror(errno));
			return -1;
		}
		if (info.si_signo != SIGSYS) {
			snprintf(why, len, "code stopped by signal %d at %#llx",
				 info.si_signo, (unsigned long long)r->ip);
			return -1;
		}
		if ((long)r->ax == WL_PVM_DONE)
			return 0;
		r->ax = host_syscall(r->ax, r->di, r->si, r->dx, r->r10, r->r8, r->r9);
		w->exits++;
	}
}
