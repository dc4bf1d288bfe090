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
 * spins only then).  Prints records (common/workload/record.h): one "mech"
 * per mechanism, a "skip" for one that does not run, and one "sample" per
 * mechanism, op and round (ns_per_op, or insns_per_op in a -d boot, where
 * guest time counts instructions), held until the last round; the host
 * side (report.py, through common/py/guestlog.py) computes medians,
 * percentiles and ratios.
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

#include "cpu_time.h"
#include "record.h"
#include "workload.h"

#define FILE_PATH "/tmp/bench.dat"
#define TOOL "bench"

/* A -d boot: guest time is instructions (QEMU -icount shift=0). */
static bool deterministic;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void emit_sample(const char *type, const char *mech, int op, int round,
			double per_op)
{
	struct wl_rec r;

	wl_rec_begin(&r, type);
	wl_rec_str(&r, "mech", mech);
	wl_rec_str(&r, "op", wl_op_names[op]);
	wl_rec_int(&r, "round", round);
	wl_rec_num(&r, deterministic ? "insns_per_op" : "ns_per_op", per_op, 1);
	wl_rec_end(&r);
}

/*
 * The CPU the op took, summed over every task, beside its latency: the
 * bench process (the vCPU thread, a server thread) and all the others
 * (stubs, tracers, supervisors, the echo server, kernel threads).
 */
static void emit_cpu(const char *mech, int op, int round, long iters,
		     const struct cpu_time *a, const struct cpu_time *b)
{
	struct wl_rec r;

	wl_rec_begin(&r, "cpu_sample");
	wl_rec_str(&r, "mech", mech);
	wl_rec_str(&r, "op", wl_op_names[op]);
	wl_rec_int(&r, "round", round);
	wl_rec_num(&r, "self_ns_per_op", (double)cpu_time_self(a, b) / iters, 1);
	wl_rec_num(&r, "others_ns_per_op", (double)(b->others_ns - a->others_ns) / iters, 1);
	wl_rec_end(&r);
}

/* One round of one mechanism: every op, one sample each; 0 if all ran. */
static int sample(struct wl_inst *w, int round, long iters)
{
	const struct wl_mech *m = w->mech;
	int op, failed = 0;
	char err[160];

	if (wl_enter(w)) {
		snprintf(err, sizeof(err), "enter: %s", strerror(errno));
		wl_rec_skip(TOOL, m->name, NULL, "failed", err);
		return 1;
	}
	for (op = 0; op < NR_BENCH_OPS; op++) {
		struct cpu_time c0, c1;
		long long s0 = 0, s1;
		bool cpu = false;
		double t0, t1;

		if (!wl_op_applies(m, op))
			continue;
		if (wl_op_is_udp(op)) {
			if (!wl_udp.pid)
				continue;	/* no echo server: said once, at the start */
			s0 = wl_udp_server_ns();
		}
		/* Wall-clock boots only: under -icount CPU time is the path. */
		if (!deterministic && round >= 0)
			cpu = !cpu_time_now(&c0);
		t0 = now_ns();
		if (wl_run(w, op, iters, err, sizeof(err))) {
			wl_rec_skip(TOOL, m->name, wl_op_names[op], "failed", err);
			failed = 1;
			continue;
		}
		t1 = now_ns();
		if (cpu && !cpu_time_now(&c1))
			emit_cpu(m->name, op, round, iters, &c0, &c1);
		if (round < 0)
			continue;
		emit_sample("sample", m->name, op, round, (t1 - t0) / iters);
		/* The echo server's own CPU time per transaction, apart. */
		s1 = wl_op_is_udp(op) ? wl_udp_server_ns() : -1;
		if (s0 >= 0 && s1 >= 0 && wl_op_is_udp(op))
			emit_sample("server_sample", m->name, op, round,
				    (double)(s1 - s0) / iters);
	}
	wl_leave(w);
	return failed;
}

/*
 * The bench kernel's VMMCALL skip (bench/patches): whether L1 KVM skips a
 * VMMCALL by its length, as NRIP would, or decodes it (TCG has no NRIP).
 * Said in a note, which the report checks before it calls a run
 * artefact-free.
 */
static void note_vmmcall_skip(void)
{
	FILE *f = fopen("/sys/module/kvm_amd/parameters/bench_vmmcall_skip", "r");
	char v[8] = "";

	if (!f)
		return;
	if (fgets(v, sizeof(v), f))
		v[strcspn(v, "\n")] = 0;
	fclose(f);
	wl_rec_note(TOOL, "kvm_amd.bench_vmmcall_skip=%s: %s", v,
		    v[0] == 'Y' ? "VMMCALL skipped by its length, as NRIP save would"
				: "VMMCALL decoded by KVM (no NRIP save under TCG)");
}

int main(int argc, char **argv)
{
	struct wl_inst *vms = calloc(wl_nr_mechs, sizeof(*vms));
	int *avail = calloc(wl_nr_mechs, sizeof(*avail));
	int rounds = 15, opt, r, k, failed = 0;
	unsigned int rr_size = 1;
	long iters = 200;
	const char *what, *only = NULL;
	struct wl_rec rec;
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
	wl_rec_run(&rec, TOOL);
	wl_rec_int(&rec, "rounds", rounds);
	wl_rec_int(&rec, "iters_per_sample", iters);
	wl_rec_bool(&rec, "deterministic", deterministic);
	wl_rec_str(&rec, "unit", deterministic ? "insns" : "ns");
	wl_rec_end(&rec);
	if (!vms || !avail || wl_make_file(FILE_PATH)) {
		wl_rec_note(TOOL, "%s: %s", FILE_PATH, strerror(errno));
		return 1;
	}
	note_vmmcall_skip();
	if (wl_udp_start(rr_size, &what))
		wl_rec_note(TOOL, "udp-rr not run: %s: %s", what, strerror(errno));
	else
		wl_rec_note(TOOL, "udp-rr: %u-byte request and reply (udp-rr-1K: 1024), echo server on %s",
			    wl_udp.size, wl_udp.note);
	for (k = 0; k < wl_nr_mechs; k++) {
		const struct wl_mech *m = wl_mechs[k];

		if (!wl_mech_in_list(only, m->name))
			continue;
		wl_rec_mech(TOOL, m);
		if (deterministic && m->icount_na) {
			/* Its figure would mean nothing, and spinning is slow here. */
			wl_rec_skip(TOOL, m->name, NULL, "n/a", m->icount_na);
			continue;
		}
		/* Idle: sample() enters and leaves around each round. */
		switch (wl_open(&vms[k], m, FILE_PATH, WL_OPEN_IDLE, why, sizeof(why))) {
		case WL_MISSING:
			wl_rec_skip(TOOL, m->name, NULL, "missing", why);
			continue;
		case WL_FAILED:
			wl_rec_skip(TOOL, m->name, NULL, "failed", why);
			return 1;
		}
		avail[k] = 1;
		/* Warm up: fault in pages, fill caches. */
		if (sample(&vms[k], -1, 10))
			return 1;
	}

	/* Printed after the last round (record.h: wl_rec_hold()). */
	wl_rec_hold();
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < wl_nr_mechs; k++) {
			int mech = (r + k) % wl_nr_mechs;

			if (avail[mech])
				failed |= sample(&vms[mech], r, iters);
		}
		fprintf(stderr, "# progress: round %d/%d\n", r + 1, rounds);
	}
	wl_rec_release();
	for (k = 0; k < wl_nr_mechs; k++)
		if (avail[k])
			wl_close(&vms[k]);
	wl_udp_stop();
	unlink(FILE_PATH);
	return failed;
}
