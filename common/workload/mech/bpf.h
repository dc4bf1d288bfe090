/* SPDX-License-Identifier: GPL-2.0 */
/* The bpf mechanisms' program: what they share, and for the test that drives its verdicts. */
#ifndef WL_MECH_BPF_H
#define WL_MECH_BPF_H

#include "workload.h"
#include "hc_policy.h"

/* The policy the bpf mechanism loaded in wl_vm_init(). */
struct hc_policy *wl_bpf_policy(struct wl_vm *w);

/*
 * What bpf and bpf-regs share, the form of the hypercall apart: the VM,
 * the policy allowing the workload's calls, attached only between enter
 * and leave.
 */
int wl_bpf_setup(struct wl_vm *w, wl_call_fn call, const char **why);
int wl_bpf_enter(struct wl_vm *w);
void wl_bpf_leave(struct wl_vm *w);
int wl_bpf_run(struct wl_vm *w, char *why, size_t len);
void wl_bpf_destroy(struct wl_vm *w);

#endif
