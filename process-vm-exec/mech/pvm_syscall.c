// SPDX-License-Identifier: GPL-2.0
/*
 * pvm-syscall (process-vm-exec/): the workload code runs in the caller, and
 * each call runs in a stub's mm with PROCESS_VM_EXEC_SYSCALL.  The buffers
 * are in the shared mapping, at the same address in both mms.
 */
#include <stdlib.h>

#include "workload.h"
#include "pvm.h"

struct pvm_syscall {
	pid_t stub;
};

static long pvm_call(struct wl_ctx *c, struct pt_regs *r)
{
	struct pvm_syscall *p = c->mech_data;
	struct process_vm_exec_context ctx = {
		.version = PROCESS_VM_EXEC_CTX_V1,
		.sigctx = {
			.ax = r->rax, .di = r->rdi, .si = r->rsi, .dx = r->rdx,
			.r10 = r->r10, .r8 = r->r8, .r9 = r->r9,
		},
	};

	if (process_vm_exec(p->stub, &ctx, PROCESS_VM_EXEC_SYSCALL, NULL, NULL)) {
		c->hc_errors++;
		c->last_hc_error = -errno;
		if (errno == ESRCH)
			c->stop = 1;	/* the stub is gone: nothing more can run */
		return -ENOSYS;
	}
	return ctx.sigctx.ax;
}

static int pvm_syscall_init(struct wl_inst *w, const char **why)
{
	struct pvm_syscall *p = calloc(1, sizeof(*p));

	if (!p)
		return -1;
	w->priv = p;
	*why = "process_vm_exec() stub";
	if (wl_stub_fork(w, pvm_stub))
		return -1;
	p->stub = w->stub;
	w->ctx->mech_data = p;
	w->ctx->call = pvm_call;
	return 0;
}

static void pvm_syscall_destroy(struct wl_inst *w)
{
	wl_stub_kill(w);
	free(w->priv);
	w->priv = NULL;
}

const struct wl_mech wl_mech_pvm_syscall = {
	.name = "pvm-syscall",
	.summary = "the code runs in the caller; each call runs in a stub's mm by process_vm_exec(PROCESS_VM_EXEC_SYSCALL)",
	.program_na = "the code makes each call through process_vm_exec() itself: an unmodified program's syscall instruction is not intercepted",
	.stub = true,
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "process_vm_exec() only", NULL, "a tracer sees process_vm_exec(), not the call inside (process_vm_exec.rst)" },
		[WL_SIGNALS] = { "yes", NULL, "an interrupted call restarts process_vm_exec() or fails it with EINTR (process_vm_exec.rst)" },
		[WL_THREAD_STATE] = { "refused where it matters", NULL, "arch_prctl is refused with EPERM: the call runs in the caller's thread with another mm" },
		[WL_SAME_VA] = { "n/a", NULL, "the call runs in the stub's mm: its pointers are the stub's" },
		[WL_OPT_IN] = { "CONFIG_PROCESS_VM_EXEC, ptrace access", NULL, "PTRACE_MODE_ATTACH_REALCREDS to the stub, as process_vm_writev()" },
		[WL_NO_NESTED] = WL_FACT_NO_VM_NESTED,
		[WL_CONFIDENTIAL] = WL_FACT_NO_GUEST("the caller borrows the stub's mm"),
	},
	.available = pvm_available,
	.init = pvm_syscall_init,
	.run = wl_run_in_caller,
	.destroy = pvm_syscall_destroy,
};
