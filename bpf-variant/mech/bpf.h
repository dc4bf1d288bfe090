/* SPDX-License-Identifier: GPL-2.0 */
/* The bpf mechanisms' program: what they share, and for the test that drives its verdicts. */
#ifndef WL_MECH_BPF_H
#define WL_MECH_BPF_H

#include "workload.h"
#include "hc_policy.h"

/* The policy the bpf mechanism loaded in wl_inst_init(). */
struct hc_policy *wl_bpf_policy(struct wl_inst *w);

/*
 * What bpf and bpf-regs share, the form of the hypercall apart: the VM,
 * the policy allowing the workload's calls, attached only between enter
 * and leave.
 */
/* What holds of both forms: the verdict, then the hypercall's runner. */
#define WL_BPF_FACTS {								\
	[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,	\
	[WL_TRACED] = { "no: such a thread runs nothing", NULL, "after the verdict the call goes to the hypercall's runner, which refuses a traced thread" },	\
	[WL_SIGNALS] = { "yes", NULL, "after the verdict the call goes to the hypercall's runner; a program only decides, it never blocks" },	\
	[WL_THREAD_STATE] = { "yes: refused inside KVM_RUN", "semantics.common.gs_base", NULL },	\
	[WL_SAME_VA] = { "yes", NULL, "KVM translates nothing: every pointer in the call is a host address" },	\
	[WL_OPT_IN] = { "per vCPU, and CAP_BPF + CAP_PERFMON to attach", "bpf_hc.bpf.unprivileged_loader", NULL },	\
	[WL_NO_NESTED] = WL_FACT_VM_NESTED,	\
	[WL_CONFIDENTIAL] = { "no", NULL, "as the hypercall: KVM reads the guest's registers" },	\
}

int wl_bpf_setup(struct wl_inst *w, wl_call_fn call, const char **why);
int wl_bpf_enter(struct wl_inst *w);
void wl_bpf_leave(struct wl_inst *w);
int wl_bpf_run(struct wl_inst *w, char *why, size_t len);
void wl_bpf_destroy(struct wl_inst *w);

#endif
