// SPDX-License-Identifier: GPL-2.0
/* Guest half of pvm_nested_test: one KVM_HC_HOST_SYSCALL, built freestanding. */
#include "kvm_hc_abi.h"
#include "pvm_nested.h"

uint64_t pvm_guest_host_syscall(uint64_t regs)
{
	return guest_host_syscall((struct pt_regs *)regs);
}
