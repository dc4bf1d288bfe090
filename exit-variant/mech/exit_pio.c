// SPDX-License-Identifier: GPL-2.0
/*
 * exit-pio, gVisor's KVM platform today: the guest kernel exits to the VMM
 * with an `out` (a port the VMM owns), and the VMM runs the call that the
 * guest left in its pt_regs, at an address both see.
 */
#include "workload.h"

static int pio_available(const char **why)
{
	return 1;
}

static int pio_init(struct wl_inst *w, const char **why)
{
	if (wl_vm_setup(w, 0, why))
		return -1;
	w->ctx->call = wl_call_pio;
	w->ctx->bare = wl_bare_pio;
	return 0;
}

static int pio_exit(struct wl_inst *w, struct kvm_run *run, uint16_t port)
{
	if (run->exit_reason != KVM_EXIT_IO)
		return -1;
	if (port == WL_PORT_BARE)
		return 0;	/* the floor: nothing to run, not a call */
	if (port != WL_PORT_SYSCALL)
		return -1;
	wl_run_for_code(&w->ctx->regs);
	w->exits++;
	return 0;
}

static int pio_run(struct wl_inst *w, char *why, size_t len)
{
	return wl_vm_run(w, pio_exit, why, len);
}

const struct wl_mech wl_mech_exit_pio = {
	.name = "exit-pio",
	.summary = "guest `out` exits to the VMM, which runs the call",
	.vm = true,
	.runs_calls = true,
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "yes", NULL, "the VMM makes each call as its own system call, after KVM_RUN returned" },
		[WL_SIGNALS] = { "yes", NULL, "the VMM's call is an ordinary system call" },
		[WL_THREAD_STATE] = { "yes (the VMM's)", "semantics.common.gs_base", NULL },
		[WL_SAME_VA] = { "yes, here", NULL, "this VMM runs the call with the guest's pointers as they are; a VMM could translate them" },
		[WL_OPT_IN] = { "none", NULL, "any VMM handles its port I/O exits" },
		[WL_NO_NESTED] = WL_FACT_VM_NESTED,
		[WL_CONFIDENTIAL] = { "with shared buffers", NULL, "a PIO exit exposes rax and the port; the call's memory must be shared (decrypted) with the host" },
	},
	.available = pio_available,
	.init = pio_init,
	.run = pio_run,
	.destroy = wl_vm_teardown,
};
