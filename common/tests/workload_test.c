// SPDX-License-Identifier: GPL-2.0
/*
 * The common workload under every mechanism, with every result checked:
 * the same guest code must get the same answers through each path as the
 * native run does, and each path must really be the one it claims (the
 * exit paths exit to the VMM once per syscall, the in-kernel one never).
 *
 * `make test` runs this on a kernel with every series applied, so a
 * mechanism that is not available is a failure there.  On a kernel without
 * the series, run it by hand with --allow-missing: such mechanisms are then
 * skipped, with the reason.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "workload.h"

#define ITERS	20
#define FILE_PATH "/tmp/workload.dat"

int main(int argc, char **argv)
{
	bool allow_missing = wl_allow_missing(argc, argv);
	int mech, op, plan = 0;
	char why[160];
	const char *what;

	ksft_print_header();
	/* Mechanisms without a VM have no bare exit; bpf needs a program. */
	for (mech = 0; mech < NR_MECHS; mech++)
		if (mech != MECH_BPF)
			plan += NR_OPS - !wl_mech_has_vm(mech);
	ksft_set_plan(plan);
	if (wl_make_file(FILE_PATH))
		ksft_exit_fail_msg("%s: %s\n", FILE_PATH, strerror(errno));

	for (mech = 0; mech < NR_MECHS; mech++) {
		struct wl_vm w;

		if (mech == MECH_BPF)
			continue;	/* bpf_hc_test, with its program */

		if (!wl_mech_available(mech, &what)) {
			for (op = !wl_mech_has_vm(mech); op < NR_OPS; op++)
				if (allow_missing)
					ksft_test_result_skip("%s %s: %s\n", wl_mech_names[mech],
							      wl_op_names[op], what);
				else
					ksft_test_result_fail("%s %s: not available: %s (--allow-missing for a kernel without the series)\n",
							      wl_mech_names[mech], wl_op_names[op], what);
			continue;
		}
		if (wl_vm_init(&w, mech, FILE_PATH, &what)) {
			for (op = !wl_mech_has_vm(mech); op < NR_OPS; op++)
				ksft_test_result_fail("%s %s: %s: %s\n", wl_mech_names[mech],
						      wl_op_names[op], what, strerror(errno));
			continue;
		}
		for (op = 0; op < NR_OPS; op++) {
			long want;

			if (!wl_mech_has_vm(mech) && op == OP_BARE)
				continue;	/* no VM, no hypercall */
			w.exits = 0;
			if (wl_run(&w, op, ITERS, why, sizeof(why))) {
				ksft_test_result_fail("%s %s: %s\n", wl_mech_names[mech],
						      wl_op_names[op], why);
				continue;
			}
			want = wl_mech_runs_calls(mech) ? (long)wl_op_calls[op] * ITERS : 0;
			ksft_test_result(w.exits == want,
					 "%s %s: %d iterations, results match native, %ld calls run by the VMM/caller\n",
					 wl_mech_names[mech], wl_op_names[op], ITERS, w.exits);
		}
		wl_vm_destroy(&w);
	}
	unlink(FILE_PATH);
	ksft_finished();
}
