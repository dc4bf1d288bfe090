// SPDX-License-Identifier: GPL-2.0
/*
 * Minimal gVisor-style VMM: see vmm.h for the model.
 */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vmm.h"

#define PAGE_SIZE	4096UL
#define PAGE_ALIGN(x)	(((x) + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))
#define PTE_P		(1ULL << 0)
#define PTE_W		(1ULL << 1)
#define PTE_U		(1ULL << 2)
#define PTE_ADDR	0x000ffffffffff000ULL

#define SEL_KCODE	0x08
#define SEL_KDATA	0x10
#define SEL_UDATA	0x18
#define SEL_UCODE	0x20
#define SEL_TSS		0x28

#define X86_CR0_PE	(1UL << 0)
#define X86_CR0_MP	(1UL << 1)
#define X86_CR0_ET	(1UL << 4)
#define X86_CR0_NE	(1UL << 5)
#define X86_CR0_WP	(1UL << 16)
#define X86_CR0_PG	(1UL << 31)
#define X86_CR4_PAE	(1UL << 5)
#define EFER_SCE	(1UL << 0)
#define EFER_LME	(1UL << 8)
#define EFER_LMA	(1UL << 10)
#define RFLAGS_FIXED	(1UL << 1)
#define RFLAGS_IOPL3	(3UL << 12)

/* The executable image, from the default linker script. */
extern char __executable_start[], end[];

volatile int guest_use_vmmcall;

/*
 * Guest-side stubs.  A guest function returns into guest_exit_stub, which
 * reports its rax on VMM_PORT_DONE; exception vector N enters stub N, which
 * reports N on VMM_PORT_EXC.  The same bytes serve ring 0 and ring 3 (the
 * latter runs with IOPL 3 so that `out` is allowed).
 */
void guest_exit_stub(void);
void guest_exc_stubs(void);
asm(".pushsection .text\n"
    ".globl guest_exit_stub\n"
    "guest_exit_stub:\n"
    "	mov $0x3f0, %dx\n"
    "	out %eax, %dx\n"
    "	ud2\n"
    ".balign 16\n"
    ".globl guest_exc_stubs\n"
    "guest_exc_stubs:\n"
    ".irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
    ".balign 16\n"
    "	mov $\\v, %eax\n"
    "	mov $0x3f1, %dx\n"
    "	out %eax, %dx\n"
    "	hlt\n"
    "	jmp .\n"
    ".endr\n"
    ".popsection\n");

static int add_slot(struct vmm *vm, void *hva, size_t size, uint64_t *gpa)
{
	struct kvm_userspace_memory_region r = {
		.slot = vm->nslots,
		.guest_phys_addr = vm->next_gpa,
		.memory_size = size,
		.userspace_addr = (uintptr_t)hva,
	};

	if (vm->nslots >= VMM_MAX_SLOTS) {
		errno = ENOSPC;
		return -1;
	}
	if (ioctl(vm->vm_fd, KVM_SET_USER_MEMORY_REGION, &r))
		return -1;
	*gpa = r.guest_phys_addr;
	vm->nslots++;
	vm->next_gpa += PAGE_ALIGN(size) + (2UL << 20);	/* guard hole */
	return 0;
}

static uint64_t arena_gpa(struct vmm *vm, void *p)
{
	return vm->arena_gpa + ((uint8_t *)p - vm->arena);
}

void *vmm_alloc(struct vmm *vm, size_t size)
{
	void *p;

	size = PAGE_ALIGN(size);
	if (vm->arena_used + size > vm->arena_size) {
		errno = ENOMEM;
		return NULL;
	}
	p = vm->arena + vm->arena_used;
	vm->arena_used += size;
	return p;
}

/* Map one 4 KiB page gva -> gpa, allocating page-table pages from the arena. */
static int map_page(struct vmm *vm, uint64_t gva, uint64_t gpa)
{
	uint64_t *table = vm->pml4;
	int shift;

	for (shift = 39; shift > 12; shift -= 9) {
		uint64_t *e = &table[(gva >> shift) & 511];

		if (!(*e & PTE_P)) {
			void *page = vmm_alloc(vm, PAGE_SIZE);

			if (!page)
				return -1;
			*e = arena_gpa(vm, page) | PTE_P | PTE_W | PTE_U;
		}
		table = (uint64_t *)(vm->arena + ((*e & PTE_ADDR) - vm->arena_gpa));
	}
	table[(gva >> 12) & 511] = gpa | PTE_P | PTE_W | PTE_U;
	return 0;
}

