// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-regs (hypercall/ patch 6 + bpf-variant/): the bpf mechanism with the
 * call in registers, KVM_HC_HOST_SYSCALL_REGS.  The program sees both
 * forms as the same pt_regs (KVM's copy), so the policy is the same; the
 * register form has no exit, so a TO_VMM verdict gives -KVM_ENOSYS.
 */
#include "kvm_hc_abi.h"
#include "bpf.h"

static int bpf_regs_available(const char **why)
{
	return wl_mech_by_name("bpf")->available(why) &&
	       wl_mech_by_name("hypercall-regs")->available(why);
}

static int bpf_regs_init(struct wl_inst *w, const char **why)
{
	return wl_bpf_setup(w, wl_call_hypercall_regs, why);
}

const struct wl_mech wl_mech_bpf_regs = {
	.name = "bpf-regs",
	.summary = "KVM_HC_HOST_SYSCALL_REGS, given its verdict by the same BPF program",
	.vm = true,
	.facts = WL_BPF_FACTS,
	.available = bpf_regs_available,
	.init = bpf_regs_init,
	.run = wl_bpf_run,
	.enter = wl_bpf_enter,
	.leave = wl_bpf_leave,
	.destroy = wl_bpf_destroy,
};
