/* SPDX-License-Identifier: GPL-2.0 */
/* What the two process_vm_exec() mechanisms share (process-vm-exec/ series). */
#ifndef WL_MECH_PVM_H
#define WL_MECH_PVM_H

#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <asm/process_vm_exec.h>

#ifndef __NR_process_vm_exec
#define __NR_process_vm_exec 463
#endif

static inline long process_vm_exec(pid_t pid, struct process_vm_exec_context *ctx,
				   unsigned long flags, siginfo_t *info,
				   sigset_t *mask)
{
	/* sigsetsize: the kernel's sigset_t (8), not the C library's. */
	return syscall(__NR_process_vm_exec, pid, ctx, flags, info, mask, 8);
}

static inline int pvm_available(const char **why)
{
	struct process_vm_exec_context ctx = {
		.version = PROCESS_VM_EXEC_CTX_V1,
		.sigctx.ax = __NR_getppid,
	};

	/*
	 * Run getppid in our own mm: only process_vm_exec() gives that answer
	 * (a kernel without the series may have another call at this number).
	 */
	*why = "kernel without process_vm_exec() (process-vm-exec/ series)";
	return process_vm_exec(getpid(), &ctx, PROCESS_VM_EXEC_SYSCALL, NULL, NULL) == 0 &&
	       (long)ctx.sigctx.ax == getppid();
}

/* The stub only lends its mm: it sleeps until killed. */
static inline void pvm_stub(struct wl_inst *w)
{
	for (;;)
		pause();
}

#endif
