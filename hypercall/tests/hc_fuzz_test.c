// SPDX-License-Identifier: GPL-2.0
/*
 * hc_fuzz_test: a bounded, seeded fuzzer of KVM_HC_HOST_SYSCALL.
 *
 * Four paths take the same kind of random calls: KVM's own runner
 * ("hypercall"), the exit to the VMM ("exit", KVM_PV_HOST_SYSCALL_EXIT), the
 * BPF verdict ("bpf", random verdicts per syscall) and the register form,
 * KVM_HC_HOST_SYSCALL_REGS ("regs": the number in rbx and the arguments in
 * registers, in a VM that also enabled the exit, which this form must
 * never take).  A batch is one forked child with
 * one VM and three vCPU threads (two at CPL 0, one at CPL 3) that issue
 * their lists at the same time, while the child's main thread swaps and
 * closes descriptors under them and signals them, and an interval timer
 * interrupts whatever blocks.  The child gives up root before the first
 * call (chroot to an empty directory, uid/gid 65534, no new privileges,
 * small rlimits), so a call that hurts the process it runs in ends only
 * its own batch.
 *
 * Inputs nobody chose: random hypercall numbers now and then, a1..a3 now
 * and then, a0 pointing at a good pt_regs, one across a mapped and a
 * PROT_NONE page, a read-only one, NULL, a kernel address or a
 * non-canonical one; in the pt_regs, random syscall numbers (0..469 and
 * far out of range), arguments drawn from small integers, descriptors,
 * -1, powers of two, pointers into the guest's arena, its PROT_NONE guard
 * page, kernel and non-canonical addresses; every other pt_regs field
 * random.  The register form draws its number and its six arguments the
 * same way, and a1 (rcx) is not 0 now and then.  Nothing is denylisted on the kernel paths.  The VMM of the
 * exit path refuses, with -KVM_EPERM, the calls listed in harness_denied()
 * that would only tear down the fuzzer itself.
 *
 * Checked on every call: at CPL 3 every hypercall gets -KVM_EPERM;
 * KVM_HC_HOST_SYSCALL gets one of the codes the series documents; a
 * kernel or non-canonical a0 gets -KVM_EFAULT; a number far out of range
 * runs as -ENOSYS; a register-form call that did not complete leaves rbx as
 * it was, and none exits to the VMM.  At the end a fresh VM answers getppid through each
 * path.  The runner fails the run on any kernel splat or kmemleak report.
 *
 * A watchdog flags any vCPU whose call makes no progress for FUZZ_STUCK_MS
 * (2000): a call that does not come back fails the run, with the vCPU's
 * registers, the bytes at its rip, its thread's kernel stack and KVM's
 * trace events for it.  A first check plants such a call to show that the
 * watchdog catches one.
 *
 * FUZZ_SEED, FUZZ_CALLS (per path), FUZZ_SECONDS (time cap per path),
 * FUZZ_VM_CALLS (calls per vCPU before its VM is replaced: 64),
 * FUZZ_SIGNAL_US (each vCPU thread's signal period: 2000), FUZZ_STUCK_MS
 * and FUZZ_ONLY (the paths, by name) come from the environment (make test
 * FUZZ_SEED=... sets them).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "kvm_hc_abi.h"
#include "hc_policy.h"
#include "hc_fuzz.h"
#include "vmm.h"

#define NR_VCPUS	3		/* vCPU 2 runs at CPL 3 */
#define CPL3_VCPU	2
#define CHUNK		16		/* calls per KVM_RUN round trip */
#define BATCH_BLOCKS	(NR_VCPUS * 64)	/* pt_regs blocks: vCPU i uses i * CHUNK.. */
#define BATCH_TIMEOUT	60		/* seconds: a batch that outlives it hung */
#define NR_RANGE	470		/* syscall numbers drawn from 0..NR_RANGE-1 */
#define NR_BITMAP	512
#define FAR_NR		1024		/* at or above: surely out of range */
#define ARENA_SIZE	(4UL << 20)
#define SCRATCH_SIZE	(64UL << 10)	/* the tail of the arena */
#define PAGE		4096UL
#define MOAT_SIZE	(1UL << 20)
/* The pt_regs region: good blocks, a read-only page, a RW page, a guard. */
#define REGS_RO_PAGE	8
#define REGS_GUARD_PAGE	10
#define REGS_PAGES	11
#define STRADDLE_RW	80		/* bytes of the straddling block before the guard */
#define FD_CHAOS_LO	40		/* the chaos thread owns fds 40..49 */
#define FD_CHAOS_N	10
#define FD_TEMPLATE	52		/* what it dup2()s from: fds 52..61 */
#define FD_TEMPLATE_N	10
#define NOBODY		65534

#define KERNEL_PTR	0xffff888000000000UL
#define NONCANON_PTR	0x8000000000001000UL

/*
 * "bare" is the control: the same batches, signals and descriptor chaos,
 * in a VM that did not enable KVM_CAP_PV_HOST_SYSCALL, making hypercalls
 * KVM does not know (-KVM_ENOSYS).  The series' code is not on its path;
 * what goes wrong there goes wrong without it.
 */
enum { PATH_HYPERCALL, PATH_EXIT, PATH_BPF, PATH_REGS, PATH_BARE, NR_PATHS };
static const char *const path_name[NR_PATHS] = {
	"hypercall", "exit", "bpf", "regs", "bare"
};
#define BARE_NR		1000	/* bare's numbers: BARE_NR and up, unknown */
/* The hypercall each path is about. */
static const uint64_t path_hc[NR_PATHS] = {
	KVM_HC_HOST_SYSCALL, KVM_HC_HOST_SYSCALL, KVM_HC_HOST_SYSCALL,
	KVM_HC_HOST_SYSCALL_REGS, BARE_NR,
};
static const char *const path_hc_name[NR_PATHS] = {
	"KVM_HC_HOST_SYSCALL", "KVM_HC_HOST_SYSCALL", "KVM_HC_HOST_SYSCALL",
	"KVM_HC_HOST_SYSCALL_REGS", "an unknown hypercall (control)",
};

/*
 * The watchdog: a vCPU that makes no progress (its guest's list does not
 * advance and no new KVM_RUN round trip starts) for stuck_ms has a call
 * that did not come back.  The batch's chaos thread flags it and asks the
 * vCPU thread, through a signal that ends its KVM_RUN, for the vCPU's
 * registers and the bytes at rip; the parent, which is root and not
 * chrooted, adds the thread's kernel stack and KVM's trace events for it.
 */
enum { STUCK_NONE, STUCK_FLAGGED, STUCK_REGS, STUCK_CAPTURED };

struct fuzz_stuck {
	atomic_int state;
	int vcpu, tid;
	unsigned long batch;
	struct hc_fuzz_call call;	/* the call, as generated */
	uint64_t sys_nr;
	int regs_ok, sregs_ok, code_ok;
	struct kvm_regs regs;
	struct kvm_sregs sregs;
	uint8_t code[16];		/* the guest's bytes at rip */
	unsigned long intrs;		/* KVM_RUN -EINTR returns in the call */
	int foreign;			/* the registers are L1's, not the guest's */
};

/* Counts of one path, in memory shared with the batch children. */
struct fuzz_stats {
	atomic_ulong calls, hc_path, other_hc, cpl3, ran, ran_ok, ran_err;
	atomic_ulong eperm, efault, einval, enosys, unexpected;
	atomic_ulong bad_a0, cpl3_wrong, bad_a0_wrong, far_nr_wrong;
	atomic_ulong rbx_wrong, exit_wrong, last_stop_reason;
	atomic_ulong vmm_exits, vmm_refused, signals, fd_ops;
	atomic_ulong vm_stopped, batches, batch_ok, batch_signal;
	atomic_ulong batch_stopped, batch_timeout, batch_exit;
	atomic_ulong batch_max_ms;	/* the longest batch, written by the parent */
	atomic_ulong stuck, stuck_max_ms;	/* calls that did not come back */
	atomic_int captured;		/* capture_stuck(): what it got */
	atomic_ulong captures;		/* stuck calls captured */
	atomic_ulong stuck_foreign;	/* ... whose vCPU held L1's state */
	atomic_ulong shutdowns;		/* KVM_EXIT_SHUTDOWN: a triple fault */
	atomic_ulong nr_ran[NR_BITMAP / 64];
	atomic_ulong nr_tried[NR_BITMAP / 64];
	char first_wrong[160];
	struct fuzz_stuck stuck_rec;	/* the first stuck call, captured */
};

/* The run's stats: one per path, then the watchdog's own check. */
#define STATS_WATCHDOG	NR_PATHS
static struct fuzz_stats *stats;	/* [NR_PATHS + 1], MAP_SHARED */

