/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU time every task of the guest has used: the bench process (its
 * vCPU thread and any thread a mechanism runs in it, such as hc-queue's
 * server) and every other process (stubs, tracers, supervisors, the echo
 * server, kernel threads).  Two snapshots around a sample give the CPU an
 * op costs beside its latency: a thread that spins shows.
 */
#ifndef BENCH_CPU_TIME_H
#define BENCH_CPU_TIME_H

struct cpu_time {
	long long self_first_ns; /* this process, all its threads, before... */
	long long self_last_ns;	/* ...and after the scan of the others */
	long long others_ns;	/* every other process alive now */
};

/* 0, or -1 if /proc cannot be read. */
int cpu_time_now(struct cpu_time *t);

/*
 * From @a to @b: this process's time without the scans' own (a's last
 * reading to b's first), and the others'.
 */
static inline long long cpu_time_self(const struct cpu_time *a,
				      const struct cpu_time *b)
{
	return b->self_first_ns - a->self_last_ns;
}

#endif
