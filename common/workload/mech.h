/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mechanism: its ops (like the kernel's ops structs), the facts the
 * report's matrix shows, an instance set up to run the workload, and the
 * one driver every caller opens and closes an instance with (session.c).
 */
#ifndef WL_MECH_H
#define WL_MECH_H

#include <stdbool.h>
#include <sys/types.h>
#include "ctx.h"

struct wl_inst;

/*
 * The report's semantics matrix (REPORT.md): what holds of a mechanism, one
 * fact per property, declared in the mechanism's own file.  answer is the
 * cell; test is the stable id (suite.variant.test) of the test that shows
 * it, from common/tests/test-ids, or design says in one line why it holds
 * without a test.  The report refuses a fact with neither, and
 * check_test_ids.py an id the table does not have.  bench/facts.c prints
 * the facts on the host, without booting.
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
#define WL_FACT_SECCOMP_TESTED { "yes", "semantics.common.seccomp", NULL }
#define WL_FACT_VM_NESTED { "no", NULL, "a VM needs KVM, so hardware virtualization: nested, inside a cloud VM" }
#define WL_FACT_NO_VM_NESTED { "yes", NULL, "no VM: an ordinary process" }

/*
 * What a mechanism is: its ops, like the kernel's ops structs.  How a hook
 * says why it failed: available() and init() point *why at a constant
 * string naming what is missing or what failed, and init() leaves errno
 * set; run(), whose reasons are made at run time, writes them into the
 * caller's buffer.  Callers never see the difference: wl_open() turns the
 * first into one line in the caller's buffer, errno's text included.
 */
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
	int (*init)(struct wl_inst *w, const char **why);
	/* Run w->job to its end: 0, or -1 with the reason (results apart). */
	int (*run)(struct wl_inst *w, char *why, size_t len);
	/*
	 * Optional: around a batch of runs (bpf attaches its program, which
	 * would see every other VM that opted in; hc-queue wakes its thread).
	 */
	int (*enter)(struct wl_inst *w);
	void (*leave)(struct wl_inst *w);
	/* Undo init; also after a failed init. */
	void (*destroy)(struct wl_inst *w);
};

/* Every mechanism, in the order of the tables. */
extern const struct wl_mech *const wl_mechs[];
extern const int wl_nr_mechs;
/* NULL if there is none of that name. */
const struct wl_mech *wl_mech_by_name(const char *name);
/* Whether @name is in @list ("a+b+c"); every name is in a NULL list. */
bool wl_mech_in_list(const char *list, const char *name);

/* An instance of a mechanism, set up to run the workload. */
struct wl_inst {
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
	bool entered;			/* between wl_enter() and wl_leave() */
};

/* Whether op applies to the mechanism (OP_BARE needs a VM). */
static inline bool wl_op_applies(const struct wl_mech *m, int op)
{
	return op != OP_BARE || m->vm;
}

/*
 * The one driver of a mechanism's session, for every caller:
 *   wl_open():  available -> init -> enter
 *   wl_close(): leave (if entered) -> destroy
 * wl_open() returns WL_OPENED, WL_MISSING (the running kernel lacks what
 * the mechanism needs; nothing to undo) or WL_FAILED (undone already); in
 * both of the latter why holds one line saying why, errno's text included.
 * WL_OPEN_IDLE leaves the instance not entered, for a caller that enters
 * and leaves around each batch (the bench: a BPF program attached would
 * see the other mechanisms' VMs).
 */
enum wl_open_result { WL_FAILED = -1, WL_OPENED = 0, WL_MISSING = 1 };
#define WL_OPEN_IDLE	(1U << 0)
int wl_open(struct wl_inst *w, const struct wl_mech *m, const char *file,
	    unsigned int flags, char *why, size_t len);
void wl_close(struct wl_inst *w);
/* The mechanism's enter/leave hooks, if any: 0, or -1 with errno. */
int wl_enter(struct wl_inst *w);
void wl_leave(struct wl_inst *w);
/* The steps wl_open() takes after available(); 0, or -1 with errno and why. */
int wl_inst_init(struct wl_inst *w, const struct wl_mech *m, const char *file,
		 const char **why);
void wl_inst_destroy(struct wl_inst *w);
/* Run op iters times; 0 on success (results checked), -1 otherwise. */
int wl_run(struct wl_inst *w, int op, long iters, char *why, size_t len);
/*
 * Run fn(arg) where the mechanism runs its code (guest ring 0, a stub, the
 * caller) until it returns or the code's calls stop it: 0, or -1 with why
 * (a fault of the code: c->fault_*).
 */
int wl_run_program(struct wl_inst *w, uint64_t (*fn)(uint64_t), uint64_t arg,
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
int wl_run_in_caller(struct wl_inst *w, char *why, size_t len);
/* Run the call in r on this process, as a VMM or supervisor does. */
void wl_run_for_code(struct pt_regs *r);
/* A call the code made, for a runner that runs calls: c->serve, or the host. */
long wl_serve(struct wl_ctx *c, struct pt_regs *r);

#endif