/* From the environment, read once by main(): see there. */
static unsigned long vm_calls = 64, signal_us = 2000, stuck_ms = 2000;
/* The next batch is the watchdog's check: vCPU 0 spins in one call. */
static bool planting;
/* KVM_CHECK_EXTENSION(KVM_CAP_PV_HOST_SYSCALL), read once by main(). */
static int kvm_cap;

/* splitmix64: small, seedable, good enough to pick inputs. */
static uint64_t rnd_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t *s, uint64_t n)
{
	return rnd_next(s) % n;
}

/* Calls the kernel runs, often enough that not every call is refused. */
static const int favourite_nrs[] = {
	SYS_read, SYS_write, SYS_pread64, SYS_pwrite64, SYS_readv, SYS_writev,
	SYS_lseek, SYS_close, SYS_dup, SYS_dup2, SYS_dup3, SYS_pipe2,
	SYS_ioctl, SYS_fcntl, SYS_openat, SYS_fstat, SYS_newfstatat,
	SYS_getdents64, SYS_mmap, SYS_munmap, SYS_mprotect, SYS_madvise,
	SYS_mremap, SYS_futex, SYS_nanosleep, SYS_poll, SYS_ppoll,
	SYS_epoll_create1, SYS_epoll_ctl, SYS_epoll_wait, SYS_epoll_pwait,
	SYS_socket, SYS_socketpair, SYS_bind, SYS_connect, SYS_sendto,
	SYS_recvfrom, SYS_sendmsg, SYS_recvmsg, SYS_setsockopt,
	SYS_getsockopt, SYS_eventfd2, SYS_memfd_create, SYS_timerfd_create,
	SYS_timerfd_settime, SYS_splice, SYS_tee, SYS_sendfile, SYS_getrandom,
	SYS_tgkill, SYS_getppid, SYS_uname, SYS_clock_gettime, SYS_statx,
};

/* Where the pointers of one batch point. */
struct fuzz_mem {
	uint8_t *scratch;	/* arena tail, then a PROT_NONE page */
	uint8_t *guard;		/* PROT_NONE, right after the arena */
	uint8_t *regs;		/* REGS_PAGES: see fuzz_map_regs() */
	struct pt_regs *block;	/* BATCH_BLOCKS good blocks */
	struct pt_regs *ro;	/* in a read-only page */
	struct pt_regs *straddle;	/* across a RW and a PROT_NONE page */
};

static uint64_t pick_arg(uint64_t *s, const struct fuzz_mem *m)
{
	uint64_t r = rnd_below(s, 100);

	if (r < 30)
		return rnd_below(s, 65);
	if (r < 45)
		return rnd_below(s, 64);		/* a descriptor */
	if (r < 50)
		return -1UL;
	if (r < 70)
		return (uintptr_t)m->scratch + rnd_below(s, SCRATCH_SIZE);
	if (r < 75)
		return (uintptr_t)m->scratch + SCRATCH_SIZE - rnd_below(s, 64);
	if (r < 80)
		return (uintptr_t)m->guard + rnd_below(s, PAGE);
	if (r < 85)
		return KERNEL_PTR + rnd_below(s, 1UL << 20);
	if (r < 88)
		return NONCANON_PTR;
	if (r < 94)
		return 1UL << rnd_below(s, 64);
	return rnd_next(s);
}

static uint64_t pick_nr(uint64_t *s)
{
	uint64_t r = rnd_below(s, 100);

	if (r < 35)
		return favourite_nrs[rnd_below(s, ARRAY_SIZE(favourite_nrs))];
	if (r < 90)
		return rnd_below(s, NR_RANGE);
	switch (rnd_below(s, 4)) {
	case 0:
		return -1UL;
	case 1:
		return (1UL << 32) | SYS_getppid;	/* high bits must count */
	case 2:
		return FAR_NR + rnd_below(s, 1 << 20);
	}
	return rnd_next(s);
}

/* One pt_regs: every field random, the syscall in the x86-64 slots. */
static void fill_regs(uint64_t *s, struct pt_regs *r, uint64_t nr,
		      const struct fuzz_mem *m)
{
	uint64_t *w = (uint64_t *)r;
	size_t i;

	for (i = 0; i < sizeof(*r) / sizeof(*w); i++)
		w[i] = rnd_next(s);
	r->rax = nr;
	r->rdi = pick_arg(s, m);
	r->rsi = pick_arg(s, m);
	r->rdx = pick_arg(s, m);
	r->r10 = pick_arg(s, m);
	r->r8 = pick_arg(s, m);
	r->r9 = pick_arg(s, m);
}

/* What the host remembers of a call it generated. */
struct fuzz_gen {
	uint64_t sys_nr;
	bool good_a0, bad_a0;
};

/* A call of the register form: the number in a0, the arguments in args. */
static void gen_regs_call(uint64_t *s, const struct fuzz_mem *m,
			  struct hc_fuzz_call *c, struct fuzz_gen *g)
{
	uint64_t r = rnd_below(s, 100);
	int i;

	memset(g, 0, sizeof(*g));
	memset(c, 0, sizeof(*c));
	c->regs_form = 1;
	c->nr = KVM_HC_HOST_SYSCALL_REGS;
	if (r < 3)
		c->nr = rnd_below(s, 16);	/* KVM's other hypercalls */
	else if (r < 5)
		c->nr = rnd_next(s);
	if (rnd_below(s, 100) < 4)
		c->a1 = pick_arg(s, m);
	g->sys_nr = c->a0 = pick_nr(s);
	g->good_a0 = true;
	for (i = 0; i < 6; i++)
		c->args[i] = pick_arg(s, m);
	c->ret = 0x5a5a5a5a;
	c->rbx = 0x5a5a5a5a;
}

static pthread_mutex_t ro_lock = PTHREAD_MUTEX_INITIALIZER;

static void gen_call(uint64_t *s, const struct fuzz_mem *m, int slot,
		     struct hc_fuzz_call *c, struct fuzz_gen *g, int path)
{
	uint64_t r = rnd_below(s, 100);
	struct pt_regs *a0;

	if (path == PATH_REGS) {
		gen_regs_call(s, m, c, g);
		return;
	}
	memset(g, 0, sizeof(*g));
	if (path == PATH_BARE) {
		memset(c, 0, sizeof(*c));
		c->nr = BARE_NR + rnd_below(s, 1 << 16);
		c->a0 = pick_arg(s, m);
		c->a1 = pick_arg(s, m);
		c->ret = 0x5a5a5a5a;
		return;
	}
	c->nr = KVM_HC_HOST_SYSCALL;
	if (r < 3)
		c->nr = rnd_below(s, 16);	/* KVM's other hypercalls */
	else if (r < 5)
		c->nr = rnd_next(s);
	c->a1 = c->a2 = c->a3 = 0;
	if (rnd_below(s, 100) < 4) {
		c->a1 = pick_arg(s, m);
		c->a2 = rnd_below(s, 2) ? pick_arg(s, m) : 0;
		c->a3 = rnd_below(s, 2) ? pick_arg(s, m) : 0;
	}

	g->sys_nr = pick_nr(s);
	r = rnd_below(s, 100);
	a0 = &m->block[slot];
	if (r < 80) {
		g->good_a0 = true;
	} else if (r < 84) {
		a0 = m->straddle;
	} else if (r < 87) {
		a0 = m->ro;
	} else if (r < 90) {
		c->a0 = (uintptr_t)m->guard + 8;
		a0 = NULL;
	} else if (r < 94) {
		c->a0 = KERNEL_PTR + 8 * rnd_below(s, 1 << 16);
		g->bad_a0 = true;
		a0 = NULL;
	} else if (r < 97) {
		c->a0 = NONCANON_PTR;
		g->bad_a0 = true;
		a0 = NULL;
	} else {
		c->a0 = rnd_below(s, 4096);
		a0 = NULL;
	}
	if (a0) {
		if (a0 == m->straddle) {
			/* Only its first STRADDLE_RW bytes can be written. */
			for (size_t i = 0; i < STRADDLE_RW / sizeof(uint64_t); i++)
				((uint64_t *)a0)[i] = rnd_next(s);
		} else if (a0 == m->ro) {
			/* The vCPU threads share it: one writer at a time. */
			pthread_mutex_lock(&ro_lock);
			mprotect(m->ro, PAGE, PROT_READ | PROT_WRITE);
			fill_regs(s, a0, g->sys_nr, m);
			mprotect(m->ro, PAGE, PROT_READ);
			pthread_mutex_unlock(&ro_lock);
		} else {
			fill_regs(s, a0, g->sys_nr, m);
		}
		c->a0 = (uintptr_t)a0;
	}
	c->ret = 0x5a5a5a5a;
}

