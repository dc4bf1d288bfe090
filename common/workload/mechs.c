// SPDX-License-Identifier: GPL-2.0
/*
 * Every mechanism, in the order of the tables.  Adding one: its file in
 * mech/, one line here, one object in common/build.mk.
 */
#include "workload.h"

extern const struct wl_mech wl_mech_native, wl_mech_ptrace_sysemu,
	wl_mech_sud, wl_mech_seccomp_trap, wl_mech_seccomp_unotify,
	wl_mech_pvm_exec, wl_mech_pvm_syscall, wl_mech_exit_pio,
	wl_mech_exit_hypercall, wl_mech_hypercall, wl_mech_hypercall_regs,
	wl_mech_bpf, wl_mech_bpf_regs, wl_mech_hc_queue;

const struct wl_mech *const wl_mechs[] = {
	&wl_mech_native,
	&wl_mech_ptrace_sysemu,
	&wl_mech_sud,
	&wl_mech_seccomp_trap,
	&wl_mech_seccomp_unotify,
	&wl_mech_pvm_exec,
	&wl_mech_pvm_syscall,
	&wl_mech_exit_pio,
	&wl_mech_exit_hypercall,
	&wl_mech_hypercall,
	&wl_mech_hypercall_regs,
	&wl_mech_bpf,
	&wl_mech_bpf_regs,
	&wl_mech_hc_queue,
};

const int wl_nr_mechs = sizeof(wl_mechs) / sizeof(wl_mechs[0]);

const char *const wl_prop_titles[NR_WL_PROPS] = {
	[WL_SECCOMP] = "seccomp filters judge the call",
	[WL_TRACED] = "ptrace and audit see the call",
	[WL_SIGNALS] = "signals interrupt a blocking call; restart codes defined",
	[WL_THREAD_STATE] = "calls on FS/GS base or FPU state act on the right thread",
	[WL_SAME_VA] = "needs guest-virtual == host-virtual",
	[WL_OPT_IN] = "opt-in, and the privilege it needs",
	[WL_NO_NESTED] = "works without nested virtualization",
	[WL_CONFIDENTIAL] = "usable by a confidential guest",
};
