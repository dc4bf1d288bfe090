/* SPDX-License-Identifier: GPL-2.0 */
/* The bpf mechanism's program, for the test that drives its verdicts. */
#ifndef WL_MECH_BPF_H
#define WL_MECH_BPF_H

#include "workload.h"
#include "hc_policy.h"

/* The policy the bpf mechanism loaded in wl_vm_init(). */
struct hc_policy *wl_bpf_policy(struct wl_vm *w);

#endif
