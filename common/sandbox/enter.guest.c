// SPDX-License-Identifier: GPL-2.0
/*
 * How the program is entered.  Freestanding: this runs in guest ring 0.
 *
 * In a VM (sb_guest_enter): the workload's code, in guest ring 0, sets up
 * what a kernel would (SSE, the syscall MSRs, a ring-0 stack) and enters
 * the program in ring 3 with iretq.  Its syscall instruction comes back to
 * sb_syscall_entry in ring 0, which saves its registers as a pt_regs and
 * hands them to the supervisor, then returns with sysretq, or, once the
 * program has ended, returns from sb_guest_enter() as if it had been an
 * ordinary call.  An exception in ring 3 goes to the VMM's exception stubs
 * (common/vmm), which end the run with the vector and the pc.
 *
 * Without a VM (sb_jump): the code of a stub, or of the caller, jumps into
 * the program; its system calls are whatever the mechanism catches.
 */
#include "workload.h"
#include "sandbox.h"

#define MSR_STAR		0xc0000081
#define MSR_LSTAR		0xc0000082
#define MSR_SYSCALL_MASK	0xc0000084
#define MSR_FS_BASE		0xc0000100
#define SEL_KCODE		0x08
#define SEL_KDATA		0x10	/* sysret: user SS = +8, user CS = +16 */
#define CR4_OSFXSR		(1UL << 9)
#define CR4_OSXMMEXCPT		(1UL << 10)
/* TF, DF, IF, IOPL, NT, AC cleared on entry, as Linux does. */
#define SYSCALL_MASK		0x47700UL
#define KSTACK_SIZE		(64UL << 10)

_Static_assert(__builtin_offsetof(struct sb_state, entry) == 0, "asm below");
_Static_assert(__builtin_offsetof(struct sb_state, sp) == 8, "asm below");

/* One vCPU runs the program: plain globals, no per-CPU data. */
struct sb_state *sb_guest_state;
uint64_t sb_user_rsp, sb_kstack_top;
uint64_t sb_kctx[7];	/* rbx, rbp, r12-r15, rsp of sb_guest_enter() */
static uint8_t sb_kstack[KSTACK_SIZE] __attribute__((aligned(16)));

void sb_syscall_entry(void);
void sb_guest_leave(void) __attribute__((noreturn));

