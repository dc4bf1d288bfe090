/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WL_MECH_VM_H
#define WL_MECH_VM_H

#include "mech.h"

/* Shared by the VM mechanisms (vm.c). */
typedef int (*wl_exit_fn)(struct wl_inst *w, struct kvm_run *run, uint16_t port);
#define WL_VM_HC	(1 << 0)	/* KVM_CAP_PV_HOST_SYSCALL on the vCPU */
#define WL_VM_HC_EXIT	(1 << 1)	/* KVM_HC_HOST_SYSCALL exits to userspace */
int wl_vm_setup(struct wl_inst *w, unsigned int caps, const char **why);
/* Run the job in the vCPU; exits the VMM does not own go to fn. */
int wl_vm_run(struct wl_inst *w, wl_exit_fn fn, char *why, size_t len);
void wl_vm_teardown(struct wl_inst *w);
/* The ctx and job live in the VM's arena (after wl_vm_setup()). */
int wl_vm_alloc_ctx(struct wl_inst *w);
/* exit-hypercall's exit handler, which bpf shares: the VMM runs the call. */
int wl_exit_hypercall(struct wl_inst *w, struct kvm_run *run, uint16_t port);

#endif