static int map_range(struct vmm *vm, void *hva, size_t size, uint64_t gpa)
{
	uint64_t off;

	for (off = 0; off < size; off += PAGE_SIZE)
		if (map_page(vm, (uintptr_t)hva + off, gpa + off))
			return -1;
	return 0;
}

int vmm_map(struct vmm *vm, void *hva, size_t size)
{
	uint64_t gpa;

	size = PAGE_ALIGN(size);
	if ((uintptr_t)hva & (PAGE_SIZE - 1)) {
		errno = EINVAL;
		return -1;
	}
	if (add_slot(vm, hva, size, &gpa))
		return -1;
	return map_range(vm, hva, size, gpa);
}

static uint64_t gdt_entry(uint32_t flags_access)
{
	/* flat: base 0, limit 0xfffff; flags_access = flags << 12 | access */
	return 0xffffULL | (0xfULL << 48) |
	       ((uint64_t)(flags_access & 0xff) << 40) |
	       ((uint64_t)(flags_access >> 12) << 52);
}

static void setup_descriptors(struct vmm *vm)
{
	uint64_t tss = (uintptr_t)vm->tss, stub = (uintptr_t)guest_exc_stubs;
	uint8_t *exc_stack = vmm_alloc(vm, 4 * PAGE_SIZE);
	int i;

	vm->gdt[1] = gdt_entry(0xa09b);	/* kernel code, L=1 */
	vm->gdt[2] = gdt_entry(0xc093);	/* kernel data */
	vm->gdt[3] = gdt_entry(0xc0f3);	/* user data, DPL 3 */
	vm->gdt[4] = gdt_entry(0xa0fb);	/* user code, DPL 3, L=1 */
	/* 64-bit busy TSS, 16 bytes */
	vm->gdt[5] = 0x67 | ((tss & 0xffffff) << 16) | (0x8bULL << 40) |
		     ((tss >> 24) & 0xff) << 56;
	vm->gdt[6] = tss >> 32;
	/* rsp0 for exceptions taken in ring 3 */
	*(uint64_t *)((uint8_t *)vm->tss + 4) = (uintptr_t)exc_stack + 4 * PAGE_SIZE;

	for (i = 0; i < 32; i++) {
		uint64_t h = stub + 16 * i;

		vm->idt[2 * i] = (h & 0xffff) | ((uint64_t)SEL_KCODE << 16) |
				 (0x8eULL << 40) | ((h >> 16) & 0xffff) << 48;
		vm->idt[2 * i + 1] = h >> 32;
	}
}

static struct kvm_cpuid2 *get_supported_cpuid(int kvm_fd)
{
	struct kvm_cpuid2 *c = NULL;
	int n = 64;

	for (;;) {
		c = realloc(c, sizeof(*c) + n * sizeof(c->entries[0]));
		if (!c)
			return NULL;
		c->nent = n;
		if (!ioctl(kvm_fd, KVM_GET_SUPPORTED_CPUID, c))
			return c;
		if (errno != E2BIG) {
			free(c);
			return NULL;
		}
		n *= 2;
	}
}

int vmm_kvm_cap(long cap)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, KVM_CHECK_EXTENSION, cap);
	close(fd);
	return r;
}

