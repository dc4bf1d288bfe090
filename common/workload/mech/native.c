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

static int native_init(struct wl_vm *w, const char **why)
{
	w->ctx->call = wl_call_syscall;
	return 0;
}

static void native_destroy(struct wl_vm *w)
{
}

const struct wl_mech wl_mech_native = {
	.name = "native",
	.summary = "the code makes the syscall itself, on the host",
	.available = native_available,
	.init = native_init,
	.run = wl_run_in_caller,
	.destroy = native_destroy,
};