static void wrmsr(uint32_t msr, uint64_t v)
{
	asm volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

/* What a kernel sets up before its first process runs. */
void sb_guest_setup(struct sb_state *s)
{
	uint32_t mxcsr = 0x1f80;
	uint64_t cr4;

	sb_kstack_top = (uint64_t)(sb_kstack + KSTACK_SIZE);
	asm volatile("mov %%cr4, %0" : "=r"(cr4));
	asm volatile("mov %0, %%cr4" : : "r"(cr4 | CR4_OSFXSR | CR4_OSXMMEXCPT));
	asm volatile("fninit; ldmxcsr %0" : : "m"(mxcsr));
	wrmsr(MSR_STAR, ((uint64_t)SEL_KDATA << 48) | ((uint64_t)SEL_KCODE << 32));
	wrmsr(MSR_LSTAR, (uint64_t)sb_syscall_entry);
	wrmsr(MSR_SYSCALL_MASK, SYSCALL_MASK);
	asm volatile("mov %0, %%fs; mov %0, %%gs" : : "r"(0));
	wrmsr(MSR_FS_BASE, 0);
}

/* A call from ring 3, its registers saved by sb_syscall_entry. */
void sb_guest_syscall(struct pt_regs *r)
{
	struct sb_state *s = sb_guest_state;

	sb_syscall(s, r);
	if (s->fs_set) {
		wrmsr(MSR_FS_BASE, s->fs_base);
		s->fs_set = 0;
	}
	if (s->end != SB_RUNNING)
		sb_guest_leave();
}

/*
 * The mechanism's hook for a call the supervisor forwards, with the call
 * where every hook finds it (exit-pio's VMM reads c->regs).
 */
long sb_vm_forward(void *ctx, struct pt_regs *r)
{
	struct wl_ctx *c = ctx;

	c->regs.rax = r->rax;
	c->regs.rdi = r->rdi;
	c->regs.rsi = r->rsi;
	c->regs.rdx = r->rdx;
	c->regs.r10 = r->r10;
	c->regs.r8 = r->r8;
	c->regs.r9 = r->r9;
	return c->call(c, &c->regs);
}

asm(".pushsection .text\n"
    /* uint64_t sb_guest_enter(uint64_t state), in ring 0 */
    ".globl sb_guest_enter\n"
    "sb_guest_enter:\n"
    "	movq %rbx, sb_kctx+0(%rip)\n"
    "	movq %rbp, sb_kctx+8(%rip)\n"
    "	movq %r12, sb_kctx+16(%rip)\n"
    "	movq %r13, sb_kctx+24(%rip)\n"
    "	movq %r14, sb_kctx+32(%rip)\n"
    "	movq %r15, sb_kctx+40(%rip)\n"
    "	movq %rsp, sb_kctx+48(%rip)\n"
    "	movq %rdi, sb_guest_state(%rip)\n"
    "	subq $8, %rsp\n"
    "	call sb_guest_setup\n"
    "	movq sb_guest_state(%rip), %rax\n"
    "	pushq $0x1b\n"			/* user SS */
    "	pushq 8(%rax)\n"		/* the program's sp */
    "	pushq $0x2\n"			/* RFLAGS: IOPL 0 */
    "	pushq $0x23\n"			/* user CS */
    "	pushq 0(%rax)\n"		/* its entry */
    "	xorl %eax, %eax\n	xorl %ebx, %ebx\n	xorl %ecx, %ecx\n"
    "	xorl %edx, %edx\n	xorl %esi, %esi\n	xorl %edi, %edi\n"
    "	xorl %ebp, %ebp\n	xorl %r8d, %r8d\n	xorl %r9d, %r9d\n"
    "	xorl %r10d, %r10d\n	xorl %r11d, %r11d\n	xorl %r12d, %r12d\n"
    "	xorl %r13d, %r13d\n	xorl %r14d, %r14d\n	xorl %r15d, %r15d\n"
    "	iretq\n"
    /* Back from sb_guest_enter(), on its stack, once the program ended. */
    ".globl sb_guest_leave\n"
    "sb_guest_leave:\n"
    "	movq sb_kctx+0(%rip), %rbx\n"
    "	movq sb_kctx+8(%rip), %rbp\n"
    "	movq sb_kctx+16(%rip), %r12\n"
    "	movq sb_kctx+24(%rip), %r13\n"
    "	movq sb_kctx+32(%rip), %r14\n"
    "	movq sb_kctx+40(%rip), %r15\n"
    "	movq sb_kctx+48(%rip), %rsp\n"
    "	xorl %eax, %eax\n"
    "	ret\n"
    /*
     * syscall from ring 3: rcx = the return rip, r11 = rflags.  Build a
     * struct pt_regs on the ring-0 stack (ss first, r15 last).
     */
    ".globl sb_syscall_entry\n"
    "sb_syscall_entry:\n"
    "	movq %rsp, sb_user_rsp(%rip)\n"
    "	movq sb_kstack_top(%rip), %rsp\n"
    "	pushq $0x1b\n	pushq sb_user_rsp(%rip)\n	pushq %r11\n"
    "	pushq $0x23\n	pushq %rcx\n	pushq %rax\n"	/* ss sp flags cs ip orig_ax */
    "	pushq %rdi\n	pushq %rsi\n	pushq %rdx\n	pushq %rcx\n	pushq %rax\n"
    "	pushq %r8\n	pushq %r9\n	pushq %r10\n	pushq %r11\n	pushq %rbx\n"
    "	pushq %rbp\n	pushq %r12\n	pushq %r13\n	pushq %r14\n	pushq %r15\n"
    "	movq %rsp, %rdi\n"
    "	subq $8, %rsp\n"
    "	call sb_guest_syscall\n"
    "	addq $8, %rsp\n"
    "	popq %r15\n	popq %r14\n	popq %r13\n	popq %r12\n	popq %rbp\n"
    "	popq %rbx\n	popq %r11\n	popq %r10\n	popq %r9\n	popq %r8\n"
    "	popq %rax\n	popq %rcx\n	popq %rdx\n	popq %rsi\n	popq %rdi\n"
    "	addq $8, %rsp\n"		/* orig_ax */
    "	popq %rcx\n"			/* ip */
    "	addq $8, %rsp\n"		/* cs */
    "	popq %r11\n"			/* flags */
    "	popq %rsp\n"			/* sp */
    "	sysretq\n"
    /*
     * uint64_t sb_jump(uint64_t state), without a VM: the program's stack,
     * its entry, every register zero (rdx: no atexit function).
     */
    ".globl sb_jump\n"
    "sb_jump:\n"
    "	movq 8(%rdi), %rsp\n"
    "	pushq 0(%rdi)\n"
    "	xorl %eax, %eax\n	xorl %ebx, %ebx\n	xorl %ecx, %ecx\n"
    "	xorl %edx, %edx\n	xorl %esi, %esi\n	xorl %edi, %edi\n"
    "	xorl %ebp, %ebp\n	xorl %r8d, %r8d\n	xorl %r9d, %r9d\n"
    "	xorl %r10d, %r10d\n	xorl %r11d, %r11d\n	xorl %r12d, %r12d\n"
    "	xorl %r13d, %r13d\n	xorl %r14d, %r14d\n	xorl %r15d, %r15d\n"
    "	ret\n"
    ".popsection\n");
