// SPDX-License-Identifier: GPL-2.0
/*
 * Not allowed: a sleepable program on kvm_hc_host_syscall_bpf().  The hook
 * only takes a verdict; a program that could sleep there would hold up the
 * vCPU (and RCU Tasks Trace) for as long as it likes.  Loading must fail.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("fmod_ret.s/kvm_hc_host_syscall_bpf")
int BPF_PROG(hcm_sleepable, struct kvm_hc_bpf_ctx *hc, int ret)
{
	return KVM_HC_BPF_RUN;
}

char LICENSE[] SEC("license") = "GPL";
