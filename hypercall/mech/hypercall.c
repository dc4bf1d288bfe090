// SPDX-License-Identifier: GPL-2.0
/*
 * hypercall (hypercall/): KVM_HC_HOST_SYSCALL, run by KVM in the vCPU
 * thread's context without leaving the kernel.
 */
#include "kvm_hc_abi.h"
#include "workload.h"

static int hc_available(const char **why)
{
	*why = "kernel without KVM_CAP_PV_HOST_SYSCALL (hypercall/ series)";
	return vmm_kvm_cap(KVM_CAP_PV_HOST_SYSCALL) > 0;
}

static int hc_init(struct wl_inst *w, const char **why)
{
	if (wl_vm_setup(w, WL_VM_HC, why))
		return -1;
	w->ctx->call = wl_call_hypercall;
	w->ctx->bare = wl_bare_hypercall;
	return 0;
}

static int hc_run(struct wl_inst *w, char *why, size_t len)
{
	return wl_vm_run(w, NULL, why, len);	/* no exit is expected */
}

const struct wl_mech wl_mech_hypercall = {
	.name = "hypercall",
	.summary = "KVM_HC_HOST_SYSCALL run by KVM in the vCPU thread, no exit to the VMM",
	.vm = true,
	.facts = {
		[WL_SECCOMP] = { "yes", "kvm_pv_syscall.hypercall.seccomp_errno", NULL },
		[WL_TRACED] = { "no: such a thread runs nothing", "kvm_pv_syscall.hypercall.ptrace", NULL },
		[WL_SIGNALS] = { "yes", "kvm_pv_syscall.hypercall.signal_futex_pi", NULL },
		[WL_THREAD_STATE] = { "yes: refused inside KVM_RUN", "semantics.common.gs_base", NULL },
		[WL_SAME_VA] = { "yes", NULL, "KVM translates nothing: every pointer in the call is a host address" },
		[WL_OPT_IN] = { "per vCPU, KVM_CAP_PV_HOST_SYSCALL; CONFIG_KVM_PV_HOST_SYSCALL", "kvm_pv_syscall.hypercall.cap_needs_enforce_cpuid", NULL },
		[WL_NO_NESTED] = WL_FACT_VM_NESTED,
		[WL_CONFIDENTIAL] = { "no", NULL, "KVM reads the guest's registers, and a protected guest's memory cannot be laid out as the VMM's" },
	},
	.available = hc_available,
	.init = hc_init,
	.run = hc_run,
	.destroy = wl_vm_teardown,
};
