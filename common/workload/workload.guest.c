// SPDX-License-Identifier: GPL-2.0
/*
 * The guest kernel's side of the workload.  Runs in guest ring 0 (and, for
 * MECH_NATIVE, on the host): freestanding, no libc.
 */
#include <asm/unistd.h>
#include <asm/stat.h>
#include <linux/fcntl.h>
#include "kvm_hc_abi.h"
#include "workload.h"

#define UNKNOWN_HC	0x7fff0001UL

static long native_syscall(struct pt_regs *r)
{
	long ret;
	register long r10 asm("r10") = r->r10;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "a"(r->rax), "D"(r->rdi), "S"(r->rsi), "d"(r->rdx),
		       "r"(r10)
		     : "rcx", "r11", "memory");
	return ret;
}

static long sys(struct wl_ctx *c, long nr, long a0, long a1, long a2,
		long a3)
{
	struct pt_regs *r = &c->regs;

	r->rax = nr;
	r->rdi = a0;
	r->rsi = a1;
	r->rdx = a2;
	r->r10 = a3;
	switch (c->mech) {
	case MECH_NATIVE:
	case MECH_PTRACE:	/* the tracer catches the syscall instruction */
	case MECH_PVM_EXEC:	/* process_vm_exec() hands it to the caller */
		return native_syscall(r);
	case MECH_PVM_SYSCALL:	/* the code runs here, the call in the stub */
		c->pvm_syscall(c, r);
		break;
	case MECH_EXIT_PIO:
		/* The VMM knows where our pt_regs are: the port is the call. */
		asm volatile("outl %%eax, %%dx"
			     : : "a"(0), "d"(WL_PORT_SYSCALL) : "memory");
		break;
	default:
		c->last_hc_error = guest_host_syscall(r);
		if (c->last_hc_error) {
			c->hc_errors++;
			return -38;	/* -ENOSYS: the call did not run */
		}
		break;
	}
	return r->rax;
}

static void check(struct wl_ctx *c, int ok)
{
	if (!ok)
		c->errors++;
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

/*
 * The floor each mechanism's cost is measured above: its own exit
 * instruction, with nothing to run.  For exit-pio that is an `out` the VMM
 * answers; for the hypercall mechanisms an unknown hypercall, which KVM
 * answers in the kernel after the same instruction decode (no NRIP save
 * under TCG) that every KVM_HC_HOST_SYSCALL pays.
 */
static void op_bare(struct wl_ctx *c)
{
	if (c->mech == MECH_EXIT_PIO) {
		asm volatile("outl %%eax, %%dx"
			     : : "a"(0), "d"(WL_PORT_BARE) : "memory");
		return;
	}
	check(c, guest_hypercall1(UNKNOWN_HC, 0) == -HC_KVM_ENOSYS);
}

uint64_t wl_guest_run(uint64_t arg)
{
	struct wl_job *job = (struct wl_job *)arg;
	struct wl_ctx *c = job->ctx;
	long i;

	for (i = 0; i < job->iters; i++) {
		switch (job->op) {
		case OP_BARE:
			op_bare(c);
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
		}
	}
	return c->errors + c->hc_errors;
}
