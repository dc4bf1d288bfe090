// SPDX-License-Identifier: GPL-2.0
/*
 * process_vm_exec() and the in-kernel syscall runner of the hypercall
 * series meet here: a guest that asks KVM_HC_HOST_SYSCALL to run
 * process_vm_exec() must get -EPERM in both modes.  Run by KVM, it would
 * switch the mm of the vCPU thread inside KVM_RUN (and, in the code mode,
 * rewrite the frame of its ioctl()), so the series refuses anything but a
 * system call of the calling thread.  The same calls made directly, and
 * another call through the hypercall, still work: the refusal is that one.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <asm/process_vm_exec.h>

#include "kselftest.h"
#include "kvm_hc_abi.h"
#include "pvm_nested.h"
#include "workload.h"

#ifndef __NR_process_vm_exec
#define __NR_process_vm_exec 463
#endif

#define FILE_PATH "/tmp/pvm_nested.dat"

static struct process_vm_exec_context ctx;
static siginfo_t info;
static uint64_t sigmask;

/* The hypercall's own result: -1 (-KVM_EPERM) when it refused the call. */
static long last_hc;

/* Through the hypercall; the syscall's result, or a string on failure. */
static long via_hypercall(struct wl_inst *w, struct pt_regs *r, const char **err)
{
	struct vmm_exit e;
	static char why[128];

	if (vcpu_call(&w->vcpu, pvm_guest_host_syscall, (uintptr_t)r, NULL, NULL, &e)) {
		*err = vmm_exit_str(&e, why, sizeof(why));
		return 0;
	}
	last_hc = e.rax;
	if (e.rax) {
		snprintf(why, sizeof(why), "hypercall returned %ld", (long)e.rax);
		*err = why;
		return 0;
	}
	*err = NULL;
	return r->rax;
}

static void set_call(struct pt_regs *r, long nr, unsigned long flags)
{
	memset(&ctx, 0, sizeof(ctx));
	ctx.version = PROCESS_VM_EXEC_CTX_V1;
	ctx.sigctx.ax = __NR_getpid;
	memset(r, 0, sizeof(*r));
	r->rax = nr;
	r->rdi = getpid();
	r->rsi = (uintptr_t)&ctx;
	r->rdx = flags;
	r->r10 = (uintptr_t)&info;
	r->r8 = (uintptr_t)&sigmask;
	r->r9 = sizeof(sigmask);
}

/* The two mechanisms it uses, linked by name (no list: build.mk). */
extern const struct wl_mech wl_mech_hypercall, wl_mech_pvm_syscall;

int main(void)
{
	const char *why, *err;
	char reason[256];
	struct pt_regs *r;
	struct wl_inst w;
	long ret;

	ksft_print_header();
	ksft_set_plan(4);
	if (!wl_mech_pvm_syscall.available(&why))
		ksft_exit_skip("%s\n", why);
	if (wl_make_file(FILE_PATH))
		ksft_exit_fail_msg("%s: %s\n", FILE_PATH, strerror(errno));
	switch (wl_open(&w, &wl_mech_hypercall, FILE_PATH, 0, reason, sizeof(reason))) {
	case WL_MISSING:
		ksft_exit_skip("%s\n", reason);
	case WL_FAILED:
		ksft_exit_fail_msg("VM setup: %s\n", reason);
	}
	r = vmm_alloc(&w.vm, sizeof(*r));
	if (!r)
		ksft_exit_fail_msg("vmm_alloc\n");

	set_call(r, __NR_process_vm_exec, PROCESS_VM_EXEC_SYSCALL);
	ret = syscall(r->rax, r->rdi, r->rsi, r->rdx, r->r10, r->r8, r->r9);
	ksft_test_result(ret == 0 && (long)ctx.sigctx.ax == getpid(),
			 "directly: process_vm_exec(PROCESS_VM_EXEC_SYSCALL, getpid) runs\n");

	set_call(r, __NR_getppid, 0);
	ret = via_hypercall(&w, r, &err);
	ksft_test_result(!err && ret == getppid(),
			 "through KVM_HC_HOST_SYSCALL: getppid runs (%s)\n", err ?: "ok");

	set_call(r, __NR_process_vm_exec, PROCESS_VM_EXEC_SYSCALL);
	ret = via_hypercall(&w, r, &err);
	/* Refused by the hypercall's allow-list, or by process_vm_exec(). */
	ksft_test_result(((!err && ret == -EPERM) || last_hc == -1) &&
			 ctx.sigctx.ax == __NR_getpid,
			 "through KVM_HC_HOST_SYSCALL: process_vm_exec(PROCESS_VM_EXEC_SYSCALL) gets -EPERM (%ld, %s)\n",
			 ret, err ?: "ok");

	set_call(r, __NR_process_vm_exec, 0);
	ret = via_hypercall(&w, r, &err);
	ksft_test_result((!err && ret == -EPERM) || last_hc == -1,
			 "through KVM_HC_HOST_SYSCALL: process_vm_exec() of code gets -EPERM (%ld, %s)\n",
			 ret, err ?: "ok");

	wl_close(&w);
	unlink(FILE_PATH);
	ksft_finished();
}