/*
 * The exit path's VMM must not run what would only tear the fuzzer down:
 * its own exit, fork or exec, its memory map, its signal handling, the
 * descriptors of its VM.  The kernel paths get no such list.
 */
static bool harness_denied(const struct pt_regs *r)
{
	switch (r->rax) {
	case SYS_exit: case SYS_exit_group: case SYS_rt_sigreturn:
	case SYS_fork: case SYS_vfork: case SYS_clone: case SYS_clone3:
	case SYS_execve: case SYS_execveat: case SYS_ptrace:
	case SYS_mmap: case SYS_munmap: case SYS_mremap: case SYS_mprotect:
	case SYS_madvise: case SYS_brk: case SYS_pkey_mprotect:
	case SYS_shmat: case SYS_shmdt: case SYS_remap_file_pages:
	case SYS_process_vm_writev: case SYS_rt_sigaction:
	case SYS_rt_sigprocmask: case SYS_sigaltstack: case SYS_arch_prctl:
	case SYS_set_tid_address: case SYS_prctl: case SYS_seccomp:
	case SYS_close_range:
		return true;
	case SYS_close: case SYS_dup2: case SYS_dup3:
		return r->rdi < FD_CHAOS_LO || r->rsi < FD_CHAOS_LO;
	}
	return false;
}

/* The VMM side of the exit and bpf paths, and of the final check. */
struct fuzz_vmm {
	uint8_t *lo, *hi;	/* where a pt_regs may be: the good blocks */
	struct fuzz_stats *st;
	bool exit_expected;
};

/*
 * A triple fault, counted: on the kernel paths a random call may wreck the
 * guest's memory; on bare nothing runs that could.  (SVM resets the vCPU
 * on a shutdown intercept: its registers then tell nothing.)
 */
static void note_shutdown(struct fuzz_stats *st)
{
	atomic_fetch_add(&st->shutdowns, 1);
}

static int fuzz_exit(struct vcpu *v, uint16_t port, void *ctx)
{
	struct fuzz_vmm *f = ctx;
	struct kvm_run *run = v->run;
	uint64_t a0 = run->hypercall.args[0];
	struct pt_regs *r = (struct pt_regs *)a0;

	if (run->exit_reason == KVM_EXIT_SHUTDOWN)
		note_shutdown(f->st);

	if (!f->exit_expected || run->exit_reason != KVM_EXIT_HYPERCALL ||
	    run->hypercall.nr != KVM_HC_HOST_SYSCALL) {
		/* This exit takes the vCPU's VM away: its reason, for the report. */
		atomic_store(&f->st->last_stop_reason, run->exit_reason);
		/*
		 * A path without the exit never gets KVM_EXIT_HYPERCALL (the
		 * register form never exits, enabled or not).  Any other exit
		 * (a shutdown, say) means a random call took the VM away, as
		 * every path counts it.
		 */
		if (!f->exit_expected && run->exit_reason == KVM_EXIT_HYPERCALL)
			atomic_fetch_add(&f->st->exit_wrong, 1);
		return -1;
	}
	atomic_fetch_add(&f->st->vmm_exits, 1);
	if (run->hypercall.args[1] | run->hypercall.args[2] |
	    run->hypercall.args[3]) {
		run->hypercall.ret = -HC_KVM_EINVAL;
		return 0;
	}
	if (a0 < (uintptr_t)f->lo || a0 > (uintptr_t)f->hi - sizeof(*r)) {
		run->hypercall.ret = -HC_KVM_EFAULT;
		return 0;
	}
	run->hypercall.ret = 0;
	if (r->rax >= FAR_NR) {
		r->rax = -ENOSYS;
	} else if (harness_denied(r)) {
		atomic_fetch_add(&f->st->vmm_refused, 1);
		run->hypercall.ret = -HC_KVM_EPERM;
	} else {
		r->rax = syscall(r->rax, r->rdi, r->rsi, r->rdx, r->r10, r->r8,
				 r->r9);
		if ((long)r->rax == -1)
			r->rax = -errno;
	}
	return 0;
}

/* Count a result the series does not allow; keep the first one whole. */
static void wrong(struct fuzz_stats *st, atomic_ulong *count, const char *what,
		  const struct hc_fuzz_call *c, uint64_t sys_nr, int vcpu)
{
	atomic_fetch_add(count, 1);
	if (st->first_wrong[0])
		return;
	snprintf(st->first_wrong, sizeof(st->first_wrong),
		 "%s: vCPU %d hc %#lx a0 %#lx a1 %#lx nr %#lx -> ret %ld rbx %#lx",
		 what, vcpu, (unsigned long)c->nr, (unsigned long)c->a0,
		 (unsigned long)c->a1, (unsigned long)sys_nr, (long)c->ret,
		 (unsigned long)c->rbx);
}

static void bitmap_set(atomic_ulong *b, uint64_t nr)
{
	if (nr < NR_BITMAP)
		atomic_fetch_or(&b[nr / 64], 1UL << (nr % 64));
}

/* Judge the calls just made against what the series documents. */
static void tally(struct fuzz_stats *st, int vcpu, const struct hc_fuzz_call *c,
		  const struct fuzz_gen *g, int path)
{
	bool zero_args = !(c->a1 | c->a2 | c->a3);
	const struct pt_regs *r = (const struct pt_regs *)c->a0;
	/* The call's result: in its pt_regs, or in rbx for the register form. */
	long res = c->regs_form ? (long)c->rbx : g->good_a0 ? (long)r->rax : 0;

	atomic_fetch_add(&st->calls, 1);
	if (vcpu == CPL3_VCPU) {
		atomic_fetch_add(&st->cpl3, 1);
		if (c->ret != -HC_KVM_EPERM)
			wrong(st, &st->cpl3_wrong, "CPL 3 not -KVM_EPERM", c,
			      g->sys_nr, vcpu);
		return;
	}
	if (path == PATH_BARE) {
		atomic_fetch_add(&st->hc_path, 1);
		if (c->ret == -HC_KVM_ENOSYS)
			atomic_fetch_add(&st->enosys, 1);
		else
			wrong(st, &st->unexpected, "unknown hypercall not -KVM_ENOSYS",
			      c, 0, vcpu);
		return;
	}
	if (c->nr != path_hc[path]) {
		atomic_fetch_add(&st->other_hc, 1);
		return;
	}
	atomic_fetch_add(&st->hc_path, 1);
	/* rbx is written only when the call completed. */
	if (c->regs_form && c->ret != 0 && c->rbx != c->a0)
		wrong(st, &st->rbx_wrong, "refused call changed rbx", c,
		      g->sys_nr, vcpu);
	bitmap_set(st->nr_tried, g->sys_nr);
	if (g->bad_a0 && zero_args) {
		atomic_fetch_add(&st->bad_a0, 1);
		if (c->ret != -HC_KVM_EFAULT)
			wrong(st, &st->bad_a0_wrong, "bad a0 not -KVM_EFAULT", c,
			      g->sys_nr, vcpu);
	}
	switch (c->ret) {
	case 0:
		atomic_fetch_add(&st->ran, 1);
		if (!g->good_a0)
			break;	/* ran from the RO page? then it is counted */
		bitmap_set(st->nr_ran, g->sys_nr);
		if (res < 0 && res >= -4095)
			atomic_fetch_add(&st->ran_err, 1);
		else
			atomic_fetch_add(&st->ran_ok, 1);
		if (g->sys_nr >= FAR_NR && res != -ENOSYS)
			wrong(st, &st->far_nr_wrong, "far nr not -ENOSYS", c,
			      g->sys_nr, vcpu);
		break;
	case -HC_KVM_EPERM:
		atomic_fetch_add(&st->eperm, 1);
		break;
	case -HC_KVM_EFAULT:
		atomic_fetch_add(&st->efault, 1);
		break;
	case -HC_KVM_EINVAL:
		atomic_fetch_add(&st->einval, 1);
		break;
	case -HC_KVM_ENOSYS:
	case -HC_KVM_EOPNOTSUPP:	/* a program's TO_VMM with no exit */
		atomic_fetch_add(&st->enosys, 1);
		break;
	default:
		wrong(st, &st->unexpected, "undocumented return", c, g->sys_nr,
		      vcpu);
	}
}

/* ---- one batch, in a forked child ---- */

struct fuzz_vcpu_thread {
	struct vcpu vcpu;
	struct hc_fuzz_list *list;	/* CHUNK calls, in guest memory */
	struct fuzz_gen gen[CHUNK];
	struct fuzz_vmm *vmm;
	const struct fuzz_mem *mem;
	uint64_t seed;			/* this vCPU's own stream of calls */
	uint64_t *spin;			/* the watchdog's check: spin on this */
	int path;
	pthread_t thread;
	atomic_int tid;
	atomic_int done;
	atomic_ulong round;		/* KVM_RUN round trips started */
	atomic_int want_regs;		/* the watchdog asks for the registers */
	unsigned long intrs;		/* -EINTR returns in this round trip */
};

