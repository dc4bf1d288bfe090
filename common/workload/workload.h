/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest workload every mechanism runs: real system calls issued by
 * guest ring-0 code (or, for the mechanisms without a VM, by the same code
 * in a process), each result checked.
 *
 * workload.guest.c is the code's side: it fills a pt_regs in shared memory
 * and hands it over through the mechanism's call hook (wl_ctx.call).
 * A mechanism is one file in mech/ with one struct wl_mech (its ops), and
 * every mechanism is in the list of mechs.c; the tests, the bench and the
 * report iterate over that list and never name a mechanism.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <asm/ptrace.h>
#include "vmm.h"

enum wl_op {
	OP_BARE,	/* the mechanism's bare exit, no syscall: its floor */
	OP_NULL,	/* getppid() */
	OP_PIPE,	/* write 64 bytes to a pipe, read them back */
	OP_PREAD,	/* pread 4 KiB from a file */
	OP_OPEN,	/* open + fstat + close */
	OP_MIXED,	/* one of each of the above, in a row */
	NR_OPS,		/* the micro-ops */
	/*
	 * netperf's UDP_RR: one request, one reply (sendto + recvfrom) to an
	 * echo server on the loopback (wl_udp_start()), payload wl_udp.size,
	 * or 1 KiB; the reply must carry the request's sequence number.
	 */
	OP_UDP_RR = NR_OPS,
	OP_UDP_RR_1K,
	NR_BENCH_OPS,
	/*
	 * Tests only, not benched: an unknown syscall number must give
	 * -ENOSYS and a bad buffer -EFAULT, through every mechanism.
	 */
	OP_BAD = NR_BENCH_OPS,
	NR_ALL_OPS
};

#define WL_RR_MAX	1024		/* the 1 KiB point's payload */

/* The unknown syscall number OP_BAD makes (no mechanism uses it). */
#define WL_NR_UNKNOWN	0x7fff0ff0L
/* A buffer address mapped in no process of the workload, nor the guest. */
#define WL_BAD_PTR	0x1000UL

/* Ports of the exit mechanisms; ports from WL_PORT_MECH are theirs. */
#define WL_PORT_SYSCALL	(VMM_PORT_USER + 0)
/* exit-pio's floor: a PIO exit the VMM answers without running anything. */
#define WL_PORT_BARE	(VMM_PORT_USER + 1)
#define WL_PORT_MECH	(VMM_PORT_USER + 2)
#define WL_PIPE_BYTES	64
#define WL_PAGE		4096
#define WL_FILE_SIZE	(16 * WL_PAGE)
/* No VM: context, job and (for code run in a stub) a stack, shared. */
#define WL_STACK_SIZE	(64 * 1024)
#define WL_SHARED_SIZE	(sizeof(struct wl_ctx) + sizeof(struct wl_job) + WL_STACK_SIZE)

struct wl_ctx;

/*
 * How the code hands the call in c->regs over and gets its result back:
 * the syscall's return value (or -ENOSYS when the mechanism refused to run
 * it, counted in hc_errors).  Code run in a VM calls it in guest ring 0, so
 * a VM mechanism's hook is built with GUEST_CFLAGS (a *.guest.c file).
 */
typedef long (*wl_call_fn)(struct wl_ctx *c, struct pt_regs *r);
/* The mechanism's floor: its exit with nothing to run (VM mechanisms). */
typedef void (*wl_bare_fn)(struct wl_ctx *c);

