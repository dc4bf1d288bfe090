// SPDX-License-Identifier: GPL-2.0
/*
 * Smoke test of the platform and of the mini-VMM every variant builds on:
 * /dev/kvm works inside the QEMU guest, a 64-bit ring-0 vCPU runs code of
 * this binary at its host address, shares memory with the host at the same
 * virtual address, reports exceptions, and KVM's hypercall ABI answers
 * -KVM_ENOSYS for an unknown hypercall and -KVM_EPERM from CPL3.
 */
#include <errno.h>
#include <string.h>

#include "kselftest.h"
#include "kvm_hc_abi.h"
#include "kvm_smoke.h"
#include "vmm.h"

#define UNKNOWN_HC	0x7fff0001UL

static struct vmm vm;
static char why[128];

static void test_unknown_hypercall(struct vcpu *v, const char *name,
				   long expect)
{
	struct vmm_exit e;
	int r = vcpu_call(v, guest_hypercall_nr, UNKNOWN_HC, NULL, NULL, &e);

	if (r) {
		ksft_test_result_fail("%s: %s\n", name,
				      vmm_exit_str(&e, why, sizeof(why)));
		return;
	}
	ksft_test_result((long)e.rax == expect, "%s: rax %ld, expected %ld\n",
			 name, (long)e.rax, expect);
}

int main(void)
{
	struct vcpu k, u;
	struct vmm_exit e;
	uint64_t *shared;
	int r;

	ksft_print_header();
	ksft_set_plan(5);

	if (vmm_init(&vm, 8 << 20))
		ksft_exit_fail_msg("vmm_init (/dev/kvm): %s\n", strerror(errno));
	if (vcpu_init(&vm, &k, 0, false) || vcpu_init(&vm, &u, 1, true))
		ksft_exit_fail_msg("vcpu_init: %s\n", strerror(errno));
	ksft_print_msg("%s host, guest uses %s\n", vm.amd ? "AMD" : "Intel",
		       guest_use_vmmcall ? "vmmcall" : "vmcall");

	shared = vmm_alloc(&vm, 4096);
	*shared = 41;
	r = vcpu_call(&k, guest_bump, (uintptr_t)shared, NULL, NULL, &e);
	ksft_test_result(!r && e.rax == 42 && *shared == 42,
			 "ring-0 guest shares memory at host VA (r=%d rax=%llu)\n",
			 r, (unsigned long long)e.rax);

	r = vcpu_call(&k, guest_ud2, 0, NULL, NULL, &e);
	ksft_test_result(r && e.vector == 6 && e.fault_rip == (uintptr_t)guest_ud2,
			 "guest #UD reported to the VMM (%s)\n",
			 vmm_exit_str(&e, why, sizeof(why)));

	test_unknown_hypercall(&k, "unknown hypercall from CPL0 -> -KVM_ENOSYS",
			       -HC_KVM_ENOSYS);
	test_unknown_hypercall(&u, "hypercall from CPL3 -> -KVM_EPERM",
			       -HC_KVM_EPERM);
	test_unknown_hypercall(&k, "CPL0 vCPU still works after a CPL3 call",
			       -HC_KVM_ENOSYS);

	vcpu_destroy(&u);
	vcpu_destroy(&k);
	vmm_destroy(&vm);
	ksft_finished();
}
