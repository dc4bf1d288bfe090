// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace-sysemu, gVisor's ptrace platform in miniature: a stub process runs
 * the workload with real syscall instructions under PTRACE_SYSEMU; each
 * syscall stops it before it runs, and the tracer runs the call itself
 * (the stub's context is in shared memory at the same address, and the
 * descriptors are inherited) and resumes it with the result.  A syscall
 * with number WL_PTRACE_DONE tells the tracer that a job is finished.
 */
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

#define WL_PTRACE_DONE	0x7fff0002L

static int ptrace_available(const char **why)
{
	return 1;
}

static void ptrace_stub(struct wl_inst *w)
{
	/*
	 * Stop with a bare kill(2), not raise(3): raise makes syscalls after
	 * the stop, which PTRACE_SYSEMU would hand to the tracer.
	 */
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) == 0 &&
	    syscall(SYS_kill, syscall(SYS_getpid), SIGSTOP) == 0)
		for (;;) {
			wl_guest_run((uintptr_t)w->job);
			syscall(WL_PTRACE_DONE);
		}
}

static int ptrace_init(struct wl_inst *w, const char **why)
{
	int status;

	w->ctx->call = wl_call_syscall;
	*why = "ptrace stub";
	if (wl_stub_fork(w, ptrace_stub))
		return -1;
	if (waitpid(w->stub, &status, 0) != w->stub || !WIFSTOPPED(status))
		return -1;
	return ptrace(PTRACE_SETOPTIONS, w->stub, 0, PTRACE_O_EXITKILL);
}

_Static_assert(offsetof(struct user_regs_struct, ss) == offsetof(struct pt_regs, ss),
	       "struct user_regs_struct begins as struct pt_regs");

/* The code took a signal (a fault): say so, and leave it stopped. */
static int code_fault(struct wl_inst *w, int sig, const struct user_regs_struct *regs,
		      char *why, size_t len)
{
	siginfo_t si = { 0 };

	ptrace(PTRACE_GETSIGINFO, w->stub, 0, &si);
	w->ctx->fault_signal = sig;
	w->ctx->fault_pc = regs->rip;
	w->ctx->fault_addr = (uintptr_t)si.si_addr;
	snprintf(why, len, "code stopped by signal %d at %#llx (address %p)", sig,
		 (unsigned long long)regs->rip, si.si_addr);
	return -1;
}

/* Run one job in the stub: 0 when it reported done, -1 otherwise. */
static int ptrace_run(struct wl_inst *w, char *why, size_t len)
{
	struct user_regs_struct regs;
	int status = 0;

	for (;;) {
		if (ptrace(PTRACE_SYSEMU, w->stub, 0, 0) ||
		    waitpid(w->stub, &status, 0) != w->stub)
			goto err;
		if (WIFSIGNALED(status) || WIFEXITED(status)) {
			snprintf(why, len, "ptrace stub died (status %#x)", status);
			w->stub = 0;
			return -1;
		}
		if (!WIFSTOPPED(status) || ptrace(PTRACE_GETREGS, w->stub, 0, &regs))
			goto err;
		if (WSTOPSIG(status) != SIGTRAP)
			return code_fault(w, WSTOPSIG(status), &regs, why, len);
		if ((long)regs.orig_rax == WL_PTRACE_DONE)
			return 0;
		/* The frame's first 21 words are a struct pt_regs. */
		regs.rax = regs.orig_rax;
		regs.rax = wl_serve(w->ctx, (struct pt_regs *)&regs);
		w->exits++;
		if (w->ctx->fs_base_set) {
			regs.fs_base = w->ctx->fs_base;
			w->ctx->fs_base_set = 0;
		}
		if (ptrace(PTRACE_SETREGS, w->stub, 0, &regs))
			goto err;
		if (w->ctx->stop)
			return 0;	/* the call ended the code: the stub stays stopped */
	}
err:
	snprintf(why, len, "ptrace stub: %s (status %#x)", strerror(errno), status);
	return -1;
}

const struct wl_mech wl_mech_ptrace_sysemu = {
	.name = "ptrace-sysemu",
	.summary = "a stub's syscall stops it under PTRACE_SYSEMU; the tracer runs the call",
	.stub = true,
	.runs_calls = true,
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "the tracer's call, yes", NULL, "the tracer makes each call as its own system call; the stub's own tracer is the mechanism" },
		[WL_SIGNALS] = { "yes", NULL, "the tracer's call is an ordinary system call" },
		[WL_THREAD_STATE] = { "the tracer's", NULL, "the call runs in the tracer's thread, on the tracer's FS/GS and FPU (a Sentry emulates these calls)" },
		[WL_SAME_VA] = { "yes (stub and tracer)", NULL, "the tracer uses the stub's pointers in its own mm: shared memory at the same address" },
		[WL_OPT_IN] = { "none", NULL, "the stub asks to be traced (PTRACE_TRACEME)" },
		[WL_NO_NESTED] = WL_FACT_NO_VM_NESTED,
		[WL_CONFIDENTIAL] = WL_FACT_NO_GUEST("the tracer reads the stub"),
	},
	.available = ptrace_available,
	.init = ptrace_init,
	.run = ptrace_run,
	.destroy = wl_stub_kill,
};
