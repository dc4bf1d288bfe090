// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark, guest side (/bench/run in the QEMU guest): the common
 * workload under every available mechanism of the list, in one boot,
 * interleaved.
 *
 * Each sample is the mean cost of one op over ITERS back-to-back
 * iterations in one guest call; the order of the mechanisms rotates every
 * round (A B C D, B C D A, ...) so that drift in the host's load spreads
 * over all of them.  A mechanism's enter/leave hooks bracket its samples
 * in each round (bpf's program is attached only then, hc-queue's thread
 * spins only then).  Prints one MECH line per mechanism and the raw
 * samples as CSV between markers; the host side (report.py) computes
 * medians, percentiles and ratios.
 *
 *   run [-r ROUNDS] [-i ITERS] [-s UDP_RR_BYTES] [-m MECHS] [-d]
 * -d: a deterministic (-icount) boot: the mechanisms whose figure means
 * nothing there (wl_mech.icount_na) are listed but not run.
 * -m: only these mechanisms, by name, joined by '+' (default: all).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "workload.h"

#define FILE_PATH "/tmp/bench.dat"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One round of one mechanism: every op, one sample each; 0 if all ran. */
static int sample(struct wl_inst *w, int round, long iters)
{
	const struct wl_mech *m = w->mech;
	int op, failed = 0;
	char err[160];

	if (wl_enter(w)) {
		printf("# bench: %s: enter: %s\n", m->name, strerror(errno));
		return 1;
	}
	for (op = 0; op < NR_BENCH_OPS; op++) {
		long long s0 = 0, s1;
		double t0, t1;

		if (!wl_op_applies(m, op))
			continue;
		if (wl_op_is_udp(op)) {
			if (!wl_udp.pid)
				continue;	/* no echo server: said once, at the start */
			s0 = wl_udp_server_ns();
		}
		t0 = now_ns();
		if (wl_run(w, op, iters, err, sizeof(err))) {
			printf("# bench: %s %s: %s\n", m->name, wl_op_names[op], err);
			failed = 1;
			continue;
		}
		t1 = now_ns();
		if (round < 0)
			continue;
		printf("%s,%s,%d,%.1f\n", m->name, wl_op_names[op], round,
		       (t1 - t0) / iters);
		/* The echo server's own CPU time per transaction, apart. */
		s1 = wl_op_is_udp(op) ? wl_udp_server_ns() : -1;
		if (s0 >= 0 && s1 >= 0 && wl_op_is_udp(op))
			printf("SERVER,%s,%s,%d,%.1f\n", m->name, wl_op_names[op], round,
			       (double)(s1 - s0) / iters);
	}
	wl_leave(w);
	return failed;
}

int main(int argc, char **argv)
{
	struct wl_inst *vms = calloc(wl_nr_mechs, sizeof(*vms));
	int *avail = calloc(wl_nr_mechs, sizeof(*avail));
	int rounds = 15, opt, r, k, i, failed = 0;
	unsigned int rr_size = 1;
	bool deterministic = false;
	long iters = 200;
	struct utsname u;
	const char *what, *only = NULL;
	char why[256];

	while ((opt = getopt(argc, argv, "r:i:ds:m:")) != -1) {
		if (opt == 'm')
			only = optarg;
		else if (opt == 's')
			rr_size = atoi(optarg);	/* udp-rr's payload, netperf -r */
		else if (opt == 'r')
			rounds = atoi(optarg);
		else if (opt == 'i')
			iters = atol(optarg);
		else if (opt == 'd')
			deterministic = true;	/* an -icount boot */
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	uname(&u);
	printf("# bench: guest kernel %s, %d rounds x %ld iterations per sample\n",
	       u.release, rounds, iters);
	if (!vms || !avail || wl_make_file(FILE_PATH)) {
		printf("# bench: %s: %s\n", FILE_PATH, strerror(errno));
		return 1;
	}
	if (wl_udp_start(rr_size, &what))
		printf("# bench: udp-rr not run: %s: %s\n", what, strerror(errno));
	else
		printf("# bench: udp-rr: %u-byte request and reply (udp-rr-1K: 1024), echo server on %s\n",
		       wl_udp.size, wl_udp.note);
	for (i = 0; i < NR_WL_PROPS; i++)
		printf("PROP\t%d\t%s\n", i, wl_prop_titles[i]);
	for (k = 0; k < wl_nr_mechs; k++) {
		const struct wl_mech *m = wl_mechs[k];

		if (!wl_mech_in_list(only, m->name))
			continue;
		/* name|vm|icount-na reason: what the report needs of the list */
		printf("MECH|%s|%d|%s|%s\n", m->name, m->vm, m->icount_na ?: "",
		       m->summary);
		/* Its facts, for REPORT.md's matrix (tabs: a test holds a |). */
		for (i = 0; i < NR_WL_PROPS; i++)
			printf("FACT\t%s\t%d\t%s\t%s\t%s\n", m->name, i,
			       m->facts[i].answer ?: "", m->facts[i].test ?: "",
			       m->facts[i].design ?: "");
		if (deterministic && m->icount_na) {
			/* Its figure would mean nothing, and spinning is slow here. */
			printf("# bench: %s not run under -icount: %s\n", m->name,
			       m->icount_na);
			continue;
		}
		/* Idle: sample() enters and leaves around each round. */
		switch (wl_open(&vms[k], m, FILE_PATH, WL_OPEN_IDLE, why, sizeof(why))) {
		case WL_MISSING:
			printf("# bench: %s skipped: %s\n", m->name, why);
			continue;
		case WL_FAILED:
			printf("# bench: %s: %s\n", m->name, why);
			return 1;
		}
		avail[k] = 1;
		/* Warm up: fault in pages, fill caches. */
		if (sample(&vms[k], -1, 10))
			return 1;
	}

	printf("BEGIN-CSV\nmech,op,round,ns_per_op\n");
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < wl_nr_mechs; k++) {
			int mech = (r + k) % wl_nr_mechs;

			if (avail[mech])
				failed |= sample(&vms[mech], r, iters);
		}
		fprintf(stderr, "# progress: round %d/%d\n", r + 1, rounds);
	}
	printf("END-CSV\n");
	for (k = 0; k < wl_nr_mechs; k++)
		if (avail[k])
			wl_close(&vms[k]);
	wl_udp_stop();
	unlink(FILE_PATH);
	return failed;
}
