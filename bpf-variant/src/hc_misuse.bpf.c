// SPDX-License-Identifier: GPL-2.0
/*
 * Not allowed: the syscall kfunc from a program that is not a fmod_ret
 * program on kvm_hc_host_syscall_bpf().  Loading this must fail.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

extern int bpf_kvm_host_syscall(struct kvm_hc_bpf_ctx *ctx) __ksym;

SEC("fentry.s/kvm_hc_host_syscall_bpf")
int BPF_PROG(hcm_fentry, struct kvm_hc_bpf_ctx *hc)
{
	bpf_kvm_host_syscall(hc);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