/* Everything the code touches lives in the VM's arena (same VA on host). */
struct wl_ctx {
	struct pt_regs regs;		/* the syscall being handed over */
	wl_call_fn call;
	wl_bare_fn bare;		/* NULL: no floor (no VM) */
	void *mech_data;		/* the mechanism's, for its call hook */
	int pipe_r, pipe_w;
	int file_fd;
	long ppid;			/* what getppid() must return */
	uint64_t seq;			/* varies the pipe payload */
	uint64_t errors;		/* results that did not match */
	uint64_t hc_errors;		/* calls the mechanism refused to run */
	long last_hc_error;		/* the mechanism's last refusal */
	int stop;			/* set by a hook: no call can run any more */
	/*
	 * The mechanisms whose runner runs the code's calls (runs_calls) hand
	 * each to wl_serve(): the host runs it, unless serve is set (the
	 * sandbox's supervisor, common/sandbox).  A served call may end the
	 * job (stop), or give the code's thread a new FS base, which the
	 * mechanism applies before the code runs on.
	 */
	long (*serve)(struct wl_ctx *c, struct pt_regs *r);
	void *serve_arg;
	uint64_t fs_base;
	int fs_base_set;
	/*
	 * The code stopped on a fault (a signal in a stub, an exception in
	 * the guest): the signal it stands for, where, and the address.
	 */
	int fault_signal;
	uint64_t fault_pc, fault_addr;
	/* udp-rr: a socket connected to the echo server, -1 without one */
	int sock_fd;
	unsigned int rr_size;		/* OP_UDP_RR's payload */
	uint64_t rr_seq;		/* transactions made */
	uint64_t rr_fail_seq;		/* the first that failed, 0 if none */
	long rr_fail_ret;		/* what its call returned */
	int rr_fail_step;		/* 0 send, 1 receive, 2 wrong reply */
	unsigned char rr_out[WL_RR_MAX], rr_in[WL_RR_MAX];
	char path[64];
	unsigned char out[WL_PIPE_BYTES], in[WL_PIPE_BYTES];
	unsigned char page[WL_PAGE];
	unsigned char stat_buf[256];	/* struct stat of the syscall ABI */
};

struct wl_job {
	struct wl_ctx *ctx;
	int op;
	long iters;
	/* Set: the code runs program(program_arg) instead (common/sandbox). */
	uint64_t (*program)(uint64_t arg);
	uint64_t program_arg;
};

/* The code's entry: run job->op job->iters times; the wrong results. */
uint64_t wl_guest_run(uint64_t job);

/* The call hooks of workload.guest.c, for the mechanisms to pick from. */
long wl_call_syscall(struct wl_ctx *c, struct pt_regs *r);	/* `syscall` */
long wl_call_pio(struct wl_ctx *c, struct pt_regs *r);	/* out WL_PORT_SYSCALL */
long wl_call_hypercall(struct wl_ctx *c, struct pt_regs *r);	/* KVM_HC_HOST_SYSCALL */
long wl_call_hypercall_regs(struct wl_ctx *c, struct pt_regs *r); /* ..._REGS */
void wl_bare_pio(struct wl_ctx *c);
void wl_bare_hypercall(struct wl_ctx *c);

struct wl_vm;

/*
 * The report's semantics matrix (REPORT.md): what holds of a mechanism, one
 * fact per property, declared in the mechanism's own file.  answer is the
 * cell; test names the TAP result that shows it ("program|how the result's
 * description starts", %m standing for the mechanism's name), or design
 * says in one line why it holds without a test.  The report refuses a fact
 * with neither.
 */
enum wl_prop {
	WL_SECCOMP,		/* the seccomp filters of the thread that runs the call judge it */
	WL_TRACED,		/* ptrace and audit of that thread see the call */
	WL_SIGNALS,		/* a signal interrupts a blocking call; restart codes defined */
	WL_THREAD_STATE,	/* calls on FS/GS base and FPU state act on the right thread */
	WL_SAME_VA,		/* needs guest-virtual == host-virtual */
	WL_OPT_IN,		/* how it is enabled, and the privilege that takes */
	WL_NO_NESTED,		/* works without nested virtualization */
	WL_CONFIDENTIAL,	/* usable by a confidential guest */
	NR_WL_PROPS
};

struct wl_fact {
	const char *answer;
	const char *test;
	const char *design;
};

/* Column titles of the matrix, by enum wl_prop. */
extern const char *const wl_prop_titles[NR_WL_PROPS];

/* Facts most mechanisms of a kind share. */
#define WL_FACT_NO_GUEST(what) { "n/a", NULL, "no guest: " what }
#define WL_FACT_SECCOMP_TESTED { "yes", "semantics_test|%m: seccomp:", NULL }
#define WL_FACT_VM_NESTED { "no", NULL, "a VM needs KVM, so hardware virtualization: nested, inside a cloud VM" }
#define WL_FACT_NO_VM_NESTED { "yes", NULL, "no VM: an ordinary process" }

