// SPDX-License-Identifier: GPL-2.0
/*
 * pvm-exec, the Sentry-on-host model of the 2021 process_vm_exec() RFC
 * (process-vm-exec/): a stub process, forked after the shared context is
 * mapped, lends its mm; the workload code runs in it, and each of its
 * syscall instructions brings the thread back from process_vm_exec() with
 * the registers: the caller runs the call itself and resumes the code with
 * the result.  The buffers are in the shared mapping, at the same address
 * in both mms.
 */
#include <stdio.h>
#include <string.h>

#include "workload.h"
#include "pvm.h"

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

static int pvm_exec_init(struct wl_inst *w, const char **why)
{
	w->ctx->call = wl_call_syscall;
	*why = "process_vm_exec() stub";
	return wl_stub_fork(w, pvm_stub);
}

/* The call the code made, as a pt_regs, to wl_serve(). */
static long serve(struct wl_ctx *c, const struct process_vm_exec_sigcontext *r)
{
	struct pt_regs p = {
		.orig_rax = r->ax, .rax = r->ax, .rdi = r->di, .rsi = r->si,
		.rdx = r->dx, .r10 = r->r10, .r8 = r->r8, .r9 = r->r9,
		.rip = r->ip, .rsp = r->sp, .eflags = r->flags,
	};

	return wl_serve(c, &p);
}

/* Run one job's code in the stub's mm: 0 when it reported done. */
static int pvm_exec_run(struct wl_inst *w, char *why, size_t len)
{
	uintptr_t top = ((uintptr_t)w->shared + WL_SHARED_SIZE) & ~15UL;
	struct process_vm_exec_context ctx = { .version = PROCESS_VM_EXEC_CTX_V1 };
	struct process_vm_exec_sigcontext *r = &ctx.sigctx;
	siginfo_t info;
	sigset_t mask;

	/* A fault of the code comes back to us, with where it happened. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGSEGV);
	sigaddset(&mask, SIGBUS);
	sigaddset(&mask, SIGILL);
	sigaddset(&mask, SIGFPE);
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
			w->ctx->fault_signal = info.si_signo;
			w->ctx->fault_pc = r->ip;
			w->ctx->fault_addr = (uintptr_t)info.si_addr;
			snprintf(why, len, "code stopped by signal %d at %#llx (address %p)",
				 info.si_signo, (unsigned long long)r->ip, info.si_addr);
			return -1;
		}
		if ((long)r->ax == WL_PVM_DONE)
			return 0;
		r->ax = serve(w->ctx, r);
		w->exits++;
		if (w->ctx->fs_base_set) {
			ctx.fs_base = w->ctx->fs_base;
			w->ctx->fs_base_set = 0;
		}
		if (w->ctx->stop)
			return 0;	/* the call ended the code */
	}
}

const struct wl_mech wl_mech_pvm_exec = {
	.name = "pvm-exec",
	.summary = "the code runs in a stub's mm by process_vm_exec(); its syscalls return to the caller, which runs them",
	.stub = true,
	.runs_calls = true,
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "the caller's call, yes", NULL, "the caller makes each call as its own system call (the code's own calls are not seen, process_vm_exec.rst)" },
		[WL_SIGNALS] = { "yes", NULL, "the caller's call is an ordinary system call; a signal brings the code back to the caller" },
		[WL_THREAD_STATE] = { "FS/GS: the code's; FPU: shared", NULL, "the context carries the code's FS/GS bases; the FPU state is not switched (process_vm_exec.rst)" },
		[WL_SAME_VA] = { "yes (two mms)", NULL, "the caller uses the code's pointers in its own mm: shared memory at the same address" },
		[WL_OPT_IN] = { "CONFIG_PROCESS_VM_EXEC, ptrace access", NULL, "PTRACE_MODE_ATTACH_REALCREDS to the stub, as process_vm_writev()" },
		[WL_NO_NESTED] = WL_FACT_NO_VM_NESTED,
		[WL_CONFIDENTIAL] = WL_FACT_NO_GUEST("the caller borrows the stub's mm"),
	},
	.available = pvm_available,
	.init = pvm_exec_init,
	.run = pvm_exec_run,
	.destroy = wl_stub_kill,
};
