// SPDX-License-Identifier: GPL-2.0
/*
 * vCPU scaling, guest side (/bench/scaling in the QEMU guest): for every VM
 * mechanism (and native, the reference), 1, 2 and 4 workers make getppid
 * calls at once, each a process with its own instance of the mechanism:
 * its own VM with one vCPU for the VM mechanisms (hc-queue: its own queue
 * and server thread, a server per vCPU).  No mechanism here shares a VM
 * between workers; one VM with several vCPUs would add KVM's per-VM locks
 * to what is measured, and none of the hot paths takes one.  hc-queue runs
 * a second time as "hc-queue-shared": the workers are threads of one
 * process, each with its own VM and ring, and one VMM thread serves every
 * ring (wl_hcq_share_server()).
 *
 *   scaling [-i ITERS] [-j JOBS] [-r REPEATS] [-m MECHS]
 *
 * A worker opens its instance, warms up, says it is ready, waits for the
 * start, runs JOBS jobs of ITERS getppid, says it is done and stays alive
 * until the snapshot after the last one is taken (an exited process would
 * take its CPU time out of it).  Per (mechanism, workers, repeat) a "scale"
 * record: the calls, the wall time from the start to the last worker done,
 * and the CPU time of every task of the guest over that window (the
 * workers, their VMM or server threads, and everything else: cpu_time.h).
 * The host side (bench/scaling_report.py) takes medians over the repeats.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pthread.h>

#include "cpu_time.h"
#include "hc_queue.h"
#include "record.h"
#include "workload.h"

#define FILE_PATH	"/tmp/scaling.dat"
#define TOOL		"scaling"
#define MAX_WORKERS	4
/*
 * A measurement that has not ended after this long is stuck: the
 * emulator's nested-SVM defect can hold a call in KVM_RUN for minutes
 * (hypercall/README.md, "Stuck calls").  hc-queue's two workers on two
 * CPUs, the slowest that is not stuck, take about 20 s.
 */
#define MEASURE_SECONDS	300

static const int workers_list[] = { 1, 2, 4 };

/*
 * A worker's VM that triple-faults, or a measurement that does not end:
 * the nested-SVM defect of QEMU's TCG that hypercall/README.md ("Stuck
 * calls") shows with a control that runs no host call at all, more likely
 * the more L1 preempts L2.  Counted in a "shutdown" record and the
 * measurement made again, at most this often; the report prints the
 * count.  Any other failure ends the mechanism.
 */
#define SHUTDOWN	"KVM_EXIT_SHUTDOWN"
#define STUCK		"no measurement end"
#define MAX_SHUTDOWNS	2

