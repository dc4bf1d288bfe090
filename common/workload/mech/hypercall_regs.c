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
	*why = "kernel without KVM_HC_HOST_SYSCALL_REGS (hypercall/ patch 6)";
	return vmm_kvm_cap(KVM_CAP_PV_HOST_SYSCALL) > 0 &&
	       (vmm_kvm_cap(KVM_CAP_PV_HOST_SYSCALL) & KVM_PV_HOST_SYSCALL_REGS);
}

static int hc_regs_init(struct wl_vm *w, const char **why)
{
	if (wl_vm_setup(w, WL_VM_HC, why))
		return -1;
	w->ctx->call = wl_call_hypercall_regs;
	w->ctx->bare = wl_bare_hypercall;
	return 0;
}

static int hc_regs_run(struct wl_vm *w, char *why, size_t len)
{
	return wl_vm_run(w, NULL, why, len);	/* no exit is expected */
}

const struct wl_mech wl_mech_hypercall_regs = {
	.name = "hypercall-regs",
	.summary = "KVM_HC_HOST_SYSCALL_REGS: the same, the call in registers, no pt_regs copy",
	.vm = true,
	.available = hc_regs_available,
	.init = hc_regs_init,
	.run = hc_regs_run,
	.destroy = wl_vm_teardown,
};
