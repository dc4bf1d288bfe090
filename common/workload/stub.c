// SPDX-License-Identifier: GPL-2.0
/*
 * What the mechanisms without a VM share: the context in a shared mapping
 * (at the same address in the runner and in a stub forked after it), the
 * stub's life, and the "trusted text": a few instructions whose syscalls a
 * seccomp filter lets through and SYSCALL_USER_DISPATCH does not divert,
 * so that a SIGSYS handler can make calls and return (systrap does the
 * same with its stub's code range).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/futex.h>

#include "workload.h"

int wl_shared_alloc(struct wl_inst *w)
{
	w->shared = mmap(NULL, WL_SHARED_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w->shared == MAP_FAILED) {
		w->shared = NULL;
		return -1;
	}
	w->ctx = w->shared;
	w->job = (struct wl_job *)(w->ctx + 1);
	return 0;
}

void wl_shared_free(struct wl_inst *w)
{
	if (w->shared)
		munmap(w->shared, WL_SHARED_SIZE);
	w->shared = NULL;
}

int wl_stub_fork(struct wl_inst *w, void (*fn)(struct wl_inst *w))
{
	pid_t parent = getpid();

	w->stub = fork();
	if (w->stub < 0) {
		w->stub = 0;
		return -1;
	}
	if (!w->stub) {
		/* Never outlive the runner, whatever state it leaves us in. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(1);
		fn(w);
		_exit(1);
	}
	return 0;
}

void wl_stub_kill(struct wl_inst *w)
{
	if (w->stub > 0) {
		kill(w->stub, SIGKILL);
		waitpid(w->stub, NULL, 0);
	}
	w->stub = 0;
}

int wl_stub_dead(struct wl_inst *w, char *why, size_t len)
{
	int status;

	if (w->stub <= 0) {
		snprintf(why, len, "no stub");
		return 1;
	}
	if (waitpid(w->stub, &status, WNOHANG) != w->stub)
		return 0;
	if (WIFSIGNALED(status)) {
		snprintf(why, len, "stub %d killed by signal %d", w->stub,
			 WTERMSIG(status));
		/* wl_stub_catch_faults() may have recorded the first one. */
		if (!w->ctx->fault_signal)
			w->ctx->fault_signal = WTERMSIG(status);
	}
	else
		snprintf(why, len, "stub %d exited with status %d", w->stub,
			 WEXITSTATUS(status));
	w->stub = 0;
	return 1;
}

static struct wl_ctx *fault_ctx;

/*
 * A fault of the code in a stub whose every system call is somebody
 * else's (seccomp-unotify): record it, then end the stub without one.
 * The handler ran once (SA_RESETHAND) with every signal blocked, so the
 * trap below is fatal: a blocked synchronous signal kills.
 */
static void on_fault(int sig, siginfo_t *si, void *ucontext)
{
	ucontext_t *uc = ucontext;

	fault_ctx->fault_signal = sig;
	fault_ctx->fault_pc = uc->uc_mcontext.gregs[REG_RIP];
	fault_ctx->fault_addr = (uintptr_t)si->si_addr;
	__builtin_trap();
}

int wl_stub_catch_faults(struct wl_ctx *c)
{
	static char altstack[16384];
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa = {
		.sa_sigaction = on_fault,
		.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND,
	};
	unsigned int i;

	fault_ctx = c;
	sigfillset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL))
		return -1;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return -1;
	return 0;
}

/*
 * The trusted text.  wl_trusted_syscall(nr, a0..a5) in the C convention;
 * wl_trusted_restorer is the SA_RESTORER of the SIGSYS handlers.
 */
void wl_trusted_restorer(void);
asm(".pushsection .text.wl_trusted, \"ax\"\n"
    ".balign 64\n"
    ".globl wl_trusted_start, wl_trusted_end, wl_trusted_syscall, wl_trusted_restorer\n"
    "wl_trusted_start:\n"
    "wl_trusted_syscall:\n"
    "	movq %rdi, %rax\n"
    "	movq %rsi, %rdi\n"
    "	movq %rdx, %rsi\n"
    "	movq %rcx, %rdx\n"
    "	movq %r8, %r10\n"
    "	movq %r9, %r8\n"
    "	movq 8(%rsp), %r9\n"
    "	syscall\n"
    "	ret\n"
    "wl_trusted_restorer:\n"
    "	movl $15, %eax\n"		/* __NR_rt_sigreturn */
    "	syscall\n"
    "	ud2\n"
    "wl_trusted_end:\n"
    ".popsection\n");

#define WL_SA_RESTORER	0x04000000	/* asm/signal.h, not exported by libc */

/* The kernel's struct sigaction (the C library's differs). */
struct kernel_sigaction {
	void (*handler)(int, void *, void *);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

int wl_trusted_sigsys(void (*fn)(int sig, void *info, void *ucontext))
{
	struct kernel_sigaction sa = {
		.handler = fn,
		.flags = SA_SIGINFO | WL_SA_RESTORER,
		.restorer = wl_trusted_restorer,
		/*
		 * Everything blocked while it runs: a SIGSYS from inside the
		 * handler (a bug) then kills the stub rather than recursing.
		 */
		.mask = ~0ULL & ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1))),
	};

	return syscall(SYS_rt_sigaction, SIGSYS, &sa, NULL, 8);
}

long wl_futex_wait(uint32_t *word, uint32_t val, long timeout_ms)
{
	struct timespec ts = {
		.tv_sec = timeout_ms / 1000,
		.tv_nsec = (timeout_ms % 1000) * 1000000L,
	};

	return wl_trusted_syscall(SYS_futex, (long)word, FUTEX_WAIT, val,
				  timeout_ms < 0 ? 0 : (long)&ts, 0, 0);
}

long wl_futex_wake(uint32_t *word)
{
	return wl_trusted_syscall(SYS_futex, (long)word, FUTEX_WAKE, 1, 0, 0, 0);
}
