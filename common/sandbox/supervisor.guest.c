// SPDX-License-Identifier: GPL-2.0
/*
 * The sandbox's supervisor.  Every system call of the program comes here,
 * wherever the mechanism caught it: guest ring 0 (the VM mechanisms), a
 * tracer, a seccomp supervisor or process_vm_exec()'s caller (the others).
 * Freestanding, no libc: the same code runs in all of those places.
 *
 * Three kinds of call:
 * - run here: what acts on the program's memory (brk, mmap and its
 *   family, in memory that the sandbox maps everywhere already, handed
 *   out by the page), on its thread (arch_prctl, set_tid_address, rseq,
 *   the robust list), on its signal state (dispositions and mask are
 *   recorded, no signal is ever delivered), its end (exit, exit_group, a
 *   signal it sends itself), and the few facts of the process that only
 *   the sandbox knows (/proc/self/exe, the working directory, rlimits,
 *   the process name); and the few calls that have an equivalent in the
 *   forwarded set (readlink, access, time: readlinkat, faccessat,
 *   clock_gettime);
 * - forwarded as they are through the mechanism: the calls every
 *   mechanism can run, which are those of the hypercall's allow-list
 *   (arch/x86/kvm/host_syscall.c), so that a program does the same under
 *   each mechanism or fails the same way;
 * - refused: every other call.  The program ends there, and the sandbox
 *   names the call and its pc; it never gets an error it would not get
 *   natively, and nothing runs half.
 */
#include <asm/unistd.h>
#include <asm/prctl.h>
#include <linux/errno.h>
#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/prctl.h>
#include "sandbox.h"

#define SIG_DFL		0
#define SIG_IGN		1
#define SIGKILL		9
#define SIGSTOP		19
#define SIGCHLD		17
#define SIGCONT		18
#define SIGURG		23
#define SIGWINCH	28
#define SS_DISABLE	2
#define NR_SIGNALS	64
#define PAGES(len)	(((len) + SB_PAGE - 1) / SB_PAGE)

static void sb_zero(uint64_t addr, uint64_t len)
{
	asm volatile("rep stosb" : "+D"(addr), "+c"(len) : "a"(0) : "memory");
}

static void sb_copy(uint64_t dst, const void *src, uint64_t len)
{
	asm volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(len) : : "memory");
}

static uint64_t sb_strlen(const char *p)
{
	uint64_t n = 0;

	while (p[n])
		n++;
	return n;
}

/* Is [p, p + len) program memory?  The supervisor touches nothing else. */
static int user_ok(const struct sb_state *s, uint64_t p, uint64_t len)
{
	uint64_t end = p + len;

	if (end < p)
		return 0;
	return (p >= s->image && end <= s->brk_end) ||
	       (p >= s->stack && end <= s->stack + SB_STACK_SIZE) ||
	       (p >= s->arena && end <= s->arena + SB_ARENA_SIZE);
}

/* A NUL-terminated string of the program's, compared with @want. */
static int user_str_is(const struct sb_state *s, uint64_t p, const char *want)
{
	uint64_t i;

	for (i = 0; ; i++) {
		if (!user_ok(s, p + i, 1))
			return 0;
		if (((const char *)p)[i] != want[i])
			return 0;
		if (!want[i])
			return 1;
	}
}

static long copy_out(const struct sb_state *s, uint64_t dst, const void *src,
		     uint64_t len)
{
	if (!user_ok(s, dst, len))
		return -EFAULT;
	sb_copy(dst, src, len);
	return 0;
}

/* End the program at this call: it is one the sandbox does not run. */
static long refuse(struct sb_state *s, const struct pt_regs *r)
{
	s->end = SB_REFUSED;
	s->refused_nr = r->orig_rax;
	s->refused_pc = r->rip;
	return -ENOSYS;
}

/* ---- memory: the brk heap and the mmap arena ---- */

static int page_used(const struct sb_state *s, uint64_t pg)
{
	return s->arena_used[pg / 8] & (1 << (pg % 8));
}

static void mark(struct sb_state *s, uint64_t pg, uint64_t n, int used)
{
	for (; n; pg++, n--) {
		if (used)
			s->arena_used[pg / 8] |= 1 << (pg % 8);
		else
			s->arena_used[pg / 8] &= ~(1 << (pg % 8));
	}
}

