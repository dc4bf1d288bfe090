// SPDX-License-Identifier: GPL-2.0
/*
 * exit-hypercall (exit-variant/): KVM_HC_HOST_SYSCALL with only
 * KVM_PV_HOST_SYSCALL_EXIT enabled, so KVM checks each call as it would
 * its own and forwards it to the VMM as KVM_EXIT_HYPERCALL, and the VMM
 * runs it.  The plain exit path, with the hypercall's ABI.
 */
#include "kvm_hc_abi.h"
#include "workload.h"

static int exit_hc_available(const char **why)
{
	int cap = vmm_kvm_cap(KVM_CAP_PV_HOST_SYSCALL);

	*why = "KVM_CAP_PV_HOST_SYSCALL lacks KVM_PV_HOST_SYSCALL_EXIT (exit-variant/ series)";
	return cap > 0 && (cap & KVM_PV_HOST_SYSCALL_EXIT);
}

static int exit_hc_init(struct wl_inst *w, const char **why)
{
	if (wl_vm_setup(w, WL_VM_HC_EXIT, why))
		return -1;
	w->ctx->call = wl_call_hypercall;
	w->ctx->bare = wl_bare_hypercall;
	return 0;
}

static int exit_hc_run(struct wl_inst *w, char *why, size_t len)
{
	return wl_vm_run(w, wl_exit_hypercall, why, len);
}

const struct wl_mech wl_mech_exit_hypercall = {
	.name = "exit-hypercall",
	.summary = "KVM_HC_HOST_SYSCALL forwarded to the VMM as KVM_EXIT_HYPERCALL; the VMM runs it",
	.vm = true,
	.runs_calls = true,
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "yes", NULL, "the VMM makes each call as its own system call, after KVM_RUN returned" },
		[WL_SIGNALS] = { "yes", NULL, "the VMM's call is an ordinary system call" },
		[WL_THREAD_STATE] = { "yes (the VMM's)", "semantics.common.gs_base", NULL },
		[WL_SAME_VA] = { "yes, here", NULL, "the VMM runs the call with the guest's pointers as they are; a VMM could translate them" },
		[WL_OPT_IN] = { "per vCPU, KVM_PV_HOST_SYSCALL_EXIT in KVM_CAP_PV_HOST_SYSCALL", "kvm_pv_syscall_exit.exit.vmm_write", NULL },
		[WL_NO_NESTED] = WL_FACT_VM_NESTED,
		[WL_CONFIDENTIAL] = { "no", NULL, "KVM reads the hypercall's registers, which a protected guest (SEV-ES/SNP, TDX) does not expose: it would need a GHCB/TDVMCALL protocol" },
	},
	.available = exit_hc_available,
	.init = exit_hc_init,
	.run = exit_hc_run,
	.destroy = wl_vm_teardown,
};
