// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp-trap, the shape of gVisor's production platform, systrap: a stub
 * process runs the workload code under a seccomp filter that returns
 * SECCOMP_RET_TRAP for every syscall made outside the stub's trusted text.
 * The SIGSYS handler (whose own calls are in the trusted text) puts the
 * call in shared memory, wakes the supervisor with a futex and waits on
 * the same futex for the result; the supervisor runs the call itself (the
 * buffers are shared at the same address, the descriptors inherited).
 * systrap adds a spin before the futex and runs many stubs; this keeps
 * the one round trip that is the mechanism's cost.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "workload.h"
#include "seccomp.h"

#define WAIT_MS		100	/* the supervisor checks the stub this often */
#define READY_MS	5000	/* how long a new stub may take to report */

enum { CHAN_IDLE, CHAN_CALL, CHAN_REPLY };

/* One page shared with the stub. */
struct trap_chan {
	uint32_t state;		/* futex word, CHAN_* */
	uint32_t pad;
	long nr, args[6], ret;
};

struct trap {
	struct trap_chan *chan;
	bool pending;		/* the stub waits in WL_SECCOMP_DONE */
};

/* The stub's (a process of its own, so a global is its own). */
static struct trap_chan *stub_chan;

static int trap_available(const char **why)
{
	*why = "kernel without seccomp filters";
	return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

static void trap_sigsys(int sig, void *info, void *ucontext)
{
	siginfo_t *si = info;
	greg_t *g = ((ucontext_t *)ucontext)->uc_mcontext.gregs;
	struct trap_chan *ch = stub_chan;
	uint32_t s;

	ch->nr = si->si_syscall;
	ch->args[0] = g[REG_RDI];
	ch->args[1] = g[REG_RSI];
	ch->args[2] = g[REG_RDX];
	ch->args[3] = g[REG_R10];
	ch->args[4] = g[REG_R8];
	ch->args[5] = g[REG_R9];
	__atomic_store_n(&ch->state, CHAN_CALL, __ATOMIC_RELEASE);
	wl_futex_wake(&ch->state);
	while ((s = __atomic_load_n(&ch->state, __ATOMIC_ACQUIRE)) != CHAN_REPLY)
		wl_futex_wait(&ch->state, s, -1);
	g[REG_RAX] = ch->ret;
	__atomic_store_n(&ch->state, CHAN_IDLE, __ATOMIC_RELAXED);
}

static void trap_stub(struct wl_inst *w)
{
	struct trap *t = w->priv;

	stub_chan = t->chan;
	if (wl_trusted_sigsys(trap_sigsys) ||
	    wl_seccomp_install(SECCOMP_RET_TRAP, (uintptr_t)wl_trusted_start,
			       (uintptr_t)wl_trusted_end, 0))
		return;
	for (;;) {
		syscall(WL_SECCOMP_DONE);	/* ready: wait for a job */
		wl_guest_run((uintptr_t)w->job);
	}
}

/*
 * The stub's next call: 0 with it in the channel, or -1 if the stub died
 * or did not call within ms (-1: no limit).
 */
static int next_call(struct wl_inst *w, long ms, char *why, size_t len)
{
	struct trap_chan *ch = ((struct trap *)w->priv)->chan;
	uint32_t s;

	while ((s = __atomic_load_n(&ch->state, __ATOMIC_ACQUIRE)) != CHAN_CALL) {
		if (wl_futex_wait(&ch->state, s, WAIT_MS) == -ETIMEDOUT) {
			if (wl_stub_dead(w, why, len))
				return -1;
			if (ms >= 0 && (ms -= WAIT_MS) <= 0) {
				snprintf(why, len, "stub %d made no call", w->stub);
				return -1;
			}
		}
	}
	return 0;
}

static void reply(struct trap_chan *ch, long ret)
{
	ch->ret = ret;
	__atomic_store_n(&ch->state, CHAN_REPLY, __ATOMIC_RELEASE);
	wl_futex_wake(&ch->state);
}

static int trap_init(struct wl_inst *w, const char **why)
{
	static char err[96];
	struct trap *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	w->priv = t;
	t->chan = mmap(NULL, sizeof(*t->chan), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t->chan == MAP_FAILED) {
		t->chan = NULL;
		return -1;
	}
	w->ctx->call = wl_call_syscall;
	*why = "seccomp-trap stub";
	if (wl_stub_fork(w, trap_stub))
		return -1;
	if (next_call(w, READY_MS, err, sizeof(err)) || t->chan->nr != WL_SECCOMP_DONE) {
		*why = err;
		errno = ECHILD;
		return -1;
	}
	t->pending = true;
	return 0;
}

static int trap_run(struct wl_inst *w, char *why, size_t len)
{
	struct trap *t = w->priv;
	struct trap_chan *ch = t->chan;

	if (!t->pending) {
		snprintf(why, len, "the stub is gone");
		return -1;
	}
	t->pending = false;
	reply(ch, 0);			/* start the job */
	for (;;) {
		if (next_call(w, -1, why, len))
			return -1;
		if (ch->nr == WL_SECCOMP_DONE) {
			t->pending = true;
			return 0;
		}
		reply(ch, host_syscall(ch->nr, ch->args[0], ch->args[1], ch->args[2],
				       ch->args[3], ch->args[4], ch->args[5]));
		w->exits++;
	}
}

static void trap_destroy(struct wl_inst *w)
{
	struct trap *t = w->priv;

	wl_stub_kill(w);
	if (t && t->chan)
		munmap(t->chan, sizeof(*t->chan));
	free(t);
	w->priv = NULL;
}

const struct wl_mech wl_mech_seccomp_trap = {
	.name = "seccomp-trap",
	.summary = "systrap's shape: SECCOMP_RET_TRAP in a stub; its SIGSYS handler passes the call to the supervisor by shared memory and a futex",
	.program_na = "the calls are posted by a SIGSYS handler in the stub, which would run on the program's stack with its FS base; the sandbox does not teach that handler to apply a new FS base or to stop",
	.stub = true,
	.runs_calls = true,
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "the supervisor's call, yes", NULL, "the supervisor makes each call as its own system call" },
		[WL_SIGNALS] = { "yes", NULL, "the supervisor's call is an ordinary system call" },
		[WL_THREAD_STATE] = { "the supervisor's", NULL, "the call runs in the supervisor's thread, on its FS/GS and FPU" },
		[WL_SAME_VA] = { "yes (stub and supervisor)", NULL, "the supervisor uses the stub's pointers in its own mm: shared memory at the same address" },
		[WL_OPT_IN] = { "none", NULL, "the stub installs its own filter (no_new_privs)" },
		[WL_NO_NESTED] = WL_FACT_NO_VM_NESTED,
		[WL_CONFIDENTIAL] = WL_FACT_NO_GUEST("the supervisor reads the stub"),
	},
	.available = trap_available,
	.init = trap_init,
	.run = trap_run,
	.destroy = trap_destroy,
};