static int range_free(const struct sb_state *s, uint64_t pg, uint64_t n)
{
	if (pg + n > SB_ARENA_PAGES || pg + n < pg)
		return 0;
	for (; n; pg++, n--)
		if (page_used(s, pg))
			return 0;
	return 1;
}

/* The first run of @n free pages of the arena, or -1. */
static long find_free(const struct sb_state *s, uint64_t n)
{
	uint64_t pg = 0, run = 0;

	for (; pg < SB_ARENA_PAGES; pg++) {
		if (!(pg % 8) && s->arena_used[pg / 8] == 0xff) {
			run = 0;
			pg += 7;
			continue;
		}
		run = page_used(s, pg) ? 0 : run + 1;
		if (run == n)
			return pg + 1 - n;
	}
	return -1;
}

/* Pages of the arena for [addr, addr + len): 0, or -1 if it is not in it. */
static long arena_pages(const struct sb_state *s, uint64_t addr, uint64_t len,
			uint64_t *pg, uint64_t *n)
{
	if (addr < s->arena || (addr & (SB_PAGE - 1)) || !len ||
	    !user_ok(s, addr, len) || addr + len > s->arena + SB_ARENA_SIZE)
		return -1;
	*pg = (addr - s->arena) / SB_PAGE;
	*n = PAGES(len);
	return 0;
}

static uint64_t arena_addr(const struct sb_state *s, uint64_t pg)
{
	return s->arena + pg * SB_PAGE;
}

/* Hand out pages: zeroed, as fresh anonymous memory is. */
static void take(struct sb_state *s, uint64_t pg, uint64_t n)
{
	mark(s, pg, n, 1);
	sb_zero(arena_addr(s, pg), n * SB_PAGE);
}

static long forward(struct sb_state *s, struct pt_regs *r);

static long sys_mmap(struct sb_state *s, struct pt_regs *r)
{
	uint64_t addr = r->rdi, len = r->rsi, flags = r->r10, off = r->r9;
	uint64_t n = PAGES(len), pg;
	int anon = flags & MAP_ANONYMOUS;
	long at;

	if (!len || n > SB_ARENA_PAGES || (off & (SB_PAGE - 1)))
		return -EINVAL;
	/* A shared mapping of a file would need the file's page cache. */
	if (!anon && (flags & MAP_TYPE) != MAP_PRIVATE)
		return refuse(s, r);
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (arena_pages(s, addr, len, &pg, &n))
			return refuse(s, r);	/* outside what the sandbox maps */
		if ((flags & MAP_FIXED_NOREPLACE) && !range_free(s, pg, n))
			return -EEXIST;
		at = pg;
	} else {
		at = find_free(s, n);
		if (at < 0)
			return -ENOMEM;
	}
	take(s, at, n);
	if (!anon) {
		/* A private file mapping is a copy of the file. */
		struct pt_regs p = *r;
		long got;

		p.orig_rax = p.rax = __NR_pread64;
		p.rdi = (int)r->r8;
		p.rsi = arena_addr(s, at);
		p.rdx = len;
		p.r10 = off;
		got = forward(s, &p);
		if (got < 0) {
			mark(s, at, n, 0);
			return got;
		}
	}
	return arena_addr(s, at);
}

static long sys_munmap(struct sb_state *s, struct pt_regs *r)
{
	uint64_t pg, n;

	if (r->rdi & (SB_PAGE - 1) || !r->rsi)
		return -EINVAL;
	if (!arena_pages(s, r->rdi, r->rsi, &pg, &n))
		mark(s, pg, n, 0);
	return 0;	/* elsewhere: the memory stays, as if unmapped */
}

static long sys_madvise(struct sb_state *s, struct pt_regs *r)
{
	uint64_t pg, n;

	/* Private anonymous memory reads as zeroes after MADV_DONTNEED. */
	if (r->rdx == MADV_DONTNEED && !arena_pages(s, r->rdi, r->rsi, &pg, &n))
		sb_zero(arena_addr(s, pg), n * SB_PAGE);
	return 0;
}

