// SPDX-License-Identifier: GPL-2.0
/*
 * native: the workload's code makes its syscalls itself, on the host, in
 * the runner's own process.  The physical floor every mechanism is set
 * beside.
 */
#include "workload.h"

static int native_available(const char **why)
{
	return 1;
}

static int native_init(struct wl_inst *w, const char **why)
{
	w->ctx->call = wl_call_syscall;
	return 0;
}

static void native_destroy(struct wl_inst *w)
{
}

const struct wl_mech wl_mech_native = {
	.name = "native",
	.summary = "the code makes the syscall itself, on the host",
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "yes", NULL, "the thread's own system call" },
		[WL_SIGNALS] = { "yes", NULL, "the thread's own system call: the kernel's own rules" },
		[WL_THREAD_STATE] = { "yes", NULL, "the call acts on the thread that makes it, which is the code's" },
		[WL_SAME_VA] = WL_FACT_NO_GUEST("one address space"),
		[WL_OPT_IN] = { "none", NULL, "nothing to enable" },
		[WL_NO_NESTED] = WL_FACT_NO_VM_NESTED,
		[WL_CONFIDENTIAL] = WL_FACT_NO_GUEST("nothing to protect from the host"),
	},
	.available = native_available,
	.init = native_init,
	.run = wl_run_in_caller,
	.destroy = native_destroy,
};
