// SPDX-License-Identifier: GPL-2.0
/*
 * CPU time by process clocks (clock_getcpuclockid()): the scheduler's
 * sum_exec_runtime of each thread group, to the nanosecond, readable for
 * any process.  A process that exits between two snapshots takes its time
 * with it; the bench's helpers live as long as their mechanism's session.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cpu_time.h"

static long long clock_ns(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts))
		return -1;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int cpu_time_now(struct cpu_time *t)
{
	pid_t self = getpid();
	struct dirent *e;
	DIR *d;

	/* First, so that opening /proc is outside the sample it ends. */
	t->self_first_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	d = opendir("/proc");
	if (!d)
		return -1;
	t->others_ns = 0;
	while ((e = readdir(d))) {
		clockid_t c;
		long long ns;
		pid_t pid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = atoi(e->d_name);
		if (pid == self || clock_getcpuclockid(pid, &c))
			continue;
		ns = clock_ns(c);
		if (ns > 0)
			t->others_ns += ns;
	}
	closedir(d);
	t->self_last_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	return t->self_first_ns < 0 || t->self_last_ns < 0 ? -1 : 0;
}