static long sys_mremap(struct sb_state *s, struct pt_regs *r)
{
	uint64_t old = r->rdi, flags = r->r10, pg, n_old, n_new = PAGES(r->rdx);
	long to;

	if (flags & ~MREMAP_MAYMOVE)
		return refuse(s, r);	/* MREMAP_FIXED, MREMAP_DONTUNMAP */
	if (!r->rdx || arena_pages(s, old, r->rsi, &pg, &n_old))
		return -EINVAL;
	if (n_new <= n_old) {
		mark(s, pg + n_new, n_old - n_new, 0);
		return old;
	}
	if (range_free(s, pg + n_old, n_new - n_old)) {
		take(s, pg + n_old, n_new - n_old);
		return old;
	}
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	to = find_free(s, n_new);
	if (to < 0)
		return -ENOMEM;
	take(s, to, n_new);
	sb_copy(arena_addr(s, to), (const void *)old, n_old * SB_PAGE);
	mark(s, pg, n_old, 0);
	return arena_addr(s, to);
}

static long sys_brk(struct sb_state *s, struct pt_regs *r)
{
	uint64_t want = r->rdi;

	if (want < s->brk_start || want > s->brk_end)
		return s->brk;		/* how brk() says no */
	if (want < s->brk)
		sb_zero(want, s->brk - want);	/* grows back as zeroes */
	s->brk = want;
	return want;
}

/* ---- signals: recorded, never delivered ---- */