/* What a mechanism is: its ops, like the kernel's ops structs. */
struct wl_mech {
	const char *name;
	/* One line: where the code runs and who runs the call (README, report). */
	const char *summary;
	/* The code runs in a VM; the mechanism has a bare exit (OP_BARE). */
	bool vm;
	/* The runner executes every call itself, counted in w->exits. */
	bool runs_calls;
	/* The code, or its calls, run in a stub process (w->stub). */
	bool stub;
	/*
	 * Why an -icount figure means nothing for this mechanism (it waits by
	 * spinning across threads, and one emulated CPU serialises them), or
	 * NULL if it means something.
	 */
	const char *icount_na;
	/*
	 * Why this mechanism cannot run an unmodified program for the sandbox
	 * (common/sandbox), or NULL if it can.
	 */
	const char *program_na;
	/* What holds of it, property by property (REPORT.md). */
	struct wl_fact facts[NR_WL_PROPS];
	/* 1 if the running kernel offers what it needs; else 0 and why. */
	int (*available)(const char **why);
	/*
	 * Set up after the common context exists (w->ctx, w->job): the VM,
	 * stub or thread, and c->call/c->bare.  0, or -1 with errno and why.
	 */
	int (*init)(struct wl_vm *w, const char **why);
	/* Run w->job to its end: 0, or -1 with the reason (results apart). */
	int (*run)(struct wl_vm *w, char *why, size_t len);
	/*
	 * Optional: around a batch of runs (bpf attaches its program, which
	 * would see every other VM that opted in; hc-queue wakes its thread).
	 */
	int (*enter)(struct wl_vm *w);
	void (*leave)(struct wl_vm *w);
	/* Undo init; also after a failed init. */
	void (*destroy)(struct wl_vm *w);
};

/* Every mechanism, in the order of the tables. */
extern const struct wl_mech *const wl_mechs[];
extern const int wl_nr_mechs;
/* NULL if there is none of that name. */
const struct wl_mech *wl_mech_by_name(const char *name);
/* Whether @name is in @list ("a+b+c"); every name is in a NULL list. */
bool wl_mech_in_list(const char *list, const char *name);

/* A mechanism set up to run the workload. */
struct wl_vm {
	const struct wl_mech *mech;
	struct vmm vm;			/* VM mechanisms */
	struct vcpu vcpu;
	struct wl_ctx *ctx;
	struct wl_job *job;
	long exits;			/* calls the runner ran (runs_calls) */
	long fallbacks;			/* hc-queue: calls served after an exit */
	pid_t stub;			/* the stub process, if the mechanism has one */
	void *shared;			/* no VM: ctx, job and stack, shared */
	void *priv;			/* the mechanism's own state */
};

extern const char *const wl_op_names[NR_ALL_OPS];
/* Whether op is a udp-rr op (needs the echo server). */
static inline bool wl_op_is_udp(int op)
{
	return op == OP_UDP_RR || op == OP_UDP_RR_1K;
}
/* Syscalls one iteration of each op makes. */
extern const int wl_op_calls[NR_ALL_OPS];
/* Every syscall number the workload uses, and how many there are. */
extern const unsigned int wl_syscall_nrs[];
extern const unsigned int wl_nr_syscalls;

/*
 * The udp-rr ops' echo server, a child process bound to the loopback
 * (::1, or 127.0.0.1 if the kernel has no IPv6: note says which and why).
 * wl_vm_init() connects each context's socket to it.
 */
struct wl_udp {
	pid_t pid;			/* the echo server, 0 if none */
	int family;			/* AF_INET6 or AF_INET */
	unsigned char addr[28];		/* its struct sockaddr_in{,6} */
	unsigned int addr_len;
	unsigned int size;		/* OP_UDP_RR's payload (1, as netperf -r 1,1) */
	char note[128];
};
extern struct wl_udp wl_udp;
int wl_udp_start(unsigned int size, const char **why);
/* Kill the server; new contexts still connect to its (now closed) port. */
void wl_udp_stop(void);
/* The echo server's CPU time so far, in ns (-1 if unknown). */
long long wl_udp_server_ns(void);

