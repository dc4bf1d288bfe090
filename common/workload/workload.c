// SPDX-License-Identifier: GPL-2.0
/*
 * The VMM's side of the workload: one VM per mechanism, and the exit
 * handlers that run the guest's syscall on the host for the exit paths.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kvm_hc_abi.h"
#include "workload.h"

const char *const wl_mech_names[NR_MECHS] = {
	[MECH_NATIVE] = "native",
	[MECH_EXIT_PIO] = "exit-pio",
	[MECH_EXIT_HC] = "exit-hypercall",
	[MECH_HC] = "hypercall",
	[MECH_PTRACE] = "ptrace-sysemu",
	[MECH_BPF] = "bpf",
	[MECH_PVM_EXEC] = "pvm-exec",
	[MECH_PVM_SYSCALL] = "pvm-syscall",
};

const char *const wl_op_names[NR_OPS] = {
	[OP_BARE] = "bare-exit",
	[OP_NULL] = "getppid",
	[OP_PIPE] = "pipe-64B",
	[OP_PREAD] = "pread-4K",
	[OP_OPEN] = "open-fstat-close",
	[OP_MIXED] = "mixed",
};

const unsigned int wl_syscall_nrs[] = {
	__NR_getppid, __NR_write, __NR_read, __NR_pread64,
	__NR_open, __NR_fstat, __NR_close,
};
const unsigned int wl_nr_syscalls = sizeof(wl_syscall_nrs) / sizeof(wl_syscall_nrs[0]);

const int wl_op_calls[NR_OPS] = {
	[OP_BARE] = 0, [OP_NULL] = 1, [OP_PIPE] = 2, [OP_PREAD] = 1,
	[OP_OPEN] = 3, [OP_MIXED] = 7,
};

int wl_make_file(const char *path)
{
	unsigned char buf[WL_FILE_SIZE];
	int fd, i;

	for (i = 0; i < WL_FILE_SIZE; i++)
		buf[i] = (unsigned char)(i * 7);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, buf, sizeof(buf)) != sizeof(buf)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static int kvm_cap(long cap)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, KVM_CHECK_EXTENSION, cap);
	close(fd);
	return r;
}

bool wl_allow_missing(int argc, char **argv)
{
	return argc > 1 && !strcmp(argv[1], "--allow-missing");
}

int wl_mech_available(int mech, const char **why)
{
	int cap;

	switch (mech) {
	case MECH_HC:
		*why = "kernel without KVM_CAP_PV_HOST_SYSCALL (hypercall/ series)";
		return kvm_cap(KVM_CAP_PV_HOST_SYSCALL) > 0;
	case MECH_EXIT_HC:
		/* Bit 13 is accepted, not reported: KVM_PV_HOST_SYSCALL_EXIT says. */
		*why = "KVM_CAP_PV_HOST_SYSCALL lacks KVM_PV_HOST_SYSCALL_EXIT (exit-variant/ series)";
		cap = kvm_cap(KVM_CAP_PV_HOST_SYSCALL);
		return cap > 0 && (cap & KVM_PV_HOST_SYSCALL_EXIT);
	case MECH_BPF:
		*why = "needs KVM_CAP_PV_HOST_SYSCALL and the hypercall exit";
		return wl_mech_available(MECH_HC, why) &&
		       wl_mech_available(MECH_EXIT_HC, why);
	case MECH_PVM_EXEC:
	case MECH_PVM_SYSCALL:
		*why = "kernel without process_vm_exec() (process-vm-exec/ series)";
		return wl_pvm_available();
	default:
		return 1;
	}
}

long host_syscall(unsigned long nr, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3, unsigned long a4,
		  unsigned long a5)
{
	long ret = syscall(nr, a0, a1, a2, a3, a4, a5);

	return ret == -1 ? -errno : ret;
}

/* The VMM runs the guest's syscall, as gVisor's Sentry does after an exit. */
static void run_for_guest(struct pt_regs *r)
{
	r->rax = host_syscall(r->rax, r->rdi, r->rsi, r->rdx, r->r10, r->r8, r->r9);
}

