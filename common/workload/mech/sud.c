// SPDX-License-Identifier: GPL-2.0
/*
 * sud, tglx's alternative (27 Jul 2022): SYSCALL_USER_DISPATCH, in the
 * kernel since 5.11.  The workload code runs in the runner's own thread
 * with dispatch on and the selector at BLOCK: each of its syscall
 * instructions raises SIGSYS instead, and the handler runs the call from
 * the trusted text (which dispatch exempts) and sets the result in the
 * interrupted context.  No VM, no second process: the cost is the signal
 * delivery and sigreturn that tglx's "lightweight signal" would shorten.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <ucontext.h>

#include "workload.h"

/* The handler's view: one sud mechanism at a time (a process has one SIGSYS). */
static struct wl_inst *sud_owner;
static volatile char sud_selector = SYSCALL_DISPATCH_FILTER_ALLOW;

static int sud_available(const char **why)
{
	/* Turning it off is accepted wherever the prctl exists. */
	*why = "kernel without PR_SET_SYSCALL_USER_DISPATCH";
	return prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0) == 0;
}

static void sud_sigsys(int sig, void *info, void *ucontext)
{
	siginfo_t *si = info;
	greg_t *g = ((ucontext_t *)ucontext)->uc_mcontext.gregs;

	if (si->si_code != 2 /* SYS_USER_DISPATCH */ || !sud_owner) {
		/* Not a dispatch (a stray SIGSYS): fail the call, run nothing. */
		g[REG_RAX] = -ENOSYS;
		return;
	}
	g[REG_RAX] = wl_trusted_syscall(si->si_syscall, g[REG_RDI], g[REG_RSI],
					g[REG_RDX], g[REG_R10], g[REG_R8], g[REG_R9]);
	sud_owner->exits++;
}

static int sud_init(struct wl_inst *w, const char **why)
{
	*why = "another sud mechanism is set up (one SIGSYS per process)";
	if (sud_owner) {
		errno = EBUSY;
		return -1;
	}
	*why = "the SIGSYS handler";
	if (wl_trusted_sigsys(sud_sigsys))
		return -1;
	sud_owner = w;
	w->ctx->call = wl_call_syscall;
	return 0;
}

/*
 * Dispatch is on only between enter and leave: a thread with it on is
 * one that KVM_HC_HOST_SYSCALL refuses (its rules fail closed on SUD), and
 * the runner runs the VM mechanisms in this same thread.
 */
static int sud_enter(struct wl_inst *w)
{
	sud_selector = SYSCALL_DISPATCH_FILTER_ALLOW;
	return prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON,
		     (unsigned long)wl_trusted_start,
		     (unsigned long)(wl_trusted_end - wl_trusted_start),
		     (unsigned long)&sud_selector);
}

static void sud_leave(struct wl_inst *w)
{
	prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0);
}

static int sud_run(struct wl_inst *w, char *why, size_t len)
{
	/* Only the code's own calls are diverted, none of the runner's. */
	sud_selector = SYSCALL_DISPATCH_FILTER_BLOCK;
	asm volatile("" ::: "memory");
	wl_guest_run((uintptr_t)w->job);
	asm volatile("" ::: "memory");
	sud_selector = SYSCALL_DISPATCH_FILTER_ALLOW;
	return 0;
}

static void sud_destroy(struct wl_inst *w)
{
	if (sud_owner != w)
		return;
	sud_leave(w);
	signal(SIGSYS, SIG_DFL);
	sud_owner = NULL;
}

const struct wl_mech wl_mech_sud = {
	.name = "sud",
	.summary = "SYSCALL_USER_DISPATCH: the syscall raises SIGSYS in the same thread; the handler runs it",
	.program_na = "the program would run in the runner's own thread with SIGSYS handlers: its FS base and its end would be the runner's, and the sandbox does not switch them back",
	.runs_calls = true,
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "yes", NULL, "the SIGSYS handler makes the call as the thread's own system call" },
		[WL_SIGNALS] = { "yes", NULL, "the handler's call is an ordinary system call" },
		[WL_THREAD_STATE] = { "yes", NULL, "the handler runs in the code's own thread, on its own FS/GS and FPU" },
		[WL_SAME_VA] = WL_FACT_NO_GUEST("one address space"),
		[WL_OPT_IN] = { "prctl, no privilege", NULL, "PR_SET_SYSCALL_USER_DISPATCH by the thread itself" },
		[WL_NO_NESTED] = WL_FACT_NO_VM_NESTED,
		[WL_CONFIDENTIAL] = WL_FACT_NO_GUEST("one address space"),
	},
	.available = sud_available,
	.init = sud_init,
	.run = sud_run,
	.enter = sud_enter,
	.leave = sud_leave,
	.destroy = sud_destroy,
};