/* Whether op applies to the mechanism (OP_BARE needs a VM). */
static inline bool wl_op_applies(const struct wl_mech *m, int op)
{
	return op != OP_BARE || m->vm;
}

/* 0, or -1 with errno; *why says what failed. */
int wl_vm_init(struct wl_vm *w, const struct wl_mech *m, const char *file,
	       const char **why);
void wl_vm_destroy(struct wl_vm *w);
/* The mechanism's enter/leave hooks, if any. */
int wl_enter(struct wl_vm *w);
void wl_leave(struct wl_vm *w);
/* Run op iters times; 0 on success (results checked), -1 otherwise. */
int wl_run(struct wl_vm *w, int op, long iters, char *why, size_t len);
/*
 * Run fn(arg) where the mechanism runs its code (guest ring 0, a stub, the
 * caller) until it returns or the code's calls stop it: 0, or -1 with why
 * (a fault of the code: c->fault_*).
 */
int wl_run_program(struct wl_vm *w, uint64_t (*fn)(uint64_t), uint64_t arg,
		   char *why, size_t len);
/* Create the data file every mechanism reads. */
int wl_make_file(const char *path);
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
/* A mechanism's run hook when the code runs in the caller itself. */
int wl_run_in_caller(struct wl_vm *w, char *why, size_t len);
/* Run the call in r on this process, as a VMM or supervisor does. */
void wl_run_for_code(struct pt_regs *r);
/* A call the code made, for a runner that runs calls: c->serve, or the host. */
long wl_serve(struct wl_ctx *c, struct pt_regs *r);

/* Shared by the VM mechanisms (vm.c). */
typedef int (*wl_exit_fn)(struct wl_vm *w, struct kvm_run *run, uint16_t port);
#define WL_VM_HC	(1 << 0)	/* KVM_CAP_PV_HOST_SYSCALL on the vCPU */
#define WL_VM_HC_EXIT	(1 << 1)	/* KVM_HC_HOST_SYSCALL exits to userspace */
int wl_vm_setup(struct wl_vm *w, unsigned int caps, const char **why);
/* Run the job in the vCPU; exits the VMM does not own go to fn. */
int wl_vm_run(struct wl_vm *w, wl_exit_fn fn, char *why, size_t len);
void wl_vm_teardown(struct wl_vm *w);
/* The ctx and job live in the VM's arena (after wl_vm_setup()). */
int wl_vm_alloc_ctx(struct wl_vm *w);
/* exit-hypercall's exit handler, which bpf shares: the VMM runs the call. */
int wl_exit_hypercall(struct wl_vm *w, struct kvm_run *run, uint16_t port);

/* Shared by the mechanisms without a VM (stub.c). */
/*
 * In a stub that makes no system call of its own: record a fault of the
 * code in c->fault_* before the signal ends the stub (0, or -1).
 */
int wl_stub_catch_faults(struct wl_ctx *c);
/* Map ctx, job and a stack shared, so that a stub sees them at the same VA. */
int wl_shared_alloc(struct wl_vm *w);
void wl_shared_free(struct wl_vm *w);
/* Fork a stub that runs fn(w) with SIGKILL on our death; 0 or -1. */
int wl_stub_fork(struct wl_vm *w, void (*fn)(struct wl_vm *w));
/* Kill and reap the stub, if there is one. */
void wl_stub_kill(struct wl_vm *w);
/* 1 if the stub has died (reaped, with a description in why). */
int wl_stub_dead(struct wl_vm *w, char *why, size_t len);
/*
 * A syscall made from the stub's trusted text: the range that the
 * seccomp-trap filter allows and that SYSCALL_USER_DISPATCH exempts.
 */
long wl_trusted_syscall(long nr, long a0, long a1, long a2, long a3, long a4,
			long a5);
extern char wl_trusted_start[], wl_trusted_end[];
/* Install a SIGSYS handler whose sigreturn is in the trusted text. */
int wl_trusted_sigsys(void (*fn)(int sig, void *info, void *ucontext));
/* futex wait/wake on a shared (not private) word, from the trusted text. */
long wl_futex_wait(uint32_t *word, uint32_t val, long timeout_ms);
long wl_futex_wake(uint32_t *word);

#endif