int vmm_init(struct vmm *vm, size_t arena_size)
{
	uint8_t *img = (uint8_t *)((uintptr_t)__executable_start & ~(PAGE_SIZE - 1));
	size_t img_size = PAGE_ALIGN((uintptr_t)end) - (uintptr_t)img;
	unsigned int a, b, c, d;
	uint64_t img_gpa;

	memset(vm, 0, sizeof(*vm));
	vm->vm_fd = -1;
	vm->next_gpa = 1UL << 30;
	vm->kvm_fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (vm->kvm_fd < 0)
		return -1;
	vm->vm_fd = ioctl(vm->kvm_fd, KVM_CREATE_VM, 0);
	if (vm->vm_fd < 0)
		goto err;
	vm->run_size = ioctl(vm->kvm_fd, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (vm->run_size < 0)
		goto err;
	vm->cpuid = get_supported_cpuid(vm->kvm_fd);
	if (!vm->cpuid)
		goto err;

	__cpuid(0, a, b, c, d);
	vm->amd = (b == 0x68747541 || b == 0x6f677948);	/* "Auth", "Hygo" */
	guest_use_vmmcall = vm->amd;

	vm->arena_size = PAGE_ALIGN(arena_size);
	vm->arena = mmap(NULL, vm->arena_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (vm->arena == MAP_FAILED) {
		vm->arena = NULL;
		goto err;
	}
	if (add_slot(vm, vm->arena, vm->arena_size, &vm->arena_gpa))
		goto err;
	/* Guest code and globals: this binary's own image, at the same VA. */
	if (add_slot(vm, img, img_size, &img_gpa))
		goto err;

	vm->pml4 = vmm_alloc(vm, PAGE_SIZE);
	vm->gdt = vmm_alloc(vm, PAGE_SIZE);
	vm->idt = vmm_alloc(vm, PAGE_SIZE);
	vm->tss = vmm_alloc(vm, PAGE_SIZE);
	if (!vm->pml4 || !vm->gdt || !vm->idt || !vm->tss)
		goto err;
	setup_descriptors(vm);

	if (map_range(vm, img, img_size, img_gpa))
		goto err;
	/* Map the whole arena now: later allocations need no new mappings. */
	if (map_range(vm, vm->arena, vm->arena_size, vm->arena_gpa))
		goto err;
	return 0;
err:
	vmm_destroy(vm);
	return -1;
}

void vmm_destroy(struct vmm *vm)
{
	int e = errno;

	if (vm->vm_fd >= 0)
		close(vm->vm_fd);
	if (vm->kvm_fd >= 0)
		close(vm->kvm_fd);
	if (vm->arena)
		munmap(vm->arena, vm->arena_size);
	free(vm->cpuid);
	memset(vm, 0, sizeof(*vm));
	vm->vm_fd = vm->kvm_fd = -1;
	errno = e;
}

int vmm_enable_cap(struct vmm *vm, uint32_t cap, uint64_t arg0)
{
	struct kvm_enable_cap c = { .cap = cap, .args[0] = arg0 };

	return ioctl(vm->vm_fd, KVM_ENABLE_CAP, &c);
}

int vcpu_enable_cap(struct vcpu *v, uint32_t cap, uint64_t arg0)
{
	struct kvm_enable_cap c = { .cap = cap, .args[0] = arg0 };

	return ioctl(v->fd, KVM_ENABLE_CAP, &c);
}

int vcpu_set_cpuid(struct vcpu *v, struct kvm_cpuid2 *cpuid)
{
	return ioctl(v->fd, KVM_SET_CPUID2, cpuid);
}

static void set_seg(struct kvm_segment *s, uint16_t sel, uint8_t type,
		    bool code64, uint8_t dpl)
{
	memset(s, 0, sizeof(*s));
	s->selector = sel | dpl;
	s->limit = 0xffffffff;
	s->type = type;
	s->present = 1;
	s->dpl = dpl;
	s->s = 1;
	s->l = code64;
	s->db = !code64;
	s->g = 1;
}

int vcpu_init(struct vmm *vm, struct vcpu *v, int id, bool user)
{
	struct kvm_sregs sregs;
	uint8_t dpl = user ? 3 : 0;

	memset(v, 0, sizeof(*v));
	v->vm = vm;
	v->id = id;
	v->user = user;
	v->run = MAP_FAILED;
	v->fd = ioctl(vm->vm_fd, KVM_CREATE_VCPU, id);
	if (v->fd < 0)
		return -1;
	v->run = mmap(NULL, vm->run_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      v->fd, 0);
	if (v->run == MAP_FAILED)
		goto err;
	v->stack_size = 64 * 1024;
	v->stack = vmm_alloc(vm, v->stack_size);
	if (!v->stack)
		goto err;
	/* CPUID first: KVM refuses EFER.LME unless the guest has LM. */
	if (vcpu_set_cpuid(v, vm->cpuid))
		goto err;
	if (ioctl(v->fd, KVM_GET_SREGS, &sregs))
		goto err;

	sregs.cr0 = X86_CR0_PE | X86_CR0_MP | X86_CR0_ET | X86_CR0_NE |
		    X86_CR0_WP | X86_CR0_PG;
	sregs.cr4 = X86_CR4_PAE;
	sregs.cr3 = arena_gpa(vm, vm->pml4);
	sregs.efer = EFER_LME | EFER_LMA | EFER_SCE;
	set_seg(&sregs.cs, user ? SEL_UCODE : SEL_KCODE, 11, true, dpl);
	set_seg(&sregs.ss, user ? SEL_UDATA : SEL_KDATA, 3, false, dpl);
	sregs.ds = sregs.es = sregs.fs = sregs.gs = sregs.ss;
	memset(&sregs.tr, 0, sizeof(sregs.tr));
	sregs.tr.selector = SEL_TSS;
	sregs.tr.base = (uintptr_t)vm->tss;
	sregs.tr.limit = 0x67;
	sregs.tr.type = 11;
	sregs.tr.present = 1;
	sregs.gdt.base = (uintptr_t)vm->gdt;
	sregs.gdt.limit = 7 * 8 - 1;
	sregs.idt.base = (uintptr_t)vm->idt;
	sregs.idt.limit = 32 * 16 - 1;
	if (ioctl(v->fd, KVM_SET_SREGS, &sregs))
		goto err;
	return 0;
err:
	vcpu_destroy(v);
	return -1;
}

void vcpu_destroy(struct vcpu *v)
{
	int e = errno;

	if (v->run != MAP_FAILED && v->run)
		munmap(v->run, v->vm->run_size);
	if (v->fd >= 0)
		close(v->fd);
	v->fd = -1;
	v->run = NULL;
	errno = e;
}

static bool exc_has_error_code(int v)
{
	return v == 8 || (v >= 10 && v <= 14) || v == 17 || v == 21 ||
	       v == 29 || v == 30;
}

int vcpu_call(struct vcpu *v, uint64_t (*fn)(uint64_t), uint64_t arg,
	      vmm_io_handler io, void *ctx, struct vmm_exit *e)
{
	struct kvm_run *run = v->run;
	struct kvm_regs *r = &run->s.regs.regs;
	uint64_t *sp = (uint64_t *)(v->stack + v->stack_size);

	memset(e, 0, sizeof(*e));
	e->vector = -1;
	*--sp = (uintptr_t)guest_exit_stub;	/* fn's return address */
	memset(r, 0, sizeof(*r));
	r->rip = (uintptr_t)fn;
	r->rdi = arg;
	r->rsp = (uintptr_t)sp;
	r->rflags = RFLAGS_FIXED | (v->user ? RFLAGS_IOPL3 : 0);
	run->kvm_dirty_regs = KVM_SYNC_X86_REGS;
	run->kvm_valid_regs = KVM_SYNC_X86_REGS;

	for (;;) {
		int rc = ioctl(v->fd, KVM_RUN, 0);

		v->runs++;
		if (rc) {
			if (errno == EINTR || errno == EAGAIN) {
				if (v->on_intr)
					v->on_intr(v, v->intr_ctx);
				continue;
			}
			e->reason = KVM_EXIT_UNKNOWN;
			return -1;
		}
		e->reason = run->exit_reason;
		e->rax = r->rax;
		if (run->exit_reason == KVM_EXIT_IO &&
		    run->io.direction == KVM_EXIT_IO_OUT) {
			e->port = run->io.port;
			if (e->port == VMM_PORT_DONE)
				return 0;
			if (e->port == VMM_PORT_EXC) {
				uint64_t *frame = (uint64_t *)r->rsp;

				e->vector = *(uint32_t *)((uint8_t *)run +
							  run->io.data_offset);
				e->fault_rip = frame[exc_has_error_code(e->vector)];
				return -1;
			}
		}
		if (!io || io(v, run->exit_reason == KVM_EXIT_IO ?
			      run->io.port : 0, ctx))
			return -1;
	}
}

const char *vmm_exit_str(const struct vmm_exit *e, char *buf, size_t len)
{
	if (e->vector >= 0)
		snprintf(buf, len, "guest exception %d at rip %#llx", e->vector,
			 (unsigned long long)e->fault_rip);
	else if (e->reason == KVM_EXIT_IO)
		snprintf(buf, len, "exit io port %#x", e->port);
	else if (e->reason == KVM_EXIT_UNKNOWN)
		snprintf(buf, len, "KVM_RUN failed: %s", strerror(errno));
	else if (e->reason == KVM_EXIT_SHUTDOWN)
		snprintf(buf, len, "exit reason %u: a triple fault (KVM_EXIT_SHUTDOWN)", e->reason);
	else
		snprintf(buf, len, "exit reason %u", e->reason);
	return buf;
}