static int exit_handler(struct vcpu *v, uint16_t port, void *arg)
{
	struct wl_vm *w = arg;
	struct kvm_run *run = v->run;

	if (run->exit_reason == KVM_EXIT_IO && port == WL_PORT_BARE &&
	    w->mech == MECH_EXIT_PIO)
		return 0;	/* the floor: nothing to run, not a call */
	if (run->exit_reason == KVM_EXIT_IO && port == WL_PORT_SYSCALL &&
	    w->mech == MECH_EXIT_PIO) {
		run_for_guest(&w->ctx->regs);
		w->exits++;
		return 0;
	}
	if (run->exit_reason == KVM_EXIT_HYPERCALL &&
	    run->hypercall.nr == KVM_HC_HOST_SYSCALL &&
	    (w->mech == MECH_EXIT_HC || w->mech == MECH_BPF)) {
		/* Same address space: a0 is a pointer of ours. */
		run_for_guest((struct pt_regs *)run->hypercall.args[0]);
		run->hypercall.ret = 0;
		w->exits++;
		return 0;
	}
	return -1;
}

/*
 * MECH_PTRACE, gVisor's ptrace platform in miniature: a stub process runs
 * the workload with real syscall instructions under PTRACE_SYSEMU; each
 * syscall stops it before it runs, and the tracer runs the call itself
 * (the stub's context is in shared memory at the same address, and the
 * descriptors are inherited) and resumes it with the result.  A syscall
 * with number WL_PTRACE_DONE tells the tracer that a job is finished.
 */
#define WL_PTRACE_DONE	0x7fff0002L

static void ptrace_stub(struct wl_job *job)
{
	/*
	 * Stop with a bare kill(2), not raise(3): raise makes syscalls after
	 * the stop, which PTRACE_SYSEMU would hand to the tracer.
	 */
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) == 0 &&
	    syscall(SYS_kill, syscall(SYS_getpid), SIGSTOP) == 0)
		for (;;) {
			wl_guest_run((uintptr_t)job);
			syscall(WL_PTRACE_DONE);
		}
	_exit(1);
}

static int ptrace_start(struct wl_vm *w)
{
	int status;

	w->stub = fork();
	if (w->stub < 0)
		return -1;
	if (!w->stub)
		ptrace_stub(w->job);
	if (waitpid(w->stub, &status, 0) != w->stub || !WIFSTOPPED(status))
		return -1;
	return ptrace(PTRACE_SETOPTIONS, w->stub, 0, PTRACE_O_EXITKILL);
}

/* Run one job in the stub: 0 when it reported done, -1 otherwise. */
static int ptrace_run(struct wl_vm *w)
{
	struct user_regs_struct regs;
	int status;

	for (;;) {
		if (ptrace(PTRACE_SYSEMU, w->stub, 0, 0) ||
		    waitpid(w->stub, &status, 0) != w->stub ||
		    !WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP ||
		    ptrace(PTRACE_GETREGS, w->stub, 0, &regs))
			return -1;
		if ((long)regs.orig_rax == WL_PTRACE_DONE)
			return 0;
		regs.rax = host_syscall(regs.orig_rax, regs.rdi, regs.rsi, regs.rdx,
					regs.r10, regs.r8, regs.r9);
		w->exits++;
		if (ptrace(PTRACE_SETREGS, w->stub, 0, &regs))
			return -1;
	}
}

/* The VM, vCPU and capabilities a mechanism runs in; undone by wl_vm_destroy(). */
static int setup_vm(struct wl_vm *w, const char **why)
{
	int mech = w->mech;

	*why = "vmm_init";
	if (vmm_init(&w->vm, 4 << 20))
		return -1;
	*why = "vcpu_init";
	if (vcpu_init(&w->vm, &w->vcpu, 0, false))
		return -1;
	if (mech == MECH_HC || mech == MECH_BPF) {
		*why = "KVM_CAP_ENFORCE_PV_FEATURE_CPUID/KVM_CAP_PV_HOST_SYSCALL";
		if (vcpu_enable_cap(&w->vcpu, KVM_CAP_ENFORCE_PV_FEATURE_CPUID, 1) ||
		    vcpu_enable_cap(&w->vcpu, KVM_CAP_PV_HOST_SYSCALL, 1))
			return -1;
	}
	if (mech == MECH_EXIT_HC || mech == MECH_BPF) {
		*why = "KVM_CAP_EXIT_HYPERCALL";
		if (vmm_enable_cap(&w->vm, KVM_CAP_EXIT_HYPERCALL,
				   1 << KVM_HC_HOST_SYSCALL))
			return -1;
	}
	return 0;
}