static void note_shutdown(const struct wl_mech *m, int n, int repeat, const char *why)
{
	struct wl_rec r;

	wl_rec_begin(&r, "shutdown");
	wl_rec_str(&r, "mech", m->name);
	wl_rec_int(&r, "workers", n);
	wl_rec_int(&r, "repeat", repeat);
	wl_rec_str(&r, "reason", why);
	wl_rec_end(&r);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * One byte to the parent: 'o' opened, 'r' ready, 'd' done, 'f' failed or 'm' missing
 * (then a reason).
 */
static void tell(int fd, char what, const char *why)
{
	char buf[200];
	int n;

	n = snprintf(buf, sizeof(buf), "%c%s", what, why ? why : "");
	if (write(fd, buf, n + (what == 'f' || what == 'm')) < 0)
		_exit(2);
}

/* A worker's life; its exit status (it has told the parent why). */
static int worker(const struct wl_mech *m, long iters, int jobs, int up, int warm, int go,
		  int end)
{
	struct wl_inst w;
	char why[160], c;
	int j;

	switch (wl_open(&w, m, FILE_PATH, 0, why, sizeof(why))) {
	case WL_OPENED:
		break;
	case WL_MISSING:
		tell(up, 'm', why);
		return 1;
	default:
		tell(up, 'f', why);
		return 1;
	}
	/*
	 * Every worker opens (bpf: attaches its program, which repatches the
	 * kernel's call into the trampoline) before any makes a call, and
	 * closes after all have made theirs: no code is patched while
	 * another worker runs it.  Under TCG a call through a site being
	 * patched once hit the patch's int3 after the patch had ended.
	 */
	tell(up, 'o', NULL);
	if (read(warm, &c, 1) != 0)	/* EOF: every worker has opened */
		return 1;
	if (wl_run(&w, OP_NULL, 10, why, sizeof(why))) {
		tell(up, 'f', why);
		return 1;
	}
	tell(up, 'r', NULL);
	if (read(go, &c, 1) != 0)	/* the start: EOF, to every worker at once */
		return 1;
	for (j = 0; j < jobs; j++) {
		if (wl_run(&w, OP_NULL, iters, why, sizeof(why))) {
			tell(up, 'f', why);
			return 1;
		}
	}
	/*
	 * Idle until the snapshot.  hc-queue's leave only parks its server,
	 * which would otherwise spin on into the measurement; any other
	 * mechanism leaves after it (bpf's leave patches kernel text).
	 */
	if (!strncmp(m->name, "hc-queue", 8))
		wl_leave(&w);
	tell(up, 'd', NULL);
	if (read(end, &c, 1))		/* EOF: the parent has its snapshot */
		return 1;
	wl_close(&w);
	return 0;
}

/* hc-queue-shared: the workers are threads of one process. */
struct worker_arg {
	const struct wl_mech *m;
	long iters;
	int jobs, up, warm, go, end, status;
};

static void *worker_thread(void *p)
{
	struct worker_arg *a = p;

	a->status = worker(a->m, a->iters, a->jobs, a->up, a->warm, a->go, a->end);
	return NULL;
}

static int thread_crew(const struct wl_mech *m, int n, long iters, int jobs,
		       int up, int warm, int go, int end)
{
	struct worker_arg a[MAX_WORKERS];
	pthread_t t[MAX_WORKERS];
	int i, started, status = 0;

	wl_hcq_share_server(true);
	for (started = 0; started < n; started++) {
		a[started] = (struct worker_arg){ m, iters, jobs, up, warm, go, end, 0 };
		errno = pthread_create(&t[started], NULL, worker_thread, &a[started]);
		if (errno) {
			tell(up, 'f', "pthread_create failed");
			return 1;
		}
	}
	for (i = 0; i < started; i++) {
		pthread_join(t[i], NULL);
		status |= a[i].status;
	}
	return status;
}

/* The workers of one measurement, and which of them were reaped. */
struct crew {
	pid_t pid[MAX_WORKERS];
	bool reaped[MAX_WORKERS];
	int n;
	double deadline;
};

/* A worker that ended without saying why: 'x' with its status. */
static char dead_worker(struct crew *cr, char *why, size_t len)
{
	int i, st;

	for (i = 0; i < cr->n; i++) {
		if (cr->reaped[i] || waitpid(cr->pid[i], &st, WNOHANG) != cr->pid[i])
			continue;
		cr->reaped[i] = true;
		if (WIFSIGNALED(st))
			snprintf(why, len, "a worker was killed by signal %d", WTERMSIG(st));
		else
			snprintf(why, len, "a worker exited (%d) without a word", WEXITSTATUS(st));
		return 'x';
	}
	return 0;
}

/*
 * Read one message from a worker: its kind, and a failure's reason.  All
 * workers share the pipe, so a dead one gives no EOF while others live:
 * look for it every second; 's' when the measurement outlives its time.
 */
static char hear(int fd, struct crew *cr, char *why, size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;
	size_t n = 0;

	for (;;) {
		int r = poll(&pfd, 1, 1000);

		if (r > 0)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(why, len, "poll: %s", strerror(errno));
			return 'x';
		}
		/* A message already sent is read before a death is believed. */
		if (poll(&pfd, 1, 0) > 0)
			break;
		if (dead_worker(cr, why, len))
			return 'x';
		if (now_ns() > cr->deadline) {
			snprintf(why, len, STUCK " after %d s: a worker stuck in KVM_RUN?",
				 MEASURE_SECONDS);
			return 's';
		}
	}
	if (read(fd, &c, 1) != 1) {
		snprintf(why, len, "every worker ended without a word");
		return 'x';
	}
	if (c == 'f' || c == 'm') {
		while (n + 1 < len && read(fd, &why[n], 1) == 1 && why[n])
			n++;
		why[n] = 0;
	}
	return c;
}