static atomic_ulong child_signals;

static void on_signal(int sig)
{
	atomic_fetch_add(&child_signals, 1);
}

/*
 * KVM_RUN returned -EINTR: if the watchdog asked, take the vCPU's registers
 * while it is out, and the guest's bytes at rip (a guest address is a host
 * address here; process_vm_readv() fails cleanly where nothing is mapped).
 */
static void on_vcpu_intr(struct vcpu *v, void *ctx)
{
	struct fuzz_vcpu_thread *t = ctx;
	struct fuzz_stuck *s = &t->vmm->st->stuck_rec;
	struct iovec local, remote;

	t->intrs++;
	if (!atomic_exchange(&t->want_regs, 0))
		return;
	s->regs_ok = !ioctl(v->fd, KVM_GET_REGS, &s->regs);
	s->sregs_ok = !ioctl(v->fd, KVM_GET_SREGS, &s->sregs);
	if (s->regs_ok) {
		local = (struct iovec){ s->code, sizeof(s->code) };
		remote = (struct iovec){ (void *)(uintptr_t)s->regs.rip,
					 sizeof(s->code) };
		s->code_ok = process_vm_readv(getpid(), &local, 1, &remote, 1,
					      0) == sizeof(s->code);
	}
	s->intrs = t->intrs;
	atomic_store(&s->state, STUCK_REGS);
}

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* SIGALRM to this vCPU thread every signal_us: it ends blocking calls. */
static int start_signal_timer(timer_t *timer)
{
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID,
				.sigev_signo = SIGALRM };
	struct itimerspec its;

	sev.sigev_notify_thread_id = gettid();
	its.it_interval.tv_sec = signal_us / 1000000;
	its.it_interval.tv_nsec = signal_us % 1000000 * 1000;
	its.it_value = its.it_interval;
	if (timer_create(CLOCK_MONOTONIC, &sev, timer))
		return -1;
	return timer_settime(*timer, 0, &its, NULL);
}

/* One KVM_RUN round trip: the guest makes calls l->next..l->end-1. */
static int vcpu_round(struct fuzz_vcpu_thread *t, uint64_t (*fn)(uint64_t),
		      uint64_t arg)
{
	struct vmm_exit e;

	t->intrs = 0;
	atomic_fetch_add(&t->round, 1);
	return vcpu_call(&t->vcpu, fn, arg, fuzz_exit, t->vmm, &e);
}

static void *vcpu_thread(void *arg)
{
	struct fuzz_vcpu_thread *t = arg;
	struct hc_fuzz_list *l = t->list;
	struct fuzz_stats *st = t->vmm->st;
	uint64_t left = vm_calls;
	timer_t timer;
	bool timed;

	t->tid = gettid();
	t->vcpu.on_intr = on_vcpu_intr;
	t->vcpu.intr_ctx = t;
	timed = !start_signal_timer(&timer);
	if (t->spin) {
		l->next = 0;
		l->end = 1;
		vcpu_round(t, hc_fuzz_guest_spin, (uintptr_t)t->spin);
		left = 0;
	}
	while (left) {
		uint64_t n = left < CHUNK ? left : CHUNK, j;
		int r;

		for (j = 0; j < n; j++)
			gen_call(&t->seed, t->mem, t->vcpu.id * CHUNK + j,
				 &l->call[j], &t->gen[j], t->path);
		l->next = 0;
		l->end = n;
		r = vcpu_round(t, hc_fuzz_guest_run, (uintptr_t)l);
		for (j = 0; j < l->next && j < n; j++)
			tally(st, t->vcpu.id, &l->call[j], &t->gen[j], t->path);
		if (r) {
			/* Counted, not failed: a random call may take the VM away. */
			atomic_fetch_add(&st->vm_stopped, 1);
			break;
		}
		left -= n;
	}
	if (timed)
		timer_delete(timer);
	t->done = 1;
	return NULL;
}

/*
 * Blocks in the pages before REGS_RO_PAGE, one read-only page, a RW page
 * whose last STRADDLE_RW bytes start a block that runs into the guard.
 * The VMM of the exit path takes a pt_regs from the blocks only.
 */
static int fuzz_map_regs(struct fuzz_mem *m, struct fuzz_vmm *vmm)
{
	m->regs = mmap(NULL, REGS_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->regs == MAP_FAILED)
		return -1;
	if (mprotect(m->regs + REGS_RO_PAGE * PAGE, PAGE, PROT_READ) ||
	    mprotect(m->regs + REGS_GUARD_PAGE * PAGE, PAGE, PROT_NONE))
		return -1;
	m->block = (struct pt_regs *)m->regs;
	m->ro = (struct pt_regs *)(m->regs + REGS_RO_PAGE * PAGE);
	m->straddle = (struct pt_regs *)(m->regs + REGS_GUARD_PAGE * PAGE -
					 STRADDLE_RW);
	vmm->lo = m->regs;
	vmm->hi = m->regs + REGS_RO_PAGE * PAGE;
	return 0;
}

/* The register form's VM also asks for exits, if KVM offers them. */
static bool path_enables_exit(int path)
{
	return path == PATH_EXIT || path == PATH_BPF ||
	       (path == PATH_REGS &&
		(kvm_cap & KVM_PV_HOST_SYSCALL_EXIT));
}

static int setup_vm(struct vmm *vm, struct fuzz_vcpu_thread *t, int path)
{
	/* KVM_CAP_PV_HOST_SYSCALL's mask: the forms KVM runs, the exit. */
	uint64_t mask = (path != PATH_EXIT ? KVM_PV_HOST_SYSCALL_KERNEL |
			 KVM_PV_HOST_SYSCALL_REGS : 0) |
			(path_enables_exit(path) ? KVM_PV_HOST_SYSCALL_EXIT : 0);
	int i;

	if (vmm_init(vm, ARENA_SIZE))
		return -1;
	for (i = 0; i < NR_VCPUS; i++) {
		struct vcpu *v = &t[i].vcpu;

		if (vcpu_init(vm, v, i, i == CPL3_VCPU))
			return -1;
		if (vcpu_enable_cap(v, KVM_CAP_ENFORCE_PV_FEATURE_CPUID, 1))
			return -1;
		if (path != PATH_BARE &&
		    vcpu_enable_cap(v, KVM_CAP_PV_HOST_SYSCALL, mask))
			return -1;
	}
	return 0;
}

/* Descriptors for the chaos thread to dup2() from, opened before chroot. */
static void open_templates(void)
{
	int fds[FD_TEMPLATE_N], p[2], sp[2], i;

	fds[0] = open("/dev/null", O_RDWR);
	fds[1] = open("/dev/zero", O_RDONLY);
	if (pipe(p) == 0) {
		fds[2] = p[0];
		fds[3] = p[1];
	} else {
		fds[2] = fds[3] = -1;
	}
	fds[4] = eventfd(1, EFD_NONBLOCK);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sp) == 0) {
		fds[5] = sp[0];
		fds[6] = sp[1];
	} else {
		fds[5] = fds[6] = -1;
	}
	fds[7] = socket(AF_INET, SOCK_DGRAM, 0);
	fds[8] = memfd_create("hc_fuzz", 0);
	fds[9] = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	for (i = 0; i < FD_TEMPLATE_N; i++) {
		if (fds[i] < 0)
			continue;
		dup2(fds[i], FD_TEMPLATE + i);
		if (fds[i] != FD_TEMPLATE + i)
			close(fds[i]);
	}
}

static int drop_privileges(const char *root)
{
	struct rlimit nofile = { 64, 64 }, fsize = { 1 << 20, 1 << 20 };
	struct rlimit none = { 0, 0 };

	if (chroot(root) || chdir("/"))
		return -1;
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	setrlimit(RLIMIT_NOFILE, &nofile);
	setrlimit(RLIMIT_FSIZE, &fsize);
	setrlimit(RLIMIT_CORE, &none);
	return 0;
}

/* The batch's child speaks only through stats: its stdio goes nowhere. */
static void batch_silence(void)
{
	int null = open("/dev/null", O_RDWR);

	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	if (null > 2)
		close(null);
}

/*
 * The VM and its memory: a PROT_NONE moat first, so that the arena, mapped
 * next, lands right below it and a call that runs off the arena's end
 * faults there; then the register pages and the scratch area.  0 or -1.
 */
