// SPDX-License-Identifier: GPL-2.0
/*
 * A KVM_HC_HOST_SYSCALL policy: syscalls in the allow-list are run by KVM
 * once the program has returned, syscalls marked deny are refused, numbers
 * no system call has get KVM's -ENOSYS, everything else is forwarded to
 * the VMM.  The program only decides; it
 * cannot run a call itself.  Per-syscall counters of the calls the
 * program let KVM run are kept in a map (bpftool map dump name hcp_calls).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define MAX_NR	512

/* hcp_allow[nr]: 0 forward to the VMM, 1 run in the kernel, 2 deny */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_NR);
	__type(key, __u32);
	__type(value, __u8);
} hcp_allow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_NR);
	__type(key, __u32);
	__type(value, __u64);
} hcp_calls SEC(".maps");

SEC("fmod_ret/kvm_hc_host_syscall_bpf")
int BPF_PROG(hcp_decide, struct kvm_hc_bpf_ctx *hc, int ret)
{
	__u64 nr = hc->regs->ax;
	__u32 key = nr;
	__u64 *count;
	__u8 *verdict;

	/*
	 * No system call has such a number: KVM answers -ENOSYS itself,
	 * there is nothing for the VMM to run, and the register form (which
	 * has no exit) gets the same answer as the pt_regs form.
	 */
	if (nr >= MAX_NR)
		return KVM_HC_BPF_RUN;
	verdict = bpf_map_lookup_elem(&hcp_allow, &key);
	if (!verdict || *verdict == 0)
		return KVM_HC_BPF_TO_VMM;
	if (*verdict != 1)
		return KVM_HC_BPF_DENY;

	count = bpf_map_lookup_elem(&hcp_calls, &key);
	if (count)
		__sync_fetch_and_add(count, 1);
	return KVM_HC_BPF_RUN;
}

char LICENSE[] SEC("license") = "GPL";