static long sys_rt_sigaction(struct sb_state *s, struct pt_regs *r)
{
	uint64_t sig = r->rdi, act = r->rsi, oact = r->rdx;
	struct sb_sigaction *a;

	if (r->r10 != 8 || sig < 1 || sig > NR_SIGNALS)
		return -EINVAL;
	a = &s->act[sig - 1];
	if (act && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	if (act && !user_ok(s, act, sizeof(*a)))
		return -EFAULT;
	if (oact && copy_out(s, oact, a, sizeof(*a)))
		return -EFAULT;
	if (act)
		sb_copy((uint64_t)a, (const void *)act, sizeof(*a));
	return 0;
}

static long sys_rt_sigprocmask(struct sb_state *s, struct pt_regs *r)
{
	uint64_t how = r->rdi, set = r->rsi, oset = r->rdx, mask;

	if (r->r10 != 8)
		return -EINVAL;
	if (set && !user_ok(s, set, 8))
		return -EFAULT;
	if (oset && copy_out(s, oset, &s->sigmask, 8))
		return -EFAULT;
	if (!set)
		return 0;
	mask = *(uint64_t *)set & ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	switch (how) {
	case 0:	/* SIG_BLOCK */
		s->sigmask |= mask;
		break;
	case 1:	/* SIG_UNBLOCK */
		s->sigmask &= ~mask;
		break;
	case 2:	/* SIG_SETMASK */
		s->sigmask = mask;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static long sys_sigaltstack(struct sb_state *s, struct pt_regs *r)
{
	uint64_t none[3] = { 0, SS_DISABLE, 0 };	/* sp, flags, size */

	if (r->rsi && copy_out(s, r->rsi, none, sizeof(none)))
		return -EFAULT;
	return 0;
}

/*
 * A signal the program sends itself (abort() does): its default action,
 * which ends it or does nothing; a handler would need a signal frame.
 */
static long self_signal(struct sb_state *s, struct pt_regs *r, uint64_t sig)
{
	uint64_t h;

	if (!sig)
		return 0;
	if (sig > NR_SIGNALS)
		return -EINVAL;
	h = s->act[sig - 1].handler;
	if (sig != SIGKILL && sig != SIGSTOP) {
		if (s->sigmask & (1ULL << (sig - 1)))
			return 0;	/* pending for ever: it is never delivered */
		if (h == SIG_IGN)
			return 0;
		if (h != SIG_DFL)
			return refuse(s, r);
	}
	if (sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH)
		return 0;
	s->end = SB_KILLED;
	s->signal = sig;
	return 0;
}

/* ---- what every mechanism can forward ---- */

/*
 * The hypercall's allow-list (kvm_host_syscall_allowed()), less what the
 * supervisor runs itself: a call forwarded under one mechanism is
 * forwarded under all of them.
 */
static int forwarded_as_is(const struct pt_regs *r)
{
	switch (r->rax) {
	case __NR_read: case __NR_write: case __NR_pread64: case __NR_pwrite64:
	case __NR_readv: case __NR_writev: case __NR_preadv: case __NR_pwritev:
	case __NR_preadv2: case __NR_pwritev2: case __NR_lseek:
	case __NR_sendfile: case __NR_splice: case __NR_tee:
	case __NR_fsync: case __NR_fdatasync: case __NR_ftruncate:
	case __NR_fallocate: case __NR_sync_file_range: case __NR_fcntl:
	case __NR_open: case __NR_openat: case __NR_dup:
	case __NR_pipe: case __NR_pipe2: case __NR_eventfd2: case __NR_memfd_create:
	case __NR_fstat: case __NR_stat: case __NR_lstat: case __NR_newfstatat:
	case __NR_statx: case __NR_fstatfs: case __NR_statfs:
	case __NR_getdents64: case __NR_readlinkat: case __NR_faccessat:
	case __NR_mkdir: case __NR_mkdirat: case __NR_rmdir: case __NR_unlink:
	case __NR_unlinkat: case __NR_renameat2: case __NR_fchmod:
	case __NR_fchown: case __NR_utimensat:
	case __NR_msync: case __NR_mincore:
	case __NR_futex: case __NR_nanosleep: case __NR_clock_nanosleep:
	case __NR_clock_gettime: case __NR_gettimeofday: case __NR_sched_yield:
	case __NR_poll: case __NR_epoll_create1: case __NR_epoll_ctl:
	case __NR_epoll_wait: case __NR_timerfd_create:
	case __NR_timerfd_settime: case __NR_timerfd_gettime:
	case __NR_socket: case __NR_socketpair: case __NR_connect: case __NR_bind:
	case __NR_listen: case __NR_accept: case __NR_accept4:
	case __NR_sendto: case __NR_recvfrom: case __NR_sendmsg:
	case __NR_recvmsg: case __NR_sendmmsg: case __NR_recvmmsg:
	case __NR_shutdown: case __NR_getsockname: case __NR_getpeername:
	case __NR_setsockopt: case __NR_getsockopt:
	case __NR_getpid: case __NR_getppid: case __NR_gettid: case __NR_getuid:
	case __NR_geteuid: case __NR_getgid: case __NR_getegid: case __NR_uname:
	case __NR_getrandom:
		return 1;
	case __NR_ppoll:
		return !r->r10;		/* no signal mask */
	case __NR_epoll_pwait:
	case __NR_epoll_pwait2:
		return !r->r8;
	}
	return 0;
}

static long forward(struct sb_state *s, struct pt_regs *r)
{
	s->forwarded++;
	return s->forward(s->forward_ctx, r);
}

/* The same call under another number (an *at() form), forwarded. */
static long forward_as(struct sb_state *s, const struct pt_regs *r, long nr,
		       uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	struct pt_regs p = *r;

	p.orig_rax = p.rax = nr;
	p.rdi = a0;
	p.rsi = a1;
	p.rdx = a2;
	p.r10 = a3;
	return forward(s, &p);
}

/* One of the sandbox's own descriptors: never the program's to change. */
static int sandbox_fd(uint64_t fd)
{
	return (int)fd >= SB_FD_LIMIT;
}

static long sys_readlink(struct sb_state *s, struct pt_regs *r)
{
	uint64_t n;

	if (!user_str_is(s, r->rdi, "/proc/self/exe"))
		return forward_as(s, r, __NR_readlinkat, AT_FDCWD, r->rdi,
				  r->rsi, r->rdx);
	n = sb_strlen(s->exe);
	if (n > r->rdx)
		n = r->rdx;
	return copy_out(s, r->rsi, s->exe, n) ?: (long)n;
}

static long sys_prlimit(struct sb_state *s, uint64_t pid, uint64_t res,
			uint64_t new, uint64_t old)
{
	if (pid && pid != s->pid)
		return -EPERM;
	if (res >= SB_NR_RLIMITS)
		return -EINVAL;
	if (new)
		return -EPERM;
	return old ? copy_out(s, old, &s->rlim[res], sizeof(s->rlim[res])) : 0;
}

static long sys_prctl(struct sb_state *s, struct pt_regs *r)
{
	switch (r->rdi) {
	case PR_GET_NAME:
		return copy_out(s, r->rsi, s->comm, sizeof(s->comm));
	case PR_SET_NAME:
		if (!user_ok(s, r->rsi, sizeof(s->comm)))
			return -EFAULT;
		sb_copy((uint64_t)s->comm, (const void *)r->rsi, sizeof(s->comm) - 1);
		return 0;
	}
	return refuse(s, r);
}

static long sys_getcwd(struct sb_state *s, struct pt_regs *r)
{
	uint64_t n = sb_strlen(s->cwd) + 1;

	if (r->rsi < n)
		return -ERANGE;
	return copy_out(s, r->rdi, s->cwd, n) ?: (long)n;
}

/* time(): what a vDSO would answer, from clock_gettime(CLOCK_REALTIME). */
static long sys_time(struct sb_state *s, struct pt_regs *r)
{
	long ret = forward_as(s, r, __NR_clock_gettime, 0, (uint64_t)s->scratch, 0, 0);

	if (ret)
		return ret;
	if (r->rdi && copy_out(s, r->rdi, &s->scratch[0], 8))
		return -EFAULT;
	return s->scratch[0];
}

static long sys_arch_prctl(struct sb_state *s, struct pt_regs *r)
{
	switch (r->rdi) {
	case ARCH_SET_FS:
		s->fs_base = r->rsi;
		s->fs_set = 1;
		return 0;
	case ARCH_GET_FS:
		return copy_out(s, r->rsi, &s->fs_base, 8);
	}
	return refuse(s, r);	/* GS, CPUID faulting, shadow stacks... */
}

static long dispatch(struct sb_state *s, struct pt_regs *r)
{
	switch (r->rax) {
	case __NR_brk:
		return sys_brk(s, r);
	case __NR_mmap:
		return sys_mmap(s, r);
	case __NR_munmap:
		return sys_munmap(s, r);
	case __NR_mprotect:
		return 0;	/* protections are not enforced (README) */
	case __NR_madvise:
		return sys_madvise(s, r);
	case __NR_mremap:
		return sys_mremap(s, r);
	case __NR_arch_prctl:
		return sys_arch_prctl(s, r);
	case __NR_set_tid_address:
		return forward_as(s, r, __NR_gettid, 0, 0, 0, 0);
	case __NR_set_robust_list:
		return 0;	/* one thread: nobody to wake at its death */
	case __NR_rseq:
		return -ENOSYS;	/* the C library runs without it */
	case __NR_rt_sigaction:
		return sys_rt_sigaction(s, r);
	case __NR_rt_sigprocmask:
		return sys_rt_sigprocmask(s, r);
	case __NR_sigaltstack:
		return sys_sigaltstack(s, r);
	case __NR_tgkill:
		if (r->rdi != s->pid)
			return forward(s, r);
		return self_signal(s, r, r->rdx);
	case __NR_tkill:
		return self_signal(s, r, r->rsi);
	case __NR_kill:
		if (r->rdi && r->rdi != s->pid)
			return refuse(s, r);
		return self_signal(s, r, r->rsi);
	case __NR_exit:
	case __NR_exit_group:
		s->end = SB_EXITED;
		s->exit_status = r->rdi & 0xff;
		return 0;
	case __NR_readlink:
		return sys_readlink(s, r);
	case __NR_access:
		return forward_as(s, r, __NR_faccessat, AT_FDCWD, r->rdi, r->rsi, 0);
	case __NR_getcwd:
		return sys_getcwd(s, r);
	case __NR_time:
		return sys_time(s, r);
	case __NR_prlimit64:
		return sys_prlimit(s, r->rdi, r->rsi, r->rdx, r->r10);
	case __NR_getrlimit:
		return sys_prlimit(s, 0, r->rdi, 0, r->rsi);
	case __NR_prctl:
		return sys_prctl(s, r);
	case __NR_close:
	case __NR_ioctl:
		return sandbox_fd(r->rdi) ? -EBADF : forward(s, r);
	case __NR_dup2:
	case __NR_dup3:
		return sandbox_fd(r->rsi) ? -EBADF : forward(s, r);
	}
	if (forwarded_as_is(r))
		return forward(s, r);
	return refuse(s, r);
}

void sb_syscall(struct sb_state *s, struct pt_regs *r)
{
	uint64_t before = s->forwarded;

	r->orig_rax = r->rax;
	s->calls[r->rax < SB_NR_MAX ? r->rax : SB_NR_MAX]++;
	r->rax = dispatch(s, r);
	if (s->forwarded == before)
		s->handled++;
}