static int batch_map(struct vmm *vm, struct fuzz_vcpu_thread *t, int path,
		     struct fuzz_mem *m, struct fuzz_vmm *vmm)
{
	void *moat = mmap(NULL, MOAT_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	if (moat == MAP_FAILED || setup_vm(vm, t, path) || fuzz_map_regs(m, vmm))
		return -1;
	m->scratch = vm->arena + ARENA_SIZE - SCRATCH_SIZE;
	m->guard = vm->arena + ARENA_SIZE;
	if (m->guard != moat &&
	    mmap(m->guard, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED)
		return -1;
	return 0;
}

/*
 * Each vCPU's list (CHUNK calls at a time, drawn by its thread from its
 * own stream of the batch's seed) and what the batch shares; 0 or -1.
 */
static int batch_prepare(struct vmm *vm, struct fuzz_vcpu_thread *t, int path,
			 const struct fuzz_mem *m, struct fuzz_vmm *vmm,
			 uint64_t *seed)
{
	int i;

	for (i = 0; i < NR_VCPUS; i++) {
		size_t sz = sizeof(*t[i].list) + CHUNK * sizeof(t[i].list->call[0]);

		t[i].list = vmm_alloc(vm, sz);
		if (!t[i].list)
			return -1;
		t[i].vmm = vmm;
		t[i].mem = m;
		t[i].path = path;
		t[i].seed = rnd_next(seed);
	}
	if (planting) {
		t[0].spin = vmm_alloc(vm, sizeof(*t[0].spin));
		if (!t[0].spin)
			return -1;
		*t[0].spin = 0;
	}
	return 0;
}

/* Signals without SA_RESTART (each vCPU thread's timer sends SIGALRM). */
static int batch_start(struct fuzz_vcpu_thread *t)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	int i;

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	for (i = 0; i < NR_VCPUS; i++)
		if (pthread_create(&t[i].thread, NULL, vcpu_thread, &t[i]))
			return -1;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the watchdog knows of one vCPU. */
struct fuzz_watch {
	uint64_t mark;		/* round trips and calls made, at since */
	double since;
	bool flagged;
};

/* Flag a vCPU that made no progress for stuck_ms; see struct fuzz_stuck. */
static void watch_vcpu(struct fuzz_vcpu_thread *t, struct fuzz_watch *w,
		       struct fuzz_stats *st, unsigned long batch, double t_now)
{
	uint64_t next = __atomic_load_n(&t->list->next, __ATOMIC_RELAXED);
	uint64_t mark = (atomic_load(&t->round) << 20) + next;
	struct fuzz_stuck *s = &st->stuck_rec;
	int expect = STUCK_NONE;

	if (mark != w->mark || t->done) {
		if (w->flagged) {
			unsigned long ms = (t_now - w->since) * 1000;

			if (ms > st->stuck_max_ms)
				st->stuck_max_ms = ms;
		}
		w->mark = mark;
		w->since = t_now;
		w->flagged = false;
		return;
	}
	if (w->flagged || (t_now - w->since) * 1000 < stuck_ms)
		return;
	w->flagged = true;
	atomic_fetch_add(&st->stuck, 1);
	if (!atomic_compare_exchange_strong(&s->state, &expect, STUCK_FLAGGED))
		return;		/* only the first one is captured */
	s->vcpu = t->vcpu.id;
	s->tid = t->tid;
	s->batch = batch;
	if (next < CHUNK && !t->spin) {
		s->call = t->list->call[next];
		s->sys_nr = t->gen[next].sys_nr;
	}
	atomic_store(&t->want_regs, 1);
	syscall(SYS_tgkill, getpid(), t->tid, SIGUSR1);
}

/*
 * The chaos thread: swap, close and signal until every vCPU is done, and
 * watch them.  The watchdog's check ends its spin once the parent has the
 * capture (or after long enough that the parent surely missed it).
 */
static void batch_chaos(struct fuzz_vcpu_thread *t, struct fuzz_stats *st,
			uint64_t *seed, unsigned long batch)
{
	struct fuzz_watch w[NR_VCPUS];
	double t0 = now();
	int i, done;

	for (i = 0; i < NR_VCPUS; i++)
		w[i] = (struct fuzz_watch){ .mark = -1ULL, .since = t0 };

	do {
		uint64_t r = rnd_next(seed);
		int fd = FD_CHAOS_LO + (r >> 8) % FD_CHAOS_N;
		struct timespec ts = { 0, 200000 };
		double t_now = now();
		int tid;

		switch (r % 4) {
		case 0:
			dup2(FD_TEMPLATE + (r >> 16) % FD_TEMPLATE_N, fd);
			break;
		case 1:
			close(fd);
			break;
		case 2:
			tid = t[(r >> 16) % NR_VCPUS].tid;
			if (tid)
				syscall(SYS_tgkill, getpid(), tid, SIGUSR1);
			break;
		}
		atomic_fetch_add(&st->fd_ops, (r % 4) < 2);
		nanosleep(&ts, NULL);
		for (done = 0, i = 0; i < NR_VCPUS; i++) {
			if (t[i].tid)
				watch_vcpu(&t[i], &w[i], st, batch, t_now);
			done += t[i].done;
		}
		if (t[0].spin && !*t[0].spin &&
		    (atomic_load(&st->stuck_rec.state) == STUCK_CAPTURED ||
		     t_now - t0 > 3 * stuck_ms / 1000.0 + 10))
			__atomic_store_n(t[0].spin, 1, __ATOMIC_RELEASE);
	} while (done < NR_VCPUS);
}

/* One batch, in a child of its own: set up, run, and exit 0 (3: set-up). */
static void batch_child(int path, uint64_t seed, unsigned long batch,
			const char *root)
{
	static struct fuzz_vcpu_thread t[NR_VCPUS];
	struct fuzz_stats *st = &stats[planting ? STATS_WATCHDOG : path];
	struct fuzz_vmm vmm = { .st = st,
				.exit_expected = path == PATH_EXIT || path == PATH_BPF };
	struct fuzz_mem m = { 0 };
	struct vmm vm;
	int i;

	setsid();
	batch_silence();
	if (batch_map(&vm, t, path, &m, &vmm) ||
	    batch_prepare(&vm, t, path, &m, &vmm, &seed))
		_exit(3);
	open_templates();
	if (drop_privileges(root) || batch_start(t))
		_exit(3);
	batch_chaos(t, st, &seed, batch);
	for (i = 0; i < NR_VCPUS; i++)
		pthread_join(t[i].thread, NULL);
	atomic_fetch_add(&st->signals, child_signals);
	_exit(0);
}

/* Say what a batch that hung was doing, then end it. */
static void report_hang(pid_t pid, int path, int batch, unsigned long timeout)
{
	char p[64], buf[256];
	FILE *f;

	ksft_print_msg("%s batch %d: no end after %lu s; its threads:\n",
		       path_name[path], batch, timeout);
	snprintf(p, sizeof(p), "/proc/%d/task", pid);
	snprintf(buf, sizeof(buf),
		 "for t in %s/*; do echo \"  $(cat $t/stat | cut -d' ' -f3) $(cat $t/wchan)\"; "
		 "cat $t/stack 2>/dev/null | sed 's/^/    /'; done", p);
	f = popen(buf, "r");
	while (f && fgets(buf, sizeof(buf), f))
		ksft_print_msg("%s", buf);
	if (f)
		pclose(f);
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/* Print a command's output, indented, as TAP comments. */
static int print_cmd(const char *cmd, const char *indent)
{
	char buf[256];
	int lines = 0;
	FILE *f = popen(cmd, "r");

	while (f && fgets(buf, sizeof(buf), f)) {
		ksft_print_msg("%s%s", indent, buf);
		lines++;
	}
	if (f)
		pclose(f);
	return lines;
}

#define TRACEFS "/sys/kernel/tracing"

static void trace_write(const char *file, const char *what)
{
	char p[128];
	int fd;

	snprintf(p, sizeof(p), TRACEFS "/%s", file);
	fd = open(p, O_WRONLY | O_TRUNC);
	if (fd >= 0) {
		if (write(fd, what, strlen(what)) < 0)
			ksft_print_msg("  %s: %s\n", p, strerror(errno));
		close(fd);
	}
}

/*
 * The history: while the paths run, every vCPU's entries, exits, returns
 * to the VMM and hypercalls, and every task migration, are traced into a
 * buffer large enough for the last seconds, so that a stuck call's capture
 * shows what its vCPU did before it stuck.  FUZZ_HISTORY=0 leaves it off.
 */
static const char *const history_events[] = {
	"kvm:kvm_entry", "kvm:kvm_exit", "kvm:kvm_userspace_exit",
	"kvm:kvm_hypercall", "sched:sched_migrate_task",
};
static bool history_on;

static bool tracefs_ready(void)
{
	if (!access(TRACEFS "/set_event", W_OK))
		return true;
	mount("nodev", TRACEFS, "tracefs", 0, NULL);
	return !access(TRACEFS "/set_event", W_OK);
}

static void history_arm(void)
{
	char p[128];
	size_t i;
	int fd;

	trace_write("tracing_on", "0");
	trace_write("set_event", "");
	trace_write("set_event_pid", "");
	for (i = 0; i < ARRAY_SIZE(history_events); i++) {
		fd = open(TRACEFS "/set_event", O_WRONLY | O_APPEND);
		if (fd < 0)
			return;
		snprintf(p, sizeof(p), "%s\n", history_events[i]);
		if (write(fd, p, strlen(p)) < 0)
			ksft_print_msg("set_event %s: %s\n", history_events[i], strerror(errno));
		close(fd);
	}
	trace_write("trace", "");
	trace_write("tracing_on", "1");
}

static bool env_flag(const char *name, bool dflt);

static void history_start(void)
{
	if (!env_flag("FUZZ_HISTORY", true) || !tracefs_ready()) {
		ksft_print_msg("no history of KVM events for the captures (FUZZ_HISTORY=0 or no tracefs)\n");
		return;
	}
	trace_write("buffer_size_kb", "8192");
	history_arm();
	history_on = true;
}

/*
 * What the stuck vCPU's thread did before: its last events up to the first
 * entry at an address of the upper half (its state was not the guest's
 * from then on), or its last events if there is none.
 */
static void history_dump(int tid)
{
	char cmd[400];

	if (!history_on)
		return;
	trace_write("tracing_on", "0");
	snprintf(cmd, sizeof(cmd),
		 "awk -v me='-%d ' -v pid='pid=%d ' '"
		 "index($0, me) || index($0, pid) { l[n++ %% 40] = $0; "
		 "if (index($0, \"kvm_entry\") && index($0, \"rip 0xffff\")) { bad = 1; exit } } "
		 "END { for (i = (n > 40 ? n - 40 : 0); i < n; i++) print l[i %% 40]; "
		 "print bad ? \"(the first entry at an upper-half rip: the last line)\" : "
		 "\"(no entry at an upper-half rip in the history)\" }' " TRACEFS "/trace | cut -c1-220",
		 tid, tid);
	ksft_print_msg("  the history of its thread, the last 40 events:\n");
	print_cmd(cmd, "    ");
}

/*
 * KVM's trace events of one thread for @ms: kvm_entry, kvm_exit,
 * kvm_hypercall and the rest of the kvm group.  The number of lines read.
 * The history's events are armed again after it.
 */
static int trace_thread(int tid, int ms)
{
	char cmd[256];
	int lines;

	if (access(TRACEFS "/events/kvm/enable", W_OK) &&
	    mount("nodev", TRACEFS, "tracefs", 0, NULL))
		return -1;
	if (access(TRACEFS "/events/kvm/enable", W_OK))
		return -1;
	trace_write("tracing_on", "0");
	trace_write("trace", "");
	snprintf(cmd, sizeof(cmd), "%d", tid);
	trace_write("set_event_pid", cmd);
	trace_write("events/kvm/enable", "1");
	trace_write("tracing_on", "1");
	usleep(ms * 1000);
	trace_write("tracing_on", "0");
	trace_write("events/kvm/enable", "0");
	trace_write("set_event_pid", "");
	ksft_print_msg("  KVM trace events of the vCPU thread over %d ms, by event:\n", ms);
	snprintf(cmd, sizeof(cmd),
		 "grep -v '^#' " TRACEFS "/trace | grep -o ' kvm_[a-z_]*:' | sort | uniq -c");
	lines = print_cmd(cmd, "    ");
	ksft_print_msg("  the first 24 of them:\n");
	print_cmd("grep -v '^#' " TRACEFS "/trace | head -24 | cut -c1-200", "    ");
	trace_write("trace", "");
	if (history_on)
		history_arm();
	return lines;
}

/*
 * The parent's half of the watchdog: the stuck vCPU thread's kernel stack
 * and trace, then what its thread took (registers, sregs, code at rip).
 * Says what it got in st->captured: 1 a stack, 2 trace, 4 registers.
 */
/* The symbol at or below @addr in /proc/kallsyms, into @buf. */
static void kernel_symbol(uint64_t addr, char *buf, size_t len)
{
	char cmd[160];
	FILE *f;

	snprintf(buf, len, "?");
	snprintf(cmd, sizeof(cmd),
		 "awk '$2 ~ /^[tT]$/ && $1 <= \"%016llx\" && $1 > b { b = $1; s = $3 } "
		 "END { print s, b }' /proc/kallsyms", (unsigned long long)addr);
	f = popen(cmd, "r");
	if (f) {
		char sym[128];
		unsigned long long base;

		if (fscanf(f, "%127s %llx", sym, &base) == 2)
			snprintf(buf, len, "%s+%#llx", sym,
				 (unsigned long long)addr - base);
		pclose(f);
	}
}

/*
 * The guest maps nothing in the upper half: a vCPU whose rip and IDT are
 * kernel addresses holds state the guest never had, the state of the L1
 * kernel that runs KVM, written into the vCPU from outside.
 */
static bool state_is_foreign(const struct fuzz_stuck *s)
{
	return s->regs_ok && s->sregs_ok && s->regs.rip >= 0xffff800000000000ULL &&
	       s->sregs.idt.base >= 0xffff800000000000ULL;
}

static void print_regs(const struct fuzz_stuck *s)
{
	const struct kvm_regs *r = &s->regs;
	const struct kvm_sregs *sr = &s->sregs;
	int i;

	ksft_print_msg("  after %lu KVM_RUN -EINTR returns: rip %#llx rsp %#llx rflags %#llx\n",
		       s->intrs, r->rip, r->rsp, r->rflags);
	ksft_print_msg("  rax %#llx rbx %#llx rcx %#llx rdx %#llx rsi %#llx rdi %#llx\n",
		       r->rax, r->rbx, r->rcx, r->rdx, r->rsi, r->rdi);
	ksft_print_msg("  r8 %#llx r9 %#llx r10 %#llx r11 %#llx\n",
		       r->r8, r->r9, r->r10, r->r11);
	if (s->sregs_ok)
		ksft_print_msg("  cr0 %#llx cr3 %#llx cr4 %#llx efer %#llx cs %#x (dpl %d) ss %#x idt %#llx/%#x\n",
			       sr->cr0, sr->cr3, sr->cr4, sr->efer,
			       sr->cs.selector, sr->cs.dpl, sr->ss.selector,
			       sr->idt.base, sr->idt.limit);
	if (s->code_ok) {
		char hex[3 * sizeof(s->code) + 1];

		for (i = 0; i < (int)sizeof(s->code); i++)
			snprintf(hex + 3 * i, 4, " %02x", s->code[i]);
		ksft_print_msg("  bytes at rip:%s\n", hex);
	}
}

/*
 * The parent's half of the watchdog: the stuck vCPU thread's kernel state
 * and trace (the first time in a path), then what its thread took
 * (registers, sregs, code at rip).  Says what it got in st->captured: 1 a
 * stack, 2 trace, 4 registers.
 */
static void capture_stuck(pid_t pid, struct fuzz_stats *st, const char *what)
{
	struct fuzz_stuck *s = &st->stuck_rec;
	bool brief = atomic_fetch_add(&st->captures, 1) > 0;
	atomic_int *got = &st->captured;
	double until = now() + 2;
	char cmd[200];
	int i;

	ksft_print_msg("%s batch %lu: vCPU %d (tid %d) made no progress for %lu ms: a call did not come back\n",
		       what, s->batch, s->vcpu, s->tid, stuck_ms);
	if (s->call.nr)
		ksft_print_msg("  the call: hc %#lx a0 %#lx a1 %#lx nr %#lx args %#lx %#lx %#lx %#lx %#lx %#lx%s\n",
			       (unsigned long)s->call.nr, (unsigned long)s->call.a0,
			       (unsigned long)s->call.a1, (unsigned long)s->sys_nr,
			       (unsigned long)s->call.args[0], (unsigned long)s->call.args[1],
			       (unsigned long)s->call.args[2], (unsigned long)s->call.args[3],
			       (unsigned long)s->call.args[4], (unsigned long)s->call.args[5],
			       s->call.regs_form ? " (register form)" : "");
	/*
	 * A thread in guest mode is running: /proc shows no stack for it
	 * then.  Five looks, 100 ms apart, catch it outside the guest if it
	 * ever is (in a page fault, a halt, a blocking call).
	 */
	for (i = 0; !brief && i < 5; i++) {
		snprintf(cmd, sizeof(cmd),
			 "cd /proc/%d/task/%d && echo \"state $(cut -d' ' -f3 stat), wchan $(cat wchan), "
			 "in syscall $(cut -d' ' -f1 syscall)\"; cat stack",
			 pid, s->tid);
		ksft_print_msg("  its kernel state and stack, look %d:\n", i + 1);
		if (print_cmd(cmd, "    ") > 1)
			atomic_fetch_or(got, 1);
		usleep(100000);
	}
	history_dump(s->tid);
	if (!brief) {
		if (trace_thread(s->tid, 300) > 0)
			atomic_fetch_or(got, 2);
		else
			ksft_print_msg("  no KVM trace events (tracefs or the kvm events unavailable, or none)\n");
	}
	while (atomic_load(&s->state) != STUCK_REGS && now() < until)
		usleep(5000);
	if (atomic_load(&s->state) != STUCK_REGS) {
		ksft_print_msg("  the vCPU thread did not leave KVM_RUN for 2 s after a signal: no registers\n");
	} else if (s->regs_ok) {
		atomic_fetch_or(got, 4);
		print_regs(s);
	}
	s->foreign = state_is_foreign(s);
	if (s->foreign) {
		kernel_symbol(s->regs.rip, cmd, sizeof(cmd));
		ksft_print_msg("  not the guest's state: rip is %s in the kernel that runs KVM, the IDT at %#llx is that kernel's; "
			       "the guest maps nothing there (hypercall/README.md, \"Stuck calls\")\n",
			       cmd, s->sregs.idt.base);
	}
	atomic_store(&s->state, STUCK_CAPTURED);
}

/* Run one batch; its counts land in stats[path] (the watchdog's own). */
static void run_batch(int path, uint64_t seed, int batch, const char *root)
{
	struct fuzz_stats *st = &stats[planting ? STATS_WATCHDOG : path];
	/* A batch of long-lived VMs gets time for its calls: 50 a second. */
	unsigned long timeout = BATCH_TIMEOUT + NR_VCPUS * vm_calls / 50;
	double deadline = now() + timeout;
	unsigned long ms;
	int state;
	int status;
	pid_t pid;

	atomic_fetch_add(&st->batches, 1);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0)
		batch_child(path, seed, batch, root);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG | WUNTRACED);

		state = atomic_load(&st->stuck_rec.state);
		if (state == STUCK_FLAGGED || state == STUCK_REGS) {
			capture_stuck(pid, st, planting ? "watchdog check" :
				      path_name[path]);
			if (st->stuck_rec.foreign) {
				/*
				 * It never comes back (the guest triple-faults
				 * in the end): end the batch now, and capture
				 * the next one too.
				 */
				atomic_fetch_add(&st->stuck_foreign, 1);
				kill(-pid, SIGKILL);
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				atomic_store(&st->stuck_rec.state, STUCK_NONE);
				return;
			}
		}
		if (w == pid && WIFSTOPPED(status)) {
			/* A random tgkill(SIGSTOP) stops the batch: end it. */
			atomic_fetch_add(&st->batch_stopped, 1);
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return;
		}
		if (w == pid)
			break;
		if (now() > deadline) {
			atomic_fetch_add(&st->batch_timeout, 1);
			report_hang(pid, path, batch, timeout);
			waitpid(pid, &status, 0);
			return;
		}
		usleep(5000);
	}
	ms = (now() - deadline + timeout) * 1000;
	if (ms > st->batch_max_ms)
		st->batch_max_ms = ms;
	if (WIFSIGNALED(status))
		atomic_fetch_add(&st->batch_signal, 1);
	else if (WEXITSTATUS(status))
		atomic_fetch_add(&st->batch_exit, 1);
	else
		atomic_fetch_add(&st->batch_ok, 1);
}