int wl_vm_init(struct wl_vm *w, int mech, const char *file, const char **why)
{
	struct wl_ctx *c;
	int p[2];

	memset(w, 0, sizeof(*w));
	w->mech = mech;
	if (wl_mech_has_vm(mech) && setup_vm(w, why))
		goto err;
	*why = "workload context";
	if (!wl_mech_has_vm(mech)) {
		/* No VM; shared so that a stub sees it at the same address. */
		w->shared = mmap(NULL, WL_SHARED_SIZE, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (w->shared == MAP_FAILED) {
			w->shared = NULL;
			goto err;
		}
		c = w->ctx = w->shared;
		w->job = (struct wl_job *)(c + 1);
	} else {
		c = w->ctx = vmm_alloc(&w->vm, sizeof(*c));
		w->job = vmm_alloc(&w->vm, sizeof(*w->job));
	}
	if (!c || !w->job)
		goto err;
	c->pipe_r = c->pipe_w = c->file_fd = -1;
	if (pipe(p))
		goto err;
	c->mech = mech;
	c->pipe_r = p[0];
	c->pipe_w = p[1];
	c->ppid = getppid();
	snprintf(c->path, sizeof(c->path), "%s", file);
	c->file_fd = open(file, O_RDONLY | O_CLOEXEC);
	if (c->file_fd < 0)
		goto err;
	*why = "ptrace stub";
	if (mech == MECH_PTRACE && ptrace_start(w))
		goto err;
	*why = "process_vm_exec() stub";
	if ((mech == MECH_PVM_EXEC || mech == MECH_PVM_SYSCALL) && pvm_start(w))
		goto err;
	return 0;
err:
	wl_vm_destroy(w);
	return -1;
}

void wl_vm_destroy(struct wl_vm *w)
{
	int e = errno;

	if (w->ctx) {
		if (w->ctx->pipe_r >= 0)
			close(w->ctx->pipe_r);
		if (w->ctx->pipe_w >= 0)
			close(w->ctx->pipe_w);
		if (w->ctx->file_fd >= 0)
			close(w->ctx->file_fd);
	}
	if (w->stub > 0) {
		kill(w->stub, SIGKILL);
		waitpid(w->stub, NULL, 0);
		w->stub = 0;
	}
	if (wl_mech_has_vm(w->mech)) {
		if (w->vcpu.run)
			vcpu_destroy(&w->vcpu);
		vmm_destroy(&w->vm);
	}
	if (w->shared)
		munmap(w->shared, WL_SHARED_SIZE);
	w->shared = NULL;
	w->ctx = NULL;
	errno = e;
}

int wl_run(struct wl_vm *w, int op, long iters, char *why, size_t len)
{
	struct wl_ctx *c = w->ctx;
	struct vmm_exit e;
	uint64_t errors;

	c->errors = c->hc_errors = 0;
	w->job->ctx = c;
	w->job->op = op;
	w->job->iters = iters;
	if (w->mech == MECH_NATIVE) {
		errors = wl_guest_run((uintptr_t)w->job);
	} else if (w->mech == MECH_PTRACE) {
		if (ptrace_run(w)) {
			snprintf(why, len, "ptrace stub: %s", strerror(errno));
			return -1;
		}
		errors = c->errors + c->hc_errors;
	} else if (w->mech == MECH_PVM_EXEC) {
		if (pvm_run(w, why, len))
			return -1;
		errors = c->errors + c->hc_errors;
	} else if (w->mech == MECH_PVM_SYSCALL) {
		errors = wl_guest_run((uintptr_t)w->job);
	} else {
		if (vcpu_call(&w->vcpu, wl_guest_run, (uintptr_t)w->job,
			      exit_handler, w, &e)) {
			vmm_exit_str(&e, why, len);
			return -1;
		}
		errors = e.rax;
	}
	if (errors) {
		snprintf(why, len, "%llu wrong results, %llu failed hypercalls (last: %ld)",
			 (unsigned long long)c->errors,
			 (unsigned long long)c->hc_errors, c->last_hc_error);
		return -1;
	}
	return 0;
}
