/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest workload every mechanism runs: real system calls issued by
 * guest ring-0 code (or, for the native floor, by the same code on the
 * host), each result checked.
 *
 * The code in workload.guest.c is the guest kernel's side: it builds a
 * pt_regs in shared memory and hands it to the host by the mechanism under
 * test.  workload.c is the VMM's side: VM setup per mechanism, and the
 * exit handlers that run the syscall when the mechanism exits to the VMM.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <asm/ptrace.h>
#include "vmm.h"

enum wl_mech {
	MECH_NATIVE,	/* the syscall on the host, no VM: the physical floor */
	MECH_EXIT_PIO,	/* `out` to the VMM, which runs it (gVisor today) */
	MECH_EXIT_HC,	/* KVM_HC_HOST_SYSCALL forwarded as KVM_EXIT_HYPERCALL */
	MECH_HC,	/* KVM_HC_HOST_SYSCALL run in the kernel */
	MECH_PTRACE,	/* no VM: a stub under PTRACE_SYSEMU, the VMM runs it */
	MECH_BPF,	/* ... decided (and run) by a BPF program, see bpf-variant/ */
	MECH_PVM_EXEC,	/* no VM: the code runs in a stub's mm by process_vm_exec() */
	MECH_PVM_SYSCALL, /* no VM: each syscall run in a stub's mm, see process-vm-exec/ */
	NR_MECHS
};

enum wl_op {
	OP_BARE,	/* the mechanism's bare exit, no syscall: its floor */
	OP_NULL,	/* getppid() */
	OP_PIPE,	/* write 64 bytes to a pipe, read them back */
	OP_PREAD,	/* pread 4 KiB from a file */
	OP_OPEN,	/* open + fstat + close */
	OP_MIXED,	/* one of each of the above, in a row */
	NR_OPS
};

#define WL_PORT_SYSCALL	(VMM_PORT_USER + 0)
/* exit-pio's floor: a PIO exit the VMM answers without running anything. */
#define WL_PORT_BARE	(VMM_PORT_USER + 1)
#define WL_PIPE_BYTES	64
#define WL_PAGE		4096
#define WL_FILE_SIZE	(16 * WL_PAGE)
/* No VM: context, job and (for code run in a stub) a stack, shared. */
#define WL_STACK_SIZE	(64 * 1024)
#define WL_SHARED_SIZE	(sizeof(struct wl_ctx) + sizeof(struct wl_job) + WL_STACK_SIZE)

/* Everything the guest touches lives in the VM's arena (same VA on host). */
struct wl_ctx {
	struct pt_regs regs;		/* the syscall being handed over */
	int mech;
	int pipe_r, pipe_w;
	int file_fd;
	long ppid;			/* what getppid() must return */
	uint64_t seq;			/* varies the pipe payload */
	uint64_t errors;		/* results that did not match */
	uint64_t hc_errors;		/* hypercalls that did not return 0 */
	long last_hc_error;		/* the last such return value */
	/* MECH_PVM_SYSCALL: runs *r in the stub's mm, result in r->rax */
	void (*pvm_syscall)(struct wl_ctx *c, struct pt_regs *r);
	pid_t stub;			/* the process whose mm the code uses */
	char path[64];
	unsigned char out[WL_PIPE_BYTES], in[WL_PIPE_BYTES];
	unsigned char page[WL_PAGE];
	unsigned char stat_buf[256];	/* struct stat of the syscall ABI */
};

struct wl_job {
	struct wl_ctx *ctx;
	int op;
	long iters;
};

/* Guest side (also callable on the host for MECH_NATIVE). */
uint64_t wl_guest_run(uint64_t job);

/* A VM set up for one mechanism. */
struct wl_vm {
	struct vmm vm;
	struct vcpu vcpu;
	struct wl_ctx *ctx;
	struct wl_job *job;
	int mech;
	long exits;			/* syscalls the VMM ran for the guest */
	pid_t stub;			/* MECH_PTRACE, MECH_PVM_*: the stub process */
	void *shared;			/* no VM: ctx, job and stack, shared */
};

/* Mechanisms that run the workload in a VM (the others have no hypercall). */
static inline bool wl_mech_has_vm(int mech)
{
	return mech != MECH_NATIVE && mech != MECH_PTRACE &&
	       mech != MECH_PVM_EXEC && mech != MECH_PVM_SYSCALL;
}

/* Mechanisms whose runner executes each syscall for the code (w->exits). */
static inline bool wl_mech_runs_calls(int mech)
{
	return mech == MECH_EXIT_PIO || mech == MECH_EXIT_HC ||
	       mech == MECH_PTRACE || mech == MECH_PVM_EXEC;
}

extern const char *const wl_mech_names[NR_MECHS];
extern const char *const wl_op_names[NR_OPS];
/* Syscalls one iteration of each op makes. */
extern const int wl_op_calls[NR_OPS];
/* Every syscall number the workload uses, and how many there are. */
extern const unsigned int wl_syscall_nrs[];
extern const unsigned int wl_nr_syscalls;

/* 0, or -1 with errno; *why says what failed. */
int wl_vm_init(struct wl_vm *w, int mech, const char *file, const char **why);
void wl_vm_destroy(struct wl_vm *w);
/* Run op iters times; 0 on success (results checked), -1 otherwise. */
int wl_run(struct wl_vm *w, int op, long iters, char *why, size_t len);
/* Create the data file every mechanism reads. */
int wl_make_file(const char *path);
/* Whether the running kernel offers what a mechanism needs. */
int wl_mech_available(int mech, const char **why);
/*
 * Tests run by `make test` fail on a mechanism that is not available (the
 * series are applied there); --allow-missing, for a kernel without them,
 * makes that a skip.  True if the command line asks for it.
 */
bool wl_allow_missing(int argc, char **argv);
/* A syscall in the kernel's convention: the result or -errno. */
long host_syscall(unsigned long nr, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3, unsigned long a4,
		  unsigned long a5);

/* process_vm_exec() mechanisms (workload_pvm.c). */
int wl_pvm_available(void);
int pvm_start(struct wl_vm *w);
int pvm_run(struct wl_vm *w, char *why, size_t len);

#endif
