// SPDX-License-Identifier: GPL-2.0
/*
 * bpf (bpf-variant/): KVM_HC_HOST_SYSCALL with both the in-kernel path and
 * the exit enabled, and a BPF program (hc_policy.bpf.c) that gives each
 * call its verdict: run it in the kernel (every call, here), send it to
 * the VMM, or refuse it.  The program is attached only while this
 * mechanism runs (enter/leave): attached, it sees every VM that opted in.
 */
#include <errno.h>
#include <stdlib.h>

#include "kvm_hc_abi.h"
#include "bpf.h"

static int bpf_available(const char **why)
{
	*why = "needs KVM_CAP_PV_HOST_SYSCALL and the hypercall exit";
	return wl_mech_by_name("hypercall")->available(why) &&
	       wl_mech_by_name("exit-hypercall")->available(why);
}

struct hc_policy *wl_bpf_policy(struct wl_inst *w)
{
	return w->priv;
}

int wl_bpf_setup(struct wl_inst *w, wl_call_fn call, const char **why)
{
	struct hc_policy *p;
	unsigned int i;

	if (wl_vm_setup(w, WL_VM_HC | WL_VM_HC_EXIT, why))
		return -1;
	w->ctx->call = call;
	w->ctx->bare = wl_bare_hypercall;
	*why = "loading hc_policy.bpf.o";
	p = hc_policy_load();
	if (!p)
		return -1;
	w->priv = p;
	/*
	 * KVM runs every call, the workload's and those a sandboxed program
	 * forwards (common/sandbox): the program's lookup costs the same.
	 */
	*why = "the policy map";
	for (i = 0; i < HCP_MAX_NR; i++)
		if (hc_policy_set(p, i, HCP_KERNEL))
			return -1;
	return 0;
}

static int bpf_init(struct wl_inst *w, const char **why)
{
	return wl_bpf_setup(w, wl_call_hypercall, why);
}

int wl_bpf_enter(struct wl_inst *w)
{
	return hc_policy_attach(w->priv);
}

void wl_bpf_leave(struct wl_inst *w)
{
	hc_policy_detach(w->priv);
}

int wl_bpf_run(struct wl_inst *w, char *why, size_t len)
{
	return wl_vm_run(w, wl_exit_hypercall, why, len);
}

void wl_bpf_destroy(struct wl_inst *w)
{
	if (w->priv)
		hc_policy_destroy(w->priv);
	w->priv = NULL;
	wl_vm_teardown(w);
}

const struct wl_mech wl_mech_bpf = {
	.name = "bpf",
	.summary = "KVM_HC_HOST_SYSCALL; a BPF program's verdict sends it to KVM's runner (or the VMM)",
	.vm = true,
	.facts = WL_BPF_FACTS,
	.available = bpf_available,
	.init = bpf_init,
	.run = wl_bpf_run,
	.enter = wl_bpf_enter,
	.leave = wl_bpf_leave,
	.destroy = wl_bpf_destroy,
};
