// SPDX-License-Identifier: GPL-2.0
/*
 * The common workload under every mechanism of the list, with every result
 * checked: the same code must get the same answers through each path as
 * the native run does, each path must really be the one it claims (a
 * mechanism whose runner runs the calls ran each of them, the in-kernel
 * ones none), and bad calls (an unknown number, a buffer nobody maps) get
 * the same defined errors everywhere.  A mechanism with a stub process is
 * also run with its stub killed in the middle of a long job: the run must
 * report it, not hang, and a new instance must work after it.
 *
 * `make test` runs this on a kernel with every series applied, so a
 * mechanism that is not available is a failure there.  On a kernel without
 * the series, run it by hand with --allow-missing: such mechanisms are then
 * skipped, with the reason.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "workload.h"

#define ITERS		20
#define RR_ITERS	200	/* udp-rr transactions, each reply checked */
#define KILL_AFTER_MS	300
#define FILE_PATH	"/tmp/workload.dat"

static int plan_for(const struct wl_mech *m)
{
	/* the kill test and the run after it; udp-rr with no server */
	int op, n = (m->stub ? 2 : 0) + 1;

	for (op = 0; op < NR_ALL_OPS; op++)
		n += wl_op_applies(m, op);
	return n;
}

static void fail_all(const struct wl_mech *m, bool skip, const char *fmt,
		     const char *what)
{
	int i, n = plan_for(m);

	for (i = 0; i < n; i++)
		if (skip)
			ksft_test_result_skip("%s: %s\n", m->name, what);
		else
			ksft_test_result_fail(fmt, m->name, what);
}

static void run_ops(const struct wl_mech *m, struct wl_inst *w)
{
	char why[160];
	int op;

	for (op = 0; op < NR_ALL_OPS; op++) {
		long want;

		if (!wl_op_applies(m, op))
			continue;
		long iters = wl_op_is_udp(op) ? RR_ITERS : ITERS;

		w->exits = w->fallbacks = 0;
		if (wl_run(w, op, iters, why, sizeof(why))) {
			ksft_test_result_fail("%s %s: %s\n", m->name, wl_op_names[op], why);
			continue;
		}
		want = m->runs_calls ? (long)wl_op_calls[op] * iters : 0;
		/* Where an unknown call goes is policy (bpf sends it to the VMM). */
		if (op == OP_BAD)
			want = w->exits;
		ksft_test_result(w->exits == want,
				 "%s %s: %ld iterations, results as native, %ld of %ld calls run by the runner (%ld fallback exits)\n",
				 m->name, wl_op_names[op], iters, w->exits, want,
				 w->fallbacks);
	}
}

static void *killer(void *arg)
{
	struct wl_inst *w = arg;
	pid_t stub = w->stub;
	struct timespec ts = { 0, KILL_AFTER_MS * 1000000L };

	nanosleep(&ts, NULL);
	kill(stub, SIGKILL);
	return NULL;
}

/* Kill the stub in the middle of a job that would take minutes. */
static void kill_stub(const struct wl_mech *m, const char *file)
{
	struct wl_inst w;
	pthread_t t;
	char why[160] = "";
	int r;

	if (wl_open(&w, m, file, WL_OPEN_IDLE, why, sizeof(why))) {
		ksft_test_result_fail("%s: stub killed mid-op: %s\n", m->name, why);
		ksft_test_result_fail("%s: a new instance after the killed one\n", m->name);
		return;
	}
	if (w.stub <= 0 || pthread_create(&t, NULL, killer, &w)) {
		ksft_test_result_fail("%s: stub killed mid-op: no stub to kill\n", m->name);
	} else {
		r = wl_run(&w, OP_MIXED, 10 * 1000 * 1000, why, sizeof(why));
		pthread_join(t, NULL);
		ksft_test_result(r == -1 && why[0],
				 "%s: stub killed mid-op: the run ends and says \"%s\"\n",
				 m->name, why);
	}
	wl_close(&w);

	r = wl_open(&w, m, file, WL_OPEN_IDLE, why, sizeof(why)) ? -1 :
		wl_run(&w, OP_MIXED, ITERS, why, sizeof(why));
	ksft_test_result(!r, "%s: a new instance after the killed one runs mixed (%s)\n",
			 m->name, r ? why : "ok");
	wl_close(&w);
}

/* udp-rr once the echo server is gone: ECONNREFUSED, said as such. */
static void no_server(const struct wl_mech *m, const char *file)
{
	char why[160] = "";
	struct wl_inst w;
	int r;

	if (wl_open(&w, m, file, 0, why, sizeof(why))) {
		ksft_test_result_fail("%s udp-rr, no server: %s\n", m->name, why);
		return;
	}
	r = wl_run(&w, OP_UDP_RR, RR_ITERS, why, sizeof(why));
	ksft_test_result(r == -1 && strstr(why, "Connection refused"),
			 "%s udp-rr, no server: the run ends with \"%s\"\n", m->name, why);
	wl_close(&w);
}

int main(int argc, char **argv)
{
	bool allow_missing = wl_allow_missing(argc, argv);
	const char *what;
	int i, plan = 0;

	ksft_print_header();
	for (i = 0; i < wl_nr_mechs; i++)
		plan += plan_for(wl_mechs[i]);
	ksft_set_plan(plan);
	if (wl_make_file(FILE_PATH))
		ksft_exit_fail_msg("%s: %s\n", FILE_PATH, strerror(errno));
	if (wl_udp_start(1, &what))
		ksft_print_msg("udp-rr: no echo server: %s: %s\n", what, strerror(errno));
	else
		ksft_print_msg("udp-rr: echo server on %s, pid %d\n", wl_udp.note, wl_udp.pid);

	for (i = 0; i < wl_nr_mechs; i++) {
		const struct wl_mech *m = wl_mechs[i];
		struct wl_inst w;
		char why[256];

		ksft_print_msg("%s: %s\n", m->name, m->summary);
		switch (wl_open(&w, m, FILE_PATH, 0, why, sizeof(why))) {
		case WL_MISSING:
			fail_all(m, allow_missing,
				 "%s: not available: %s (--allow-missing for a kernel without the series)\n",
				 why);
			continue;
		case WL_FAILED:
			fail_all(m, false, "%s: set-up failed: %s\n", why);
			continue;
		}
		run_ops(m, &w);
		wl_close(&w);
		if (m->stub)
			kill_stub(m, FILE_PATH);
	}
	wl_udp_stop();
	for (i = 0; i < wl_nr_mechs; i++) {
		const struct wl_mech *m = wl_mechs[i];

		if (!m->available(&what)) {
			if (allow_missing)
				ksft_test_result_skip("%s: %s\n", m->name, what);
			else
				ksft_test_result_fail("%s udp-rr, no server: not available: %s\n",
						      m->name, what);
			continue;
		}
		no_server(m, FILE_PATH);
	}
	unlink(FILE_PATH);
	ksft_finished();
}
