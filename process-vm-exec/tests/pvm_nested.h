/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PVM_NESTED_H
#define PVM_NESTED_H

#include <stdint.h>

/* Guest: KVM_HC_HOST_SYSCALL on the pt_regs at @regs; the hypercall's return. */
uint64_t pvm_guest_host_syscall(uint64_t regs);

#endif
