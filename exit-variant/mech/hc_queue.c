// SPDX-License-Identifier: GPL-2.0
/*
 * hc-queue, Sean Christopherson's alternative (26 Jul 2022): exitless
 * system calls in the Graphene/SCONE style.  The guest posts each call to
 * a ring in shared memory that a dedicated VMM thread polls and serves; the
 * guest waits by spinning on the slot.  No VM exit at all while the thread
 * keeps up, at the price of a host CPU spinning for the VM.
 *
 * The fallback, which cannot deadlock: after WL_QUEUE_SPIN rounds the
 * guest exits to the VMM (WL_PORT_QUEUE).  The vCPU thread then takes the
 * call itself with a compare-and-swap on the slot word; if the VMM thread
 * won that race it has already started running the call, which does not
 * depend on the guest, so the vCPU thread waits on the slot word (a futex)
 * until it is done.  Either way the call runs exactly once, and the guest
 * never depends on the VMM thread being scheduled.
 *
 * The VMM thread spins for SERVER_SPIN empty polls, then sleeps on a
 * doorbell that the fallback and enter() ring, and spins again only when
 * rung; leave() parks it at once so that it does not steal a CPU from the
 * other mechanisms' samples.
 *
 * A thread serves one VM's ring by default: a server per vCPU.  Sean's
 * message queue could as well be served by one host thread for many vCPUs;
 * wl_hcq_share_server() makes every hc-queue instance this process opens
 * afterwards join one shared thread, which sweeps their rings in turn
 * (bench/scaling measures it as hc-queue-shared).  A call it runs holds up the other
 * rings' calls: the guest's bounded spin and the fallback still apply.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hc_queue.h"

#define WL_QUEUE_SPIN	(1UL << 16)	/* guest polls before it exits */
#define SERVER_SPIN	(1UL << 20)	/* empty sweeps before the thread sleeps */
#define BELL_TIMEOUT_MS	50		/* a sleeping thread rechecks stop */
#define MAX_MEMBERS	8		/* rings one shared thread serves */

struct hcq;

/* A VMM thread and the rings it serves. */
struct hcq_server {
	pthread_t thread;
	pthread_mutex_t lock;	/* member[], n: held by the thread for a sweep */
	struct hcq *member[MAX_MEMBERS];
	int n;
	uint32_t bell;		/* futex: rung to wake the thread */
	int stop;
};

/* One VM's ring. */
struct hcq {
	struct wl_queue *q;
	struct hcq_server *srv;	/* NULL until joined */
	uint64_t next;		/* the next seq the server looks for */
	int parked;		/* leave(): the server need not spin for it */
	long served;		/* calls the server ran */
};

static bool share_server;
static struct hcq_server *shared;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

void wl_hcq_share_server(bool on)
{
	share_server = on;
}

static int hcq_available(const char **why)
{
	return 1;
}

static void ring_bell(struct hcq_server *srv)
{
	__atomic_add_fetch(&srv->bell, 1, __ATOMIC_RELEASE);
	wl_futex_wake(&srv->bell);
}

