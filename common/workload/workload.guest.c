// SPDX-License-Identifier: GPL-2.0
/*
 * The code's side of the workload.  Runs in guest ring 0 (and, for the
 * mechanisms without a VM, in a process): freestanding, no libc.  How a
 * call reaches the host is the mechanism's hook, c->call; the hooks of the
 * mechanisms that share an instruction are here.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <linux/fcntl.h>
#include "kvm_hc_abi.h"
#include "workload.h"

#define UNKNOWN_HC	0x7fff0001UL
#define ENOSYS		38
#define EFAULT		14

/* The instruction itself: native, or caught by ptrace, SUD, seccomp... */
long wl_call_syscall(struct wl_ctx *c, struct pt_regs *r)
{
	long ret;
	register long r10 asm("r10") = r->r10;
	register long r8 asm("r8") = r->r8;
	register long r9 asm("r9") = r->r9;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "a"(r->rax), "D"(r->rdi), "S"(r->rsi), "d"(r->rdx),
		       "r"(r10), "r"(r8), "r"(r9)
		     : "rcx", "r11", "memory");
	return ret;
}

/* exit-pio: the VMM knows where our pt_regs are, the port is the call. */
long wl_call_pio(struct wl_ctx *c, struct pt_regs *r)
{
	asm volatile("outl %%eax, %%dx"
		     : : "a"(0), "d"(WL_PORT_SYSCALL) : "memory");
	return r->rax;
}

/* KVM_HC_HOST_SYSCALL, run in the kernel or forwarded to the VMM. */
long wl_call_hypercall(struct wl_ctx *c, struct pt_regs *r)
{
	c->last_hc_error = guest_host_syscall(r);
	if (c->last_hc_error) {
		c->hc_errors++;
		return -ENOSYS;	/* the call did not run */
	}
	return r->rax;
}

/* KVM_HC_HOST_SYSCALL_REGS: the same call, in registers. */
long wl_call_hypercall_regs(struct wl_ctx *c, struct pt_regs *r)
{
	long res;

	c->last_hc_error = guest_host_syscall_regs(r->rax, r->rdi, r->rsi, r->rdx,
						   r->r10, r->r8, r->r9, &res);
	if (c->last_hc_error) {
		c->hc_errors++;
		return -ENOSYS;	/* the call did not run */
	}
	return res;
}

/*
 * The floor each VM mechanism's cost is measured above: its own exit
 * instruction, with nothing to run.  For exit-pio that is an `out` the VMM
 * answers; for the hypercall mechanisms an unknown hypercall, which KVM
 * answers in the kernel after the same instruction decode (no NRIP save
 * under TCG) that every KVM_HC_HOST_SYSCALL pays.
 */
void wl_bare_pio(struct wl_ctx *c)
{
	asm volatile("outl %%eax, %%dx"
		     : : "a"(0), "d"(WL_PORT_BARE) : "memory");
}

static void check(struct wl_ctx *c, int ok)
{
	if (!ok)
		c->errors++;
}

void wl_bare_hypercall(struct wl_ctx *c)
{
	check(c, guest_hypercall1(UNKNOWN_HC, 0) == -HC_KVM_ENOSYS);
}

static long sys6(struct wl_ctx *c, long nr, long a0, long a1, long a2,
		 long a3, long a4, long a5)
{
	struct pt_regs *r = &c->regs;

	r->rax = nr;
	r->rdi = a0;
	r->rsi = a1;
	r->rdx = a2;
	r->r10 = a3;
	r->r8 = a4;
	r->r9 = a5;
	return c->call(c, r);
}

static long sys(struct wl_ctx *c, long nr, long a0, long a1, long a2,
		long a3)
{
	return sys6(c, nr, a0, a1, a2, a3, 0, 0);
}

static void op_null(struct wl_ctx *c)
{
	check(c, sys(c, __NR_getppid, 0, 0, 0, 0) == c->ppid);
}

static void op_pipe(struct wl_ctx *c)
{
	int i, same = 1;

	c->seq++;
	for (i = 0; i < WL_PIPE_BYTES; i++)
		c->out[i] = (unsigned char)(c->seq + i);
	check(c, sys(c, __NR_write, c->pipe_w, (long)c->out, WL_PIPE_BYTES, 0) ==
		 WL_PIPE_BYTES);
	check(c, sys(c, __NR_read, c->pipe_r, (long)c->in, WL_PIPE_BYTES, 0) ==
		 WL_PIPE_BYTES);
	for (i = 0; i < WL_PIPE_BYTES; i++)
		same &= c->in[i] == c->out[i];
	check(c, same);
}