/* ---- availability, the final check, the report ---- */

static struct hc_policy *policy;

static const char *path_unavailable(int path)
{
	int cap = kvm_cap;

	if (cap < 0)
		return "no /dev/kvm";
	if (path == PATH_BARE)
		return NULL;
	if (cap == 0)
		return "KVM_CAP_PV_HOST_SYSCALL absent (hypercall/ series)";
	if ((path == PATH_EXIT || path == PATH_BPF) && !(cap & KVM_PV_HOST_SYSCALL_EXIT))
		return "no KVM_PV_HOST_SYSCALL_EXIT (exit-variant/ series)";
	if (path == PATH_REGS && !(cap & KVM_PV_HOST_SYSCALL_REGS))
		return "no KVM_PV_HOST_SYSCALL_REGS (hypercall/ patch 6)";
	if (path == PATH_BPF && !policy)
		return "hc_policy.bpf.o did not load (bpf-variant/ series)";
	return NULL;
}

static void set_random_verdicts(uint64_t *s)
{
	unsigned int nr;

	for (nr = 0; nr < NR_BITMAP; nr++)
		hc_policy_set(policy, nr, rnd_below(s, 3));
}

/* A fresh VM, as root, asks for getppid through the path. */
static bool still_answers(int path, char *why, size_t len)
{
	struct fuzz_vcpu_thread t[NR_VCPUS];
	struct fuzz_stats scratch_stats;
	struct fuzz_vmm vmm = { .st = &scratch_stats,
				.exit_expected = path == PATH_EXIT || path == PATH_BPF };
	struct hc_fuzz_list *l;
	struct fuzz_mem m;
	struct pt_regs *r;
	struct vmm_exit e;
	struct vmm vm;
	bool ok = false;

	memset(&scratch_stats, 0, sizeof(scratch_stats));
	if (setup_vm(&vm, t, path) || fuzz_map_regs(&m, &vmm)) {
		snprintf(why, len, "VM setup: %s", strerror(errno));
		return false;
	}
	l = vmm_alloc(&vm, sizeof(*l) + sizeof(l->call[0]));
	r = m.block;
	memset(r, 0, sizeof(*r));
	r->rax = SYS_getppid;
	l->next = 0;
	l->end = 1;
	l->call[0] = (struct hc_fuzz_call){ .nr = KVM_HC_HOST_SYSCALL,
					    .a0 = (uintptr_t)r };
	if (path == PATH_REGS)
		l->call[0] = (struct hc_fuzz_call){ .nr = KVM_HC_HOST_SYSCALL_REGS,
						    .a0 = SYS_getppid, .regs_form = 1 };
	if (path == PATH_BARE)	/* no getppid here: the unknown call's answer */
		l->call[0] = (struct hc_fuzz_call){ .nr = BARE_NR };
	if (path == PATH_BPF)
		hc_policy_set(policy, SYS_getppid, HCP_KERNEL);
	if (vcpu_call(&t[0].vcpu, hc_fuzz_guest_run, (uintptr_t)l, fuzz_exit,
		      &vmm, &e)) {
		vmm_exit_str(&e, why, len);
	} else {
		/* The result: in the pt_regs, or in rbx for the register form. */
		long got = path == PATH_REGS ? (long)l->call[0].rbx : (long)r->rax;

		ok = !l->call[0].ret && got == getppid();
		if (path == PATH_BARE) {
			ok = l->call[0].ret == -HC_KVM_ENOSYS;
			snprintf(why, len, "hypercall %d: ret %ld, expected -KVM_ENOSYS %d",
				 BARE_NR, (long)l->call[0].ret, -HC_KVM_ENOSYS);
		} else if (ok) {
			snprintf(why, len, "ret 0, getppid %ld", got);
		} else {
			snprintf(why, len, "ret %ld, getppid %ld, expected 0, %d",
				 (long)l->call[0].ret, got, getppid());
		}
	}
	for (int i = 0; i < NR_VCPUS; i++)
		vcpu_destroy(&t[i].vcpu);
	vmm_destroy(&vm);
	munmap(m.regs, REGS_PAGES * PAGE);
	return ok;
}

