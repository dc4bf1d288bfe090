// SPDX-License-Identifier: GPL-2.0
/*
 * For bpf_hc_test only: what a BPF program sees of a host call made by
 * KVM_HC_HOST_SYSCALL, from the verdict hook and from the sys_enter
 * tracepoint, for the threads of one process.  The hook gives no verdict
 * of its own (0: KVM's default).  A forged pt_regs field, or a stale
 * orig_ax, shows up as a mismatch count.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define NR_IOCTL	16
#define KVM_RUN_CMD	0xae80

const volatile __u32 target_tgid;

/* The instruction pointer of the process's last ioctl(KVM_RUN). */
__u64 run_ip;
/* Calls seen inside KVM_RUN, at the hook and at sys_enter. */
__u64 hook_calls, hook_orig_ax_wrong, hook_ip_wrong;
__u64 enter_calls, enter_ip_wrong;
/* Is the process inside KVM_RUN (one vCPU thread in these tests)? */
__u32 in_run;

static bool ours(void)
{
	return bpf_get_current_pid_tgid() >> 32 == target_tgid;
}

SEC("fmod_ret/kvm_hc_host_syscall_bpf")
int BPF_PROG(hco_hook, struct kvm_hc_bpf_ctx *hc, int ret)
{
	if (!ours())
		return 0;
	hook_calls++;
	if (hc->regs->orig_ax != hc->regs->ax)
		hook_orig_ax_wrong++;
	if (hc->regs->ip != run_ip)
		hook_ip_wrong++;
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(hco_enter, struct pt_regs *regs, long id)
{
	if (!ours())
		return 0;
	if (id == NR_IOCTL && regs->si == KVM_RUN_CMD && !in_run) {
		run_ip = regs->ip;
		in_run = 1;
		return 0;
	}
	if (in_run) {
		enter_calls++;
		if (regs->ip != run_ip)
			enter_ip_wrong++;
	}
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(hco_exit, struct pt_regs *regs, long ret)
{
	if (ours() && regs->orig_ax == NR_IOCTL && regs->si == KVM_RUN_CMD)
		in_run = 0;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
