/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVM_SMOKE_H
#define KVM_SMOKE_H
#include <stdint.h>

uint64_t guest_hypercall_nr(uint64_t nr);
uint64_t guest_ud2(uint64_t unused);
uint64_t guest_bump(uint64_t addr);
#endif