static int popcount_bitmap(atomic_ulong *b)
{
	int i, n = 0;

	for (i = 0; i < NR_BITMAP / 64; i++)
		n += __builtin_popcountl(b[i]);
	return n;
}

static bool report(int path, double secs)
{
	struct fuzz_stats *st = &stats[path];
	bool ok = !st->unexpected && !st->cpl3_wrong && !st->bad_a0_wrong &&
		  !st->far_nr_wrong && !st->rbx_wrong && !st->exit_wrong &&
		  !st->batch_timeout && !st->batch_exit &&
		  st->stuck == st->stuck_foreign;

	ksft_print_msg("%s: %lu calls in %lu batches, %.1f s (%.0f calls/s)\n",
		       path_name[path], st->calls, st->batches, secs,
		       secs > 0 ? st->calls / secs : 0.0);
	ksft_print_msg("  %s at CPL 0: %lu: ran %lu (result >= 0: %lu, -errno: %lu), "
		       "-KVM_EPERM %lu, -KVM_EFAULT %lu, -KVM_EINVAL %lu, -KVM_ENOSYS or -KVM_EOPNOTSUPP %lu, undocumented %lu\n",
		       path_hc_name[path], st->hc_path, st->ran, st->ran_ok,
		       st->ran_err, st->eperm, st->efault, st->einval,
		       st->enosys, st->unexpected);
	ksft_print_msg("  syscall numbers: %d of 0..%d tried, %d ran; at CPL 3: %lu calls, %lu not -KVM_EPERM; "
		       "kernel/non-canonical a0: %lu, %lu not -KVM_EFAULT; far numbers not -ENOSYS: %lu\n",
		       popcount_bitmap(st->nr_tried), NR_BITMAP - 1,
		       popcount_bitmap(st->nr_ran), st->cpl3, st->cpl3_wrong,
		       st->bad_a0, st->bad_a0_wrong, st->far_nr_wrong);
	if (path == PATH_REGS)
		ksft_print_msg("  register form: rbx changed by a call that did not complete: %lu; "
			       "exits to the VMM (exit %s): %lu\n", st->rbx_wrong,
			       path_enables_exit(path) ? "enabled" : "not offered",
			       st->exit_wrong);
	ksft_print_msg("  other hypercall numbers %lu; exits to the VMM %lu (refused by its harness list %lu); "
		       "signals %lu, descriptor swaps/closes %lu\n",
		       st->other_hc, st->vmm_exits, st->vmm_refused,
		       st->signals, st->fd_ops);
	ksft_print_msg("  batches: %lu completed, %lu ended by a signal, %lu stopped themselves, "
		       "%lu hung, %lu failed to set up; vCPUs that lost their VM %lu (exit reason of the last: %lu); longest batch %.1f s\n",
		       st->batch_ok, st->batch_signal, st->batch_stopped,
		       st->batch_timeout, st->batch_exit, st->vm_stopped,
		       st->last_stop_reason,
		       st->batch_max_ms / 1000.0);
	ksft_print_msg("  triple faults (KVM_EXIT_SHUTDOWN, counted, not failed): %lu\n",
		       st->shutdowns);
	ksft_print_msg("  watchdog: calls without progress for %lu ms or more: %lu (the longest that came back: %.1f s); "
		       "of them with L1's state in the vCPU (counted, not failed): %lu\n",
		       stuck_ms, st->stuck, st->stuck_max_ms / 1000.0,
		       st->stuck_foreign);
	if (st->first_wrong[0])
		ksft_print_msg("  first wrong result: %s\n", st->first_wrong);
	return ok;
}