/*
 * One measurement of n workers (n threads of one process if threads);
 * 0, or 'f'/'m'/'x'/'s' with why.
 */
static int measure(const struct wl_mech *m, int n, bool threads, int repeat, long iters,
		   int jobs, char *why, size_t len)
{
	int up[2] = { -1, -1 }, warm[2] = { -1, -1 }, go[2] = { -1, -1 }, end[2] = { -1, -1 };
	struct crew cr = { .n = threads ? 1 : n,
			   .deadline = now_ns() + MEASURE_SECONDS * 1e9 };
	pid_t *pid = cr.pid;
	int i, got = 0, rc = 'x';
	struct cpu_time c0, c1;
	struct wl_rec r;
	double t0, t1;
	char c;

	if (pipe(up) || pipe(warm) || pipe(go) || pipe(end)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		for (i = 0; i < 2; i++) {
			if (up[i] >= 0)
				close(up[i]);
			if (warm[i] >= 0)
				close(warm[i]);
			if (go[i] >= 0)
				close(go[i]);
		}
		return 'x';
	}
	for (i = 0; i < cr.n; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(up[0]);
			close(warm[1]);
			close(go[1]);
			close(end[1]);
			_exit(threads ?
			      thread_crew(m, n, iters, jobs, up[1], warm[0], go[0], end[0]) :
			      worker(m, iters, jobs, up[1], warm[0], go[0], end[0]));
		}
		if (pid[i] < 0) {
			snprintf(why, len, "fork: %s", strerror(errno));
			n = cr.n = i;
			rc = 'f';
			break;
		}
	}
	close(up[1]);
	close(warm[0]);
	close(go[0]);
	close(end[0]);
	if (rc == 'f')
		goto out;
	for (i = 0; i < n; i++) {
		c = hear(up[0], &cr, why, len);
		if (c != 'o') {
			rc = c == 'm' || c == 's' ? c : 'f';
			goto out;
		}
	}
	close(warm[1]);		/* every worker opened: warm up */
	warm[1] = -1;
	for (i = 0; i < n; i++) {
		c = hear(up[0], &cr, why, len);
		if (c != 'r') {
			rc = c == 'm' || c == 's' ? c : 'f';
			goto out;
		}
	}
	if (cpu_time_now(&c0)) {
		snprintf(why, len, "cannot read the CPU clocks: %s", strerror(errno));
		rc = 'f';
		goto out;
	}
	t0 = now_ns();
	close(go[1]);
	go[1] = -1;
	for (got = 0; got < n; got++) {
		c = hear(up[0], &cr, why, len);
		if (c != 'd') {
			rc = c == 's' ? 's' : 'f';
			goto out;
		}
	}
	t1 = now_ns();
	if (cpu_time_now(&c1)) {
		snprintf(why, len, "cannot read the CPU clocks: %s", strerror(errno));
		rc = 'f';
		goto out;
	}
	wl_rec_begin(&r, "scale");
	wl_rec_str(&r, "mech", m->name);
	wl_rec_int(&r, "workers", n);
	wl_rec_int(&r, "repeat", repeat);
	wl_rec_int(&r, "calls", (long long)n * jobs * iters);
	wl_rec_num(&r, "wall_ns", t1 - t0, 0);
	wl_rec_num(&r, "cpu_ns", (double)cpu_time_self(&c0, &c1) +
		   (double)(c1.others_ns - c0.others_ns), 0);
	wl_rec_end(&r);
	rc = 0;
