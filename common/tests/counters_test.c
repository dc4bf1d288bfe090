// SPDX-License-Identifier: GPL-2.0
/*
 * The profile's counting, against counts known in advance: N getppid()
 * through KVM_HC_HOST_SYSCALL raise the vCPU's hypercall stat by exactly N
 * and give no return to the VMM; N exit-pio calls are N io exits and N
 * KVM_RUN returns; a forwarded hypercall is one of each; a native getppid
 * is one syscall; a SYSCALL_USER_DISPATCH call is one signal; a hypercall is
 * one VM exit, an exit to the VMM two guest FPU swaps (put and load), and
 * a seccomp user notification two context switches and two CR3 switches
 * (the supervisor's and back), the counters the cost model multiplies
 * (bench/model/); a KVM_RUN is one vcpu_load and one vcpu_put, and a call
 * that sleeps inside KVM_RUN one run of the preempt notifiers.  The per-op
 * figures come from wl_count_op(), the division the profile uses.
 *
 * Every thread and process the test starts runs on one CPU: with two, a
 * seccomp supervisor and its caller can each sit on their own CPU, and a
 * switch from the idle task back to the mm it left behind loads no CR3,
 * so the context-switch and CR3 counts would depend on where the
 * scheduler put them.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <string.h>

#include "kselftest.h"
#include "counters.h"

#define ITERS		50
#define FILE_PATH	"/tmp/counters.dat"

struct expect {
	const char *mech;
	int op;
	int counter;
	double want;
	bool exact;	/* a per-vCPU count; else machine-wide, may gain noise */
};

static const struct expect expects[] = {
	{ "hypercall", OP_NULL, WC_KVM_HYPERCALLS, 1, true },
	{ "hypercall", OP_NULL, WC_KVM_RUN, 0, true },
	{ "hypercall", OP_NULL, WC_HYPERCALL, 1, false },
	{ "hypercall", OP_NULL, WC_USER_EXIT, 0, false },
	{ "hypercall", OP_MIXED, WC_KVM_HYPERCALLS, 7, true },
	{ "hypercall", OP_MIXED, WC_KVM_RUN, 0, true },
	{ "exit-pio", OP_NULL, WC_KVM_IO_EXITS, 1, true },
	{ "exit-pio", OP_NULL, WC_KVM_RUN, 1, true },
	{ "exit-pio", OP_NULL, WC_KVM_HYPERCALLS, 0, true },
	{ "exit-pio", OP_BARE, WC_KVM_IO_EXITS, 1, true },
	{ "exit-hypercall", OP_NULL, WC_KVM_HYPERCALLS, 1, true },
	{ "exit-hypercall", OP_NULL, WC_KVM_RUN, 1, true },
	{ "exit-hypercall", OP_NULL, WC_USER_EXIT, 1, false },
	{ "native", OP_NULL, WC_SYSCALL, 1, false },
	{ "native", OP_MIXED, WC_SYSCALL, 7, false },
	{ "sud", OP_NULL, WC_SIGNAL, 1, false },
	/* The other counters bench/model/model.py multiplies by a cost. */
	{ "hypercall", OP_NULL, WC_VM_EXIT, 1, false },
	{ "exit-pio", OP_NULL, WC_KVM_FPU, 2, false },
	{ "seccomp-unotify", OP_NULL, WC_CSWITCH, 2, false },
	{ "seccomp-unotify", OP_NULL, WC_TLB, 2, false },
	/*
	 * vcpu_load/vcpu_put and the preempt notifiers (kprobes): every
	 * KVM_RUN loads and puts the vCPU once; a call made inside KVM_RUN
	 * loads nothing, unless it sleeps: then the notifier puts the vCPU
	 * and loads it back.  On one CPU a udp-rr transaction switches the
	 * client out exactly once (the echo server must run to reply),
	 * inside KVM_RUN for the hypercall and in the VMM for exit-pio.
	 */
	{ "exit-pio", OP_NULL, WC_VCPU_LOAD, 1, false },
	{ "exit-pio", OP_NULL, WC_VCPU_PUT, 1, false },
	{ "hypercall", OP_NULL, WC_VCPU_LOAD, 0, false },
	{ "hypercall", OP_UDP_RR, WC_PREEMPT_OUT, 1, false },
	{ "hypercall", OP_UDP_RR, WC_VCPU_LOAD, 1, false },
	{ "exit-pio", OP_UDP_RR, WC_PREEMPT_OUT, 0, false },
	{ "exit-pio", OP_UDP_RR, WC_VCPU_LOAD, 2, false },
};

#define NR_EXPECTS	(sizeof(expects) / sizeof(expects[0]))

/* Machine-wide counts may gain another task's rare event, never lose one. */
static bool close_enough(const struct expect *e, double got)
{
	if (e->exact)
		return fabs(got - e->want) < 1e-9;
	return got >= e->want - 1e-9 && got < e->want + 0.1;
}

int main(int argc, char **argv)
{
	bool allow_missing = wl_allow_missing(argc, argv), udp;
	const char *udp_what = NULL;
	int udp_err = 0;
	unsigned int i;
	cpu_set_t one;

	ksft_print_header();
	ksft_set_plan(NR_EXPECTS);
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		ksft_exit_fail_msg("sched_setaffinity: %s\n", strerror(errno));
	if (wl_make_file(FILE_PATH))
		ksft_exit_fail_msg("%s: %s\n", FILE_PATH, strerror(errno));
	/* After the pinning: the echo server shares the client's CPU. */
	udp = !wl_udp_start(1, &udp_what);
	udp_err = errno;
	for (i = 0; i < NR_EXPECTS; i++) {
		const struct expect *e = &expects[i];
		const struct wl_mech *m = wl_mech_by_name(e->mech);
		const char *what = wl_counter_names[e->counter];
		double per_op[NR_COUNTERS];
		struct wl_counters wc;
		struct wl_inst w;
		char err[160];
		int r;

		if (wl_op_is_udp(e->op) && !udp) {
			ksft_test_result_fail("%s %s: no echo server: %s: %s\n", e->mech,
					      wl_op_names[e->op], udp_what, strerror(udp_err));
			continue;
		}
		/* Idle: the counters open before the mechanism's enter hook. */
		switch (wl_open(&w, m, FILE_PATH, WL_OPEN_IDLE, err, sizeof(err))) {
		case WL_MISSING:
			if (allow_missing)
				ksft_test_result_skip("%s: %s\n", e->mech, err);
			else
				ksft_test_result_fail("%s: not available: %s\n", e->mech, err);
			continue;
		case WL_FAILED:
			ksft_test_result_fail("%s: %s\n", e->mech, err);
			continue;
		}
		wl_counters_open(&wc, &w);
		if (!wc.have[e->counter]) {
			ksft_test_result_fail("%s %s: %s not counted: %s\n", e->mech,
					      wl_op_names[e->op], what, wc.why[e->counter]);
		} else {
			r = wl_enter(&w) ? -1 :
			    wl_count_op(&wc, &w, e->op, ITERS, per_op, err, sizeof(err));
			if (r)
				ksft_test_result_fail("%s %s: %s\n", e->mech,
						      wl_op_names[e->op], err);
			else
				ksft_test_result(close_enough(e, per_op[e->counter]),
						 "%s %s: %s (%s) per op = %.3f, expected %s%g\n",
						 e->mech, wl_op_names[e->op], what,
						 wl_counter_sources[e->counter],
						 per_op[e->counter],
						 e->exact ? "exactly " : "", e->want);
		}
		wl_counters_close(&wc);
		wl_close(&w);
	}
	if (udp)
		wl_udp_stop();
	ksft_finished();
}