/*
 * The counts are the one thing a batch shares with the parent.  A call that
 * writes past the end of the arena must not reach them: the arena may be
 * mapped right below, so they sit between two PROT_NONE pages.
 */
static struct fuzz_stats *map_stats(void)
{
	size_t size = ((NR_PATHS + 1) * sizeof(*stats) + PAGE - 1) & ~(PAGE - 1);
	uint8_t *p = mmap(NULL, size + 2 * PAGE, PROT_NONE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + PAGE, size, PROT_READ | PROT_WRITE))
		return NULL;
	return (struct fuzz_stats *)(p + PAGE);
}

static bool env_flag(const char *name, bool dflt)
{
	const char *v = getenv(name);

	return v && *v ? strcmp(v, "0") != 0 : dflt;
}

static unsigned long env_ul(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

/*
 * The watchdog must be able to fail a run: vCPU 0 of one batch spins in a
 * guest call that does not return until the capture is taken.  It must be
 * flagged once, with the thread's kernel stack, KVM trace events and the
 * registers (rip inside the spin).
 */
static void watchdog_check(const char *root)
{
	struct fuzz_stats *st = &stats[STATS_WATCHDOG];
	uint64_t rip, spin = (uintptr_t)hc_fuzz_guest_spin;
	unsigned long vm_calls_saved = vm_calls;
	bool in_spin;
	int got;

	vm_calls = 16;
	planting = true;
	run_batch(PATH_HYPERCALL, 1, 0, root);
	planting = false;
	vm_calls = vm_calls_saved;
	got = atomic_load(&st->captured);
	rip = st->stuck_rec.regs.rip;
	in_spin = rip >= spin && rip < spin + 64;
	ksft_print_msg("watchdog check: %lu flagged, longest %.1f s; stack %s, trace %s, registers %s (rip %#lx, the spin at %#lx)\n",
		       st->stuck, st->stuck_max_ms / 1000.0,
		       got & 1 ? "yes" : "no", got & 2 ? "yes" : "no",
		       got & 4 ? "yes" : "no", (unsigned long)rip,
		       (unsigned long)spin);
	/*
	 * Its stack shows only if it is caught outside guest mode, and its
	 * trace only if the vCPU exits in those 300 ms (on Bochs, with few
	 * timer interrupts, it may not): neither is required.
	 */
	ksft_test_result(st->stuck == 1 && (got & 4) && in_spin &&
			 !st->batch_timeout,
			 "watchdog: a guest call that spins is flagged after %lu ms, with its registers\n",
			 stuck_ms);
}

int main(void)
{
	unsigned long seed = env_ul("FUZZ_SEED", 1);
	unsigned long calls = env_ul("FUZZ_CALLS", 80 * NR_VCPUS * 64);
	unsigned long cap = env_ul("FUZZ_SECONDS", 120);
	unsigned long batch_calls;
	/* FUZZ_ONLY=hypercall,regs, say: the paths to fuzz (all by default). */
	const char *only = getenv("FUZZ_ONLY");
	char root[] = "/tmp/hc_fuzz.XXXXXX";
	int path;

	vm_calls = env_ul("FUZZ_VM_CALLS", vm_calls) ?: 1;
	signal_us = env_ul("FUZZ_SIGNAL_US", signal_us) ?: 1;
	stuck_ms = env_ul("FUZZ_STUCK_MS", stuck_ms) ?: 1;
	batch_calls = NR_VCPUS * vm_calls;
	ksft_print_header();
	ksft_set_plan(2 * NR_PATHS + 1);
	ksft_print_msg("seed %lu, %lu calls per path (%d vCPUs, vCPU %d at CPL 3), time cap %lu s per path\n",
		       seed, calls, NR_VCPUS, CPL3_VCPU, cap);
	ksft_print_msg("%lu calls per vCPU per VM, a signal to each vCPU thread every %lu us, "
		       "a call without progress for %lu ms fails the run\n",
		       vm_calls, signal_us, stuck_ms);
	ksft_print_msg("reproduce: make test FUZZ_SEED=%lu FUZZ_CALLS=%lu FUZZ_VM_CALLS=%lu FUZZ_SIGNAL_US=%lu (or make fuzz ...)\n",
		       seed, calls, vm_calls, signal_us);
	if (geteuid())
		ksft_exit_skip("needs root: it creates VMs, chroots and drops to uid %d\n",
			       NOBODY);
	stats = map_stats();
	if (!stats || !mkdtemp(root) || chmod(root, 0555))
		ksft_exit_fail_msg("setup: %s\n", strerror(errno));
	kvm_cap = vmm_kvm_cap(KVM_CAP_PV_HOST_SYSCALL);
	policy = hc_policy_load();
	if (path_unavailable(PATH_HYPERCALL))
		ksft_test_result_skip("watchdog: %s\n", path_unavailable(PATH_HYPERCALL));
	else
		watchdog_check(root);
	history_start();

	for (path = 0; path < NR_PATHS; path++) {
		const char *why = path_unavailable(path);

		if (!why && only && !strstr(only, path_name[path]))
			why = "not in FUZZ_ONLY";
		uint64_t s = seed * 0x100000001b3ULL + path;
		double t0 = now();
		char msg[160];
		unsigned long b;

		if (why) {
			ksft_test_result_skip("%s: fuzz: %s\n", path_name[path], why);
			ksft_test_result_skip("%s: fresh VM: %s\n", path_name[path], why);
			continue;
		}
		if (path == PATH_BPF && hc_policy_attach(policy))
			ksft_exit_fail_msg("attaching hc_policy: %s\n", strerror(errno));
		for (b = 0; b * batch_calls < calls; b++) {
			if (now() - t0 > cap) {
				ksft_print_msg("%s: time cap of %lu s reached after %lu batches\n",
					       path_name[path], cap, b);
				break;
			}
			if (path == PATH_BPF)
				set_random_verdicts(&s);
			run_batch(path, rnd_next(&s), b, root);
		}
		ksft_test_result(report(path, now() - t0),
				 "%s: fuzz, seed %lu: every result as documented, no hang\n",
				 path_name[path], seed);
		ksft_test_result(still_answers(path, msg, sizeof(msg)),
				 "%s: a fresh VM still answers through the path (%s)\n",
				 path_name[path], msg);
		if (path == PATH_BPF)
			hc_policy_detach(policy);
	}
	if (policy)
		hc_policy_destroy(policy);
	rmdir(root);
	ksft_finished();
}
