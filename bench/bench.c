// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark, guest side (/bench/run in the QEMU guest): the common
 * workload under every available mechanism, in one boot, interleaved.
 *
 * Each sample is the mean cost of one op over ITERS back-to-back
 * iterations in one guest call; the order of the mechanisms rotates every
 * round (A B C D, B C D A, ...) so that drift in the host's load spreads
 * over all of them.  Prints raw samples as CSV between markers; the host
 * side (report.py) computes medians, percentiles and ratios.
 *
 * The bpf mechanism needs its program attached, and the hypercall
 * mechanism needs it detached (an attached program sees every VM that
 * opted in), so the program is attached around the bpf samples only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "workload.h"
#include "hc_policy.h"

#define FILE_PATH "/tmp/bench.dat"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static struct wl_vm vms[NR_MECHS];
	struct hc_policy *policy = NULL;
	unsigned int i;
	int avail[NR_MECHS], rounds = 15, opt, r, k, op, failed = 0;
	long iters = 200;
	struct utsname u;
	const char *why;
	char err[160];

	while ((opt = getopt(argc, argv, "r:i:")) != -1) {
		if (opt == 'r')
			rounds = atoi(optarg);
		else if (opt == 'i')
			iters = atol(optarg);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	uname(&u);
	printf("# bench: guest kernel %s, %d rounds x %ld iterations per sample\n",
	       u.release, rounds, iters);
	if (wl_make_file(FILE_PATH)) {
		printf("# bench: %s: %s\n", FILE_PATH, strerror(errno));
		return 1;
	}
	for (k = 0; k < NR_MECHS; k++) {
		avail[k] = wl_mech_available(k, &why);
		if (!avail[k]) {
			printf("# bench: %s skipped: %s\n", wl_mech_names[k], why);
			continue;
		}
		if (k == MECH_BPF) {
			policy = hc_policy_load();
			if (!policy) {
				printf("# bench: bpf: cannot load the program: %s\n",
				       strerror(errno));
				return 1;
			}
			for (i = 0; i < wl_nr_syscalls; i++)
				hc_policy_set(policy, wl_syscall_nrs[i], HCP_KERNEL);
		}
		if (wl_vm_init(&vms[k], k, FILE_PATH, &why)) {
			printf("# bench: %s: %s: %s\n", wl_mech_names[k], why,
			       strerror(errno));
			return 1;
		}
		/* Warm up: fault in pages, fill caches. */
		if (k == MECH_BPF && hc_policy_attach(policy))
			return 1;
		for (op = 0; op < NR_OPS; op++)
			if (wl_mech_has_vm(k) || op != OP_BARE)
				wl_run(&vms[k], op, 10, err, sizeof(err));
		if (k == MECH_BPF)
			hc_policy_detach(policy);
	}

	printf("BEGIN-CSV\nmech,op,round,ns_per_op\n");
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < NR_MECHS; k++) {
			int mech = (r + k) % NR_MECHS;

			if (!avail[mech])
				continue;
			if (mech == MECH_BPF && hc_policy_attach(policy)) {
				printf("# bench: bpf: attach failed\n");
				return 1;
			}
			for (op = 0; op < NR_OPS; op++) {
				double t0, t1;

				if (!wl_mech_has_vm(mech) && op == OP_BARE)
					continue;
				t0 = now_ns();
				if (wl_run(&vms[mech], op, iters, err, sizeof(err))) {
					printf("# bench: %s %s: %s\n", wl_mech_names[mech],
					       wl_op_names[op], err);
					failed = 1;
					continue;
				}
				t1 = now_ns();
				printf("%s,%s,%d,%.1f\n", wl_mech_names[mech],
				       wl_op_names[op], r, (t1 - t0) / iters);
			}
			if (mech == MECH_BPF)
				hc_policy_detach(policy);
		}
		fprintf(stderr, "# progress: round %d/%d\n", r + 1, rounds);
	}
	printf("END-CSV\n");
	for (k = 0; k < NR_MECHS; k++)
		if (avail[k])
			wl_vm_destroy(&vms[k]);
	if (policy)
		hc_policy_destroy(policy);
	unlink(FILE_PATH);
	return failed;
}
