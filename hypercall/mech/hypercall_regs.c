// SPDX-License-Identifier: GPL-2.0
/*
 * hypercall-regs (hypercall/, patch 6): KVM_HC_HOST_SYSCALL_REGS, the
 * same call as the hypercall mechanism with the number and arguments in
 * registers: KVM copies no pt_regs in or out.
 */
#include "kvm_hc_abi.h"
#include "workload.h"

static int hc_regs_available(const char **why)
{
	int cap = vmm_kvm_cap(KVM_CAP_PV_HOST_SYSCALL);	/* -1: no KVM */

	*why = "kernel without KVM_HC_HOST_SYSCALL_REGS (hypercall/ patch 6)";
	return cap > 0 && (cap & KVM_PV_HOST_SYSCALL_REGS);
}

static int hc_regs_init(struct wl_inst *w, const char **why)
{
	if (wl_vm_setup(w, WL_VM_HC, why))
		return -1;
	w->ctx->call = wl_call_hypercall_regs;
	w->ctx->bare = wl_bare_hypercall;
	return 0;
}

static int hc_regs_run(struct wl_inst *w, char *why, size_t len)
{
	return wl_vm_run(w, NULL, why, len);	/* no exit is expected */
}

const struct wl_mech wl_mech_hypercall_regs = {
	.name = "hypercall-regs",
	.summary = "KVM_HC_HOST_SYSCALL_REGS: the same, the call in registers, no pt_regs copy",
	.vm = true,
	.facts = {
		[WL_SECCOMP] = { "yes", "kvm_pv_syscall.hypercall.regs_seccomp_errno", NULL },
		[WL_TRACED] = { "no: such a thread runs nothing", "kvm_pv_syscall.hypercall.regs_ptrace", NULL },
		[WL_SIGNALS] = { "yes", "kvm_pv_syscall.hypercall.regs_signal_futex_pi", NULL },
		[WL_THREAD_STATE] = { "yes: refused inside KVM_RUN", "semantics.common.gs_base", NULL },
		[WL_SAME_VA] = { "yes", NULL, "KVM translates nothing: every pointer in the call is a host address" },
		[WL_OPT_IN] = { "per vCPU, KVM_CAP_PV_HOST_SYSCALL; CONFIG_KVM_PV_HOST_SYSCALL", "kvm_pv_syscall.hypercall.regs_cap", NULL },
		[WL_NO_NESTED] = WL_FACT_VM_NESTED,
		[WL_CONFIDENTIAL] = { "no", NULL, "KVM reads the guest's registers, and a protected guest's memory cannot be laid out as the VMM's" },
	},
	.available = hc_regs_available,
	.init = hc_regs_init,
	.run = hc_regs_run,
	.destroy = wl_vm_teardown,
};
