/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal gVisor-style VMM.
 *
 * The guest runs in 64-bit ring 0 (or ring 3 on request) with page tables
 * that map every guest page at the same virtual address it has in this
 * process: guest-virtual == host-virtual.  The VMM's own executable image
 * (text, data, bss) and an anonymous arena are registered as memslots, so
 * guest code is ordinary functions of this binary (built freestanding, see
 * GUEST_CFLAGS) and the guest can hand any arena pointer to the host as is.
 */
#ifndef VMM_H
#define VMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/kvm.h>

#define VMM_PORT_DONE	0x3f0	/* guest function returned; rax = result */
#define VMM_PORT_EXC	0x3f1	/* guest took exception eax = vector */
#define VMM_PORT_USER	0x3f2	/* first port free for users of the VMM */

#define VMM_MAX_SLOTS	8

struct vmm {
	int kvm_fd;
	int vm_fd;
	int run_size;
	bool amd;
	int nslots;
	uint64_t next_gpa;
	uint8_t *arena;
	size_t arena_size;
	size_t arena_used;
	uint64_t arena_gpa;
	uint64_t *pml4;
	uint64_t *gdt;
	uint64_t *idt;
	void *tss;
	struct kvm_cpuid2 *cpuid;
};

struct vcpu {
	struct vmm *vm;
	int fd;
	int id;
	struct kvm_run *run;
	uint8_t *stack;
	size_t stack_size;
	bool user;
	uint64_t runs;		/* KVM_RUN calls that returned to us */
	/*
	 * Called when KVM_RUN returns -EINTR (a signal, or task work), before
	 * vcpu_call() enters again: the vCPU is out of KVM_RUN, its registers
	 * are in run->s.regs, and its ioctls answer.  May be NULL.
	 */
	void (*on_intr)(struct vcpu *v, void *ctx);
	void *intr_ctx;
};

/* Result of one guest call. */
struct vmm_exit {
	uint32_t reason;	/* KVM_EXIT_* of the last exit */
	uint16_t port;		/* for KVM_EXIT_IO */
	uint64_t rax;		/* guest rax at the exit */
	int vector;		/* VMM_PORT_EXC: exception vector, else -1 */
	uint64_t fault_rip;	/* VMM_PORT_EXC: rip of the faulting insn */
};

/* Hook for guest port I/O the VMM does not own: return 0 to resume. */
typedef int (*vmm_io_handler)(struct vcpu *v, uint16_t port, void *ctx);

/* KVM_CHECK_EXTENSION on /dev/kvm, without a VM: -1 if there is no KVM. */
int vmm_kvm_cap(long cap);
int vmm_init(struct vmm *vm, size_t arena_size);
void vmm_destroy(struct vmm *vm);
void *vmm_alloc(struct vmm *vm, size_t size);
/*
 * Give the guest [hva, hva + size) of this process, at the same virtual
 * address, as a memslot of its own (page tables from the arena).
 */
int vmm_map(struct vmm *vm, void *hva, size_t size);
int vmm_enable_cap(struct vmm *vm, uint32_t cap, uint64_t arg0);

int vcpu_init(struct vmm *vm, struct vcpu *v, int id, bool user);
void vcpu_destroy(struct vcpu *v);
int vcpu_enable_cap(struct vcpu *v, uint32_t cap, uint64_t arg0);
int vcpu_set_cpuid(struct vcpu *v, struct kvm_cpuid2 *cpuid);

/*
 * Run fn(arg) in the guest until it returns (result in exit->rax) or takes
 * an exception or an unexpected exit.  Returns 0 when fn returned, -1
 * otherwise (errno set for ioctl failures), with the details in *exit.
 */
int vcpu_call(struct vcpu *v, uint64_t (*fn)(uint64_t), uint64_t arg,
	      vmm_io_handler io, void *ctx, struct vmm_exit *exit);

/* Describe an exit for a diagnostic. */
const char *vmm_exit_str(const struct vmm_exit *e, char *buf, size_t len);

/*
 * Read by code in the guest: 1 to use vmmcall (AMD), 0 for vmcall (Intel);
 * set from the CPU vendor when a VM is created.
 */
extern volatile int guest_use_vmmcall;

#endif
