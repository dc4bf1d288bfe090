// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp-unotify, the posting author's own follow-up: seccomp user
 * notification with SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (6.6).  A stub runs
 * the workload code under a filter that returns SECCOMP_RET_USER_NOTIF for
 * every syscall; the supervisor takes the listener from the stub with
 * pidfd_getfd(), receives each call, runs it itself (the buffers are
 * shared at the same address, the descriptors inherited) and answers with
 * its result.  SYNC_WAKE_UP tells the kernel that the supervisor blocks
 * right after answering, so the stub is woken on the same CPU (what the
 * flag was made for: gVisor's synchronous round trips).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "workload.h"
#include "seccomp.h"

#define WAIT_MS		100	/* the supervisor checks the stub this often */
#define READY_MS	5000	/* how long a new stub may take to report */

/* What the stub tells the supervisor, in shared memory. */
struct unotify_share {
	int listener;		/* the stub's listener fd, -1 until it has one */
};

struct unotify {
	struct unotify_share *share;
	int fd;			/* our copy of the listener */
	bool pending;		/* the stub waits in WL_SECCOMP_DONE */
	uint64_t pending_id;
};

static int unotify_available(const char **why)
{
	uint32_t action = SECCOMP_RET_USER_NOTIF;

	/* SYNC_WAKE_UP (6.6) needs a listener to probe: init reports it. */
	*why = "kernel without SECCOMP_RET_USER_NOTIF";
	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

static void unotify_stub(struct wl_inst *w)
{
	struct unotify *u = w->priv;
	long fd;

	/* Every call of the stub is notified from here on: set up first. */
	if (wl_stub_catch_faults(w->ctx))
		return;
	fd = wl_seccomp_install(SECCOMP_RET_USER_NOTIF, 0, 0,
				SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (fd < 0)
		return;
	__atomic_store_n(&u->share->listener, (int)fd, __ATOMIC_RELEASE);
	for (;;) {
		syscall(WL_SECCOMP_DONE);	/* ready: wait for a job */
		wl_guest_run((uintptr_t)w->job);
	}
}

/* The stub's next call in *n, or -1 if the stub died or ms ran out. */
static int next_call(struct wl_inst *w, struct seccomp_notif *n, long ms,
		     char *why, size_t len)
{
	struct unotify *u = w->priv;
	struct pollfd p = { .fd = u->fd, .events = POLLIN };

	for (;;) {
		int r = poll(&p, 1, WAIT_MS);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (p.revents & (POLLHUP | POLLERR | POLLNVAL))) {
			if (!wl_stub_dead(w, why, len))
				snprintf(why, len, "listener: %s",
					 r < 0 ? strerror(errno) : "hung up");
			return -1;
		}
		if (r == 0) {
			if (wl_stub_dead(w, why, len))
				return -1;
			if (ms >= 0 && (ms -= WAIT_MS) <= 0) {
				snprintf(why, len, "stub %d made no call", w->stub);
				return -1;
			}
			continue;
		}
		memset(n, 0, sizeof(*n));	/* RECV wants it zeroed */
		if (!ioctl(u->fd, SECCOMP_IOCTL_NOTIF_RECV, n))
			return 0;
		if (errno != EINTR && errno != ENOENT) {
			snprintf(why, len, "NOTIF_RECV: %s", strerror(errno));
			return -1;
		}
	}
}

/* Answer with the call's result; native: let the stub run it itself. */
static int answer(struct unotify *u, uint64_t id, long ret, bool native)
{
	struct seccomp_notif_resp r = {
		.id = id,
		.val = ret < 0 || native ? 0 : ret,
		.error = ret < 0 && !native ? (int)ret : 0,	/* the kernel wants -errno */
		.flags = native ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0,
	};

	return ioctl(u->fd, SECCOMP_IOCTL_NOTIF_SEND, &r);
}

static int unotify_init(struct wl_inst *w, const char **why)
{
	static char err[96];
	struct unotify *u = calloc(1, sizeof(*u));
	struct seccomp_notif n;
	long ms = READY_MS;
	int pidfd, fd;

	if (!u)
		return -1;
	u->fd = -1;
	w->priv = u;
	u->share = mmap(NULL, sizeof(*u->share), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (u->share == MAP_FAILED) {
		u->share = NULL;
		return -1;
	}
	u->share->listener = -1;
	w->ctx->call = wl_call_syscall;
	*why = "seccomp-unotify stub";
	if (wl_stub_fork(w, unotify_stub))
		return -1;
	/* The stub makes no call we could wait on before its filter: poll. */
	while ((fd = __atomic_load_n(&u->share->listener, __ATOMIC_ACQUIRE)) < 0) {
		if (wl_stub_dead(w, err, sizeof(err)) || (ms -= 1) <= 0) {
			*why = "the stub did not install its filter";
			errno = ECHILD;
			return -1;
		}
		usleep(1000);
	}
	*why = "pidfd_getfd() of the stub's listener";
	pidfd = syscall(SYS_pidfd_open, w->stub, 0);
	if (pidfd < 0)
		return -1;
	u->fd = syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	close(pidfd);
	if (u->fd < 0)
		return -1;
	*why = "SECCOMP_IOCTL_NOTIF_SET_FLAGS(SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)";
	if (ioctl(u->fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		  SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP))
		return -1;
	if (next_call(w, &n, READY_MS, err, sizeof(err)) || n.data.nr != WL_SECCOMP_DONE) {
		*why = err;
		errno = ECHILD;
		return -1;
	}
	u->pending = true;
	u->pending_id = n.id;
	return 0;
}

static int unotify_run(struct wl_inst *w, char *why, size_t len)
{
	struct unotify *u = w->priv;
	struct seccomp_notif n;
	__u64 *a = n.data.args;

	if (!u->pending) {
		snprintf(why, len, "the stub is gone");
		return -1;
	}
	u->pending = false;
	if (answer(u, u->pending_id, 0, false))	/* start the job */
		goto err;
	for (;;) {
		if (next_call(w, &n, -1, why, len))
			return -1;
		if (n.data.nr == WL_SECCOMP_DONE) {
			u->pending = true;
			u->pending_id = n.id;
			return 0;
		}
		struct pt_regs p = {
			.orig_rax = n.data.nr, .rax = n.data.nr, .rdi = a[0], .rsi = a[1],
			.rdx = a[2], .r10 = a[3], .r8 = a[4], .r9 = a[5],
			.rip = n.data.instruction_pointer,
		};
		long ret = wl_serve(w->ctx, &p);

		w->exits++;
		if (w->ctx->stop)
			return 0;	/* the call ended the code: no answer */
		/*
		 * A new FS base is the stub thread's own: the supervisor has
		 * taken the call (arch_prctl), the stub makes it itself.
		 */
		if (answer(u, n.id, ret, w->ctx->fs_base_set))
			goto err;
		w->ctx->fs_base_set = 0;
	}
err:
	if (!wl_stub_dead(w, why, len))
		snprintf(why, len, "NOTIF_SEND: %s", strerror(errno));
	return -1;
}

static void unotify_destroy(struct wl_inst *w)
{
	struct unotify *u = w->priv;

	wl_stub_kill(w);
	if (u && u->fd >= 0)
		close(u->fd);
	if (u && u->share)
		munmap(u->share, sizeof(*u->share));
	free(u);
	w->priv = NULL;
}

const struct wl_mech wl_mech_seccomp_unotify = {
	.name = "seccomp-unotify",
	.summary = "SECCOMP_RET_USER_NOTIF in a stub; the supervisor receives the call on the listener (SYNC_WAKE_UP), runs it, answers",
	.stub = true,
	.runs_calls = true,
	.facts = {
		[WL_SECCOMP] = WL_FACT_SECCOMP_TESTED,
		[WL_TRACED] = { "the supervisor's call, yes", NULL, "the supervisor makes each call as its own system call" },
		[WL_SIGNALS] = { "yes", NULL, "the supervisor's call is an ordinary system call; the stub's wait for the answer is interruptible" },
		[WL_THREAD_STATE] = { "the supervisor's", NULL, "the call runs in the supervisor's thread; SECCOMP_USER_NOTIF_FLAG_CONTINUE lets the stub make it itself" },
		[WL_SAME_VA] = { "yes (stub and supervisor)", NULL, "the supervisor uses the stub's pointers in its own mm: shared memory at the same address" },
		[WL_OPT_IN] = { "none", NULL, "the stub installs its own filter; pidfd_getfd() of its listener needs ptrace access to it" },
		[WL_NO_NESTED] = WL_FACT_NO_VM_NESTED,
		[WL_CONFIDENTIAL] = WL_FACT_NO_GUEST("the supervisor reads the stub"),
	},
	.available = unotify_available,
	.init = unotify_init,
	.run = unotify_run,
	.destroy = unotify_destroy,
};