/* Serve h's next call if it is posted: true if the slot moved on. */
static bool serve_one(struct hcq *h)
{
	uint64_t head = __atomic_load_n(&h->q->head, __ATOMIC_ACQUIRE);
	struct wl_queue_slot *s;
	uint32_t w, posted;

	/*
	 * The guest has one call in flight (it waits for each), seq
	 * head - 1: those before it are done, by the fallback if this
	 * thread was busy elsewhere or off its CPU.  Catch up, or a ring
	 * that lapped the server would never match again.
	 */
	if (head > h->next + 1)
		h->next = head - 1;
	s = &h->q->slot[h->next % WL_QUEUE_SLOTS];
	w = __atomic_load_n(&s->word, __ATOMIC_ACQUIRE);
	posted = WL_SLOT(h->next, WL_SLOT_POSTED);
	if ((w & ~3U) != WL_SLOT(h->next, 0))
		return false;
	/* Ours unless the fallback took it (then just go on). */
	if (w == posted &&
	    __atomic_compare_exchange_n(&s->word, &posted,
					WL_SLOT(h->next, WL_SLOT_SERVER), false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		if (s->regs) {
			wl_run_for_code(s->regs);
			__atomic_add_fetch(&h->served, 1, __ATOMIC_RELAXED);
		}
		__atomic_store_n(&s->word, WL_SLOT(h->next, WL_SLOT_DONE), __ATOMIC_RELEASE);
		wl_futex_wake(&s->word);
	}
	h->next++;
	return true;
}

static void *server(void *arg)
{
	struct hcq_server *srv = arg;
	uint64_t idle = 0;

	while (!__atomic_load_n(&srv->stop, __ATOMIC_ACQUIRE)) {
		/* Before the sweep: a ring after it is not lost. */
		uint32_t bell = __atomic_load_n(&srv->bell, __ATOMIC_ACQUIRE);
		bool moved = false, awake = false;
		int i;

		pthread_mutex_lock(&srv->lock);
		for (i = 0; i < srv->n; i++) {
			moved |= serve_one(srv->member[i]);
			awake |= !__atomic_load_n(&srv->member[i]->parked, __ATOMIC_RELAXED);
		}
		pthread_mutex_unlock(&srv->lock);
		if (moved) {
			idle = 0;
			continue;
		}
		if (++idle < SERVER_SPIN && awake) {
			asm volatile("pause" ::: "memory");
			continue;
		}
		wl_futex_wait(&srv->bell, bell, BELL_TIMEOUT_MS);
		/*
		 * Spin again only when rung (a call came by the fallback, or
		 * enter()).  After a timeout, one sweep and back to sleep: an
		 * idle ring costs no CPU beyond SERVER_SPIN polls.
		 */
		if (__atomic_load_n(&srv->bell, __ATOMIC_ACQUIRE) != bell)
			idle = 0;
	}
	return NULL;
}

static struct hcq_server *server_start(void)
{
	struct hcq_server *srv = calloc(1, sizeof(*srv));

	if (!srv)
		return NULL;
	pthread_mutex_init(&srv->lock, NULL);
	errno = pthread_create(&srv->thread, NULL, server, srv);
	if (errno) {
		free(srv);
		return NULL;
	}
	return srv;
}

static void server_stop(struct hcq_server *srv)
{
	__atomic_store_n(&srv->stop, 1, __ATOMIC_RELEASE);
	ring_bell(srv);
	pthread_join(srv->thread, NULL);
	pthread_mutex_destroy(&srv->lock);
	free(srv);
}

/* h's own server, or the shared one (started by its first member). */
static int server_join(struct hcq *h)
{
	struct hcq_server *srv;
	int r = -1;

	pthread_mutex_lock(&shared_lock);
	srv = share_server ? shared : NULL;
	if (!srv)
		srv = server_start();
	if (!srv)
		goto out;
	pthread_mutex_lock(&srv->lock);
	if (srv->n < MAX_MEMBERS) {
		srv->member[srv->n++] = h;
		h->srv = srv;
		r = 0;
	} else {
		errno = EBUSY;
	}
	pthread_mutex_unlock(&srv->lock);
	if (share_server && !r)
		shared = srv;
	else if (!srv->n)
		server_stop(srv);
out:
	pthread_mutex_unlock(&shared_lock);
	return r;
}

/* Out of the sweep (not touched again once this returns); the last stops it. */
static void server_leave(struct hcq *h)
{
	struct hcq_server *srv = h->srv;
	int i, left;

	pthread_mutex_lock(&shared_lock);
	pthread_mutex_lock(&srv->lock);
	for (i = 0; i < srv->n; i++)
		if (srv->member[i] == h) {
			srv->member[i] = srv->member[--srv->n];
			break;
		}
	left = srv->n;
	pthread_mutex_unlock(&srv->lock);
	if (!left) {
		if (srv == shared)
			shared = NULL;
		server_stop(srv);
	}
	pthread_mutex_unlock(&shared_lock);
	h->srv = NULL;
}

static int hcq_init(struct wl_inst *w, const char **why)
{
	struct hcq *h = calloc(1, sizeof(*h));

	if (!h)
		return -1;
	w->priv = h;
	if (wl_vm_setup(w, 0, why))
		return -1;
	*why = "the ring in the arena";
	h->q = vmm_alloc(&w->vm, sizeof(*h->q));
	if (!h->q)
		return -1;
	h->q->head = 1;		/* slot words start at seq 0, done */
	h->q->spin = WL_QUEUE_SPIN;
	h->next = 1;
	w->ctx->mech_data = h->q;
	w->ctx->call = wl_call_queue;
	w->ctx->bare = wl_bare_queue;
	*why = share_server ? "the VMM's shared ring thread" : "the VMM's ring thread";
	return server_join(h);
}

/* The guest stopped spinning on the slot it posted last. */
static int hcq_exit(struct wl_inst *w, struct kvm_run *run, uint16_t port)
{
	struct hcq *h = w->priv;
	struct wl_queue *q = h->q;
	uint64_t seq = q->head - 1;
	struct wl_queue_slot *s = &q->slot[seq % WL_QUEUE_SLOTS];
	uint32_t posted = WL_SLOT(seq, WL_SLOT_POSTED), cur;

	if (run->exit_reason != KVM_EXIT_IO || port != WL_PORT_QUEUE)
		return -1;
	w->fallbacks++;
	if (__atomic_compare_exchange_n(&s->word, &posted,
					WL_SLOT(seq, WL_SLOT_VCPU), false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		if (s->regs) {
			wl_run_for_code(s->regs);
			w->exits++;
		}
		__atomic_store_n(&s->word, WL_SLOT(seq, WL_SLOT_DONE), __ATOMIC_RELEASE);
	} else {
		/* The thread has it, or it is done: wait for done. */
		while ((cur = __atomic_load_n(&s->word, __ATOMIC_ACQUIRE)) !=
		       WL_SLOT(seq, WL_SLOT_DONE)) {
			if ((cur & ~3U) != WL_SLOT(seq, 0))
				return -1;	/* not this call's word: a bug */
			wl_futex_wait(&s->word, cur, BELL_TIMEOUT_MS);
		}
	}
	ring_bell(h->srv);
	return 0;
}

static int hcq_run(struct wl_inst *w, char *why, size_t len)
{
	struct hcq *h = w->priv;
	long before = __atomic_load_n(&h->served, __ATOMIC_RELAXED);
	int r = wl_vm_run(w, hcq_exit, why, len);

	w->exits += __atomic_load_n(&h->served, __ATOMIC_RELAXED) - before;
	return r;
}

static int hcq_enter(struct wl_inst *w)
{
	struct hcq *h = w->priv;

	__atomic_store_n(&h->parked, 0, __ATOMIC_RELAXED);
	ring_bell(h->srv);
	return 0;
}

static void hcq_leave(struct wl_inst *w)
{
	struct hcq *h = w->priv;

	__atomic_store_n(&h->parked, 1, __ATOMIC_RELAXED);
}

static void hcq_destroy(struct wl_inst *w)
{
	struct hcq *h = w->priv;

	if (h && h->srv)
		server_leave(h);
	free(h);
	w->priv = NULL;
	wl_vm_teardown(w);
}

const struct wl_mech wl_mech_hc_queue = {
	.name = "hc-queue",
	.summary = "the guest posts the call to a shared ring and spins; a VMM thread runs it (exit after a bounded spin)",
	.vm = true,
	.runs_calls = true,
	.icount_na = "the guest spins on another thread's progress, and -icount runs one emulated CPU: the figure is the scheduler's slice, not the path",
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "yes", NULL, "the VMM's thread makes each call as its own system call" },
		[WL_SIGNALS] = { "yes", NULL, "the thread's call is an ordinary system call; the guest waits by spinning, then exits" },
		[WL_THREAD_STATE] = { "yes (the VMM thread's)", "semantics.common.gs_base", NULL },
		[WL_SAME_VA] = { "yes, here", NULL, "the VMM thread runs the call with the guest's pointers as they are; a VMM could translate them" },
		[WL_OPT_IN] = { "none", NULL, "shared memory and a thread of the VMM's" },
		[WL_NO_NESTED] = WL_FACT_VM_NESTED,
		[WL_CONFIDENTIAL] = { "in principle", NULL, "the queue needs no register access: a ring in shared (decrypted) memory would do (not built)" },
	},
	.available = hcq_available,
	.init = hcq_init,
	.run = hcq_run,
	.enter = hcq_enter,
	.leave = hcq_leave,
	.destroy = hcq_destroy,
};