/* The data file holds byte (offset * 7) & 0xff at each offset. */
static void op_pread(struct wl_ctx *c)
{
	long off = (long)(c->seq++ % (WL_FILE_SIZE / WL_PAGE)) * WL_PAGE;

	c->page[0] = c->page[WL_PAGE - 1] = 0x5a;
	check(c, sys(c, __NR_pread64, c->file_fd, (long)c->page, WL_PAGE, off) ==
		 WL_PAGE);
	check(c, c->page[0] == (unsigned char)(off * 7) &&
		 c->page[WL_PAGE - 1] == (unsigned char)((off + WL_PAGE - 1) * 7));
}

static void op_open(struct wl_ctx *c)
{
	struct stat *st = (struct stat *)c->stat_buf;
	long fd = sys(c, __NR_open, (long)c->path, O_RDONLY, 0, 0);

	check(c, fd >= 0);
	st->st_size = 0;
	check(c, sys(c, __NR_fstat, fd, (long)st, 0, 0) == 0 &&
		 st->st_size == WL_FILE_SIZE);
	check(c, sys(c, __NR_close, fd, 0, 0, 0) == 0);
}

static void rr_fail(struct wl_ctx *c, int step, long ret)
{
	c->errors++;
	c->rr_fail_seq = c->rr_seq;
	c->rr_fail_step = step;
	c->rr_fail_ret = ret;
	c->stop = 1;	/* a lost or wrong reply ends the run, never a retry */
}

/*
 * One UDP_RR transaction, as netperf makes it: sendto() the request on the
 * connected socket, recvfrom() the reply, which the echo server returns
 * as it came: byte i is (seq + i) & 0xff, so a 1-byte reply carries the
 * low byte of the sequence number and a longer one all of it.
 */
static void op_udp_rr(struct wl_ctx *c, unsigned int size)
{
	unsigned int i;
	long r;

	c->rr_seq++;
	for (i = 0; i < size; i++)
		c->rr_out[i] = (unsigned char)(c->rr_seq + i);
	if (size >= 8)
		*(uint64_t *)c->rr_out = c->rr_seq;
	r = sys6(c, __NR_sendto, c->sock_fd, (long)c->rr_out, size, 0, 0, 0);
	if (r != (long)size) {
		rr_fail(c, 0, r);
		return;
	}
	r = sys6(c, __NR_recvfrom, c->sock_fd, (long)c->rr_in, WL_RR_MAX, 0, 0, 0);
	if (r != (long)size) {
		rr_fail(c, 1, r);
		return;
	}
	for (i = 0; i < size; i++)
		if (c->rr_in[i] != c->rr_out[i]) {
			rr_fail(c, 2, r);
			return;
		}
}

/*
 * Defined errors through the mechanism: an unknown number is -ENOSYS, a
 * buffer nobody maps is -EFAULT, and the file is left as it was.
 */
static void op_bad(struct wl_ctx *c)
{
	check(c, sys(c, WL_NR_UNKNOWN, 0, 0, 0, 0) == -ENOSYS);
	check(c, sys(c, __NR_pread64, c->file_fd, WL_BAD_PTR, WL_PAGE, 0) ==
		 -EFAULT);
	check(c, sys(c, __NR_write, c->pipe_w, WL_BAD_PTR, WL_PIPE_BYTES, 0) ==
		 -EFAULT);
}

uint64_t wl_guest_run(uint64_t arg)
{
	struct wl_job *job = (struct wl_job *)arg;
	struct wl_ctx *c = job->ctx;
	long i;

	if (job->program)
		return job->program(job->program_arg);
	for (i = 0; i < job->iters && !c->stop; i++) {
		switch (job->op) {
		case OP_BARE:
			c->bare(c);
			break;
		case OP_NULL:
			op_null(c);
			break;
		case OP_PIPE:
			op_pipe(c);
			break;
		case OP_PREAD:
			op_pread(c);
			break;
		case OP_OPEN:
			op_open(c);
			break;
		case OP_MIXED:
			op_null(c);
			op_pipe(c);
			op_pread(c);
			op_open(c);
			break;
		case OP_UDP_RR:
			op_udp_rr(c, c->rr_size);
			break;
		case OP_UDP_RR_1K:
			op_udp_rr(c, WL_RR_MAX);
			break;
		case OP_BAD:
			op_bad(c);
			break;
		}
	}
	return c->errors + c->hc_errors;
}