out:
	if (warm[1] >= 0)
		close(warm[1]);
	if (go[1] >= 0)
		close(go[1]);
	close(end[1]);		/* releases every worker, whatever happened */
	close(up[0]);
	for (i = 0; i < cr.n; i++) {
		if (cr.reaped[i])
			continue;
		if (rc)
			kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	return rc;
}

/* Every worker count, repeats times; 1 if the mechanism failed. */
static int run_mech(const struct wl_mech *m, bool threads, long iters, int jobs, int repeats)
{
	char why[200];
	int i, rep, failed = 0;

	wl_rec_mech(TOOL, m);
	for (rep = 0; rep < repeats; rep++) {
		for (i = 0; i < (int)(sizeof(workers_list) / sizeof(workers_list[0])); i++) {
			int rc, tries = 0;

			while (((rc = measure(m, workers_list[i], threads, rep, iters, jobs, why,
					      sizeof(why))) == 's' ||
				(rc == 'f' && strstr(why, SHUTDOWN))) &&
			       ++tries <= MAX_SHUTDOWNS)
				note_shutdown(m, workers_list[i], rep, why);
			if (!rc)
				continue;
			wl_rec_skip(TOOL, m->name, NULL, rc == 'm' ? "missing" : "failed", why);
			failed = rc != 'm';
			goto out;
		}
	}
out:
	/* Out between mechanisms: a boot that dies keeps what ran. */
	wl_rec_release();
	wl_rec_hold();
	fprintf(stderr, "# progress: %s\n", m->name);
	return failed;
}

int main(int argc, char **argv)
{
	int jobs = 10, repeats = 3, opt, k, failed = 0;
	const char *only = NULL;
	long iters = 200;
	struct wl_rec rec;

	while ((opt = getopt(argc, argv, "i:j:r:m:")) != -1) {
		if (opt == 'i')
			iters = atol(optarg);
		else if (opt == 'j')
			jobs = atoi(optarg);
		else if (opt == 'r')
			repeats = atoi(optarg);
		else if (opt == 'm')
			only = optarg;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	wl_rec_run(&rec, TOOL);
	wl_rec_int(&rec, "iters_per_job", iters);
	wl_rec_int(&rec, "jobs", jobs);
	wl_rec_int(&rec, "repeats", repeats);
	wl_rec_int(&rec, "cpus", sysconf(_SC_NPROCESSORS_ONLN));
	wl_rec_end(&rec);
	if (wl_make_file(FILE_PATH)) {
		wl_rec_note(TOOL, "%s: %s", FILE_PATH, strerror(errno));
		return 1;
	}
	wl_rec_note(TOOL, "workers: processes, each its own instance (a VM with one vCPU for "
		    "the VM mechanisms); hc-queue-shared: threads of one process, each its own "
		    "VM, one server thread for all; %ld CPUs", sysconf(_SC_NPROCESSORS_ONLN));
	/* Printed at the end: none is sent while a measurement runs. */
	wl_rec_hold();
	for (k = 0; k < wl_nr_mechs; k++) {
		const struct wl_mech *m = wl_mechs[k];

		if (!(m->vm || !strcmp(m->name, "native")))
			continue;
		if (wl_mech_in_list(only, m->name))
			failed |= run_mech(m, false, iters, jobs, repeats);
		if (!strcmp(m->name, "hc-queue") && wl_mech_in_list(only, "hc-queue-shared")) {
			/* The same mechanism, its rings served by one thread. */
			struct wl_mech one_server = *m;

			one_server.name = "hc-queue-shared";
			one_server.summary = "hc-queue, its workers threads of one process: "
					     "one VMM thread serves every VM's ring";
			failed |= run_mech(&one_server, true, iters, jobs, repeats);
		}
	}
	wl_rec_release();
	unlink(FILE_PATH);
	return failed;
}
