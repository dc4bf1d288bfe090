// SPDX-License-Identifier: GPL-2.0
/* Counting a mechanism's events per op: see counters.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "counters.h"

const char *const wl_counter_names[NR_COUNTERS] = {
	[WC_VM_EXIT] = "vm-exits",
	[WC_USER_EXIT] = "userspace-exits",
	[WC_HYPERCALL] = "hypercalls",
	[WC_KVM_FPU] = "kvm-fpu-swaps",
	[WC_SYSCALL] = "syscalls",
	[WC_CSWITCH] = "context-switches",
	[WC_TLB] = "cr3-switches+flushes",
	[WC_SIGNAL] = "signals",
	[WC_FPU_SAVE] = "task-fpu-saves",
	[WC_VCPU_LOAD] = "vcpu-loads",
	[WC_VCPU_PUT] = "vcpu-puts",
	[WC_PREEMPT_OUT] = "preempt-notifier-outs",
	[WC_PREEMPT_IN] = "preempt-notifier-ins",
	[WC_KVM_EXITS] = "stat:exits",
	[WC_KVM_IO_EXITS] = "stat:io_exits",
	[WC_KVM_HYPERCALLS] = "stat:hypercalls",
	[WC_KVM_STATE_RELOAD] = "stat:host_state_reload",
	[WC_KVM_FPU_RELOAD] = "stat:fpu_reload",
	[WC_KVM_RUN] = "KVM_RUN-returns",
};

/* Tracepoints (system:name), kprobes (kprobe:function), KVM stats (name). */
const char *const wl_counter_sources[NR_COUNTERS] = {
	[WC_VM_EXIT] = "kvm:kvm_exit",
	[WC_USER_EXIT] = "kvm:kvm_userspace_exit",
	[WC_HYPERCALL] = "kvm:kvm_hypercall",
	[WC_KVM_FPU] = "kvm:kvm_fpu",
	[WC_SYSCALL] = "raw_syscalls:sys_enter",
	[WC_CSWITCH] = "sched:sched_switch",
	[WC_TLB] = "tlb:tlb_flush",
	[WC_SIGNAL] = "signal:signal_deliver",
	[WC_FPU_SAVE] = "x86_fpu:x86_fpu_regs_deactivated",
	[WC_VCPU_LOAD] = "kprobe:kvm_arch_vcpu_load",
	[WC_VCPU_PUT] = "kprobe:kvm_arch_vcpu_put",
	[WC_PREEMPT_OUT] = "kprobe:kvm_sched_out",
	[WC_PREEMPT_IN] = "kprobe:kvm_sched_in",
	[WC_KVM_EXITS] = "exits",
	[WC_KVM_IO_EXITS] = "io_exits",
	[WC_KVM_HYPERCALLS] = "hypercalls",
	[WC_KVM_STATE_RELOAD] = "host_state_reload",
	[WC_KVM_FPU_RELOAD] = "fpu_reload",
	[WC_KVM_RUN] = "the VMM's count",
};

#define TRACEFS	"/sys/kernel/tracing"

const char *wl_tracefs(void)
{
	struct stat st;

	if (stat(TRACEFS "/events", &st) == 0)
		return TRACEFS;
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL) == 0 &&
	    stat(TRACEFS "/events", &st) == 0)
		return TRACEFS;
	return NULL;
}

/* Counted by perf_event_open on every CPU: tracepoints and kprobes. */
static bool is_perf(int c)
{
	return c <= WC_PREEMPT_IN;
}

static bool is_kprobe(int c)
{
	return c >= WC_VCPU_LOAD && c <= WC_PREEMPT_IN;
}

static bool is_kvm_stat(int c)
{
	return c >= WC_KVM_EXITS && c <= WC_KVM_FPU_RELOAD;
}

/* The number a sysfs or tracefs file holds, or -1. */
static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static long tracepoint_id(const char *src)
{
	char path[256], sys[64];
	const char *colon = strchr(src, ':');

	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - src), src);
	snprintf(path, sizeof(path), TRACEFS "/events/%s/%s/id", sys, colon + 1);
	return read_long(path);
}

static int open_perf(struct wl_counters *wc, int c)
{
	const char *src = wl_counter_sources[c];
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(a),
	};
	int cpu;

	if (is_kprobe(c)) {
		/* The kprobe PMU's type: perf_event_open's "kprobe" source. */
		long type = read_long("/sys/bus/event_source/devices/kprobe/type");

		if (type < 0) {
			wc->why[c] = "no kprobe PMU (CONFIG_KPROBE_EVENTS)";
			return -1;
		}
		a.type = type;
		/* An entry probe (config 0) on the function, at offset 0. */
		a.kprobe_func = (uintptr_t)strchr(src, ':') + 1;
		a.probe_offset = 0;
	} else {
		a.config = tracepoint_id(src);
		if ((long)a.config < 0) {
			wc->why[c] = "tracepoint not in this kernel";
			return -1;
		}
	}
	for (cpu = 0; cpu < wc->ncpus; cpu++) {
		/* Every task on this CPU: the stubs and threads count too. */
		wc->fd[c][cpu] = syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
		if (wc->fd[c][cpu] < 0) {
			wc->why[c] = is_kprobe(c) ? "cannot probe the function" :
				     "perf_event_open failed";
			return -1;
		}
	}
	return 0;
}

/* Find the KVM stats the vCPU offers; their data offsets. */
static void open_kvm_stats(struct wl_counters *wc, struct wl_inst *w)
{
	struct kvm_stats_header h;
	size_t dsz;
	char *descs;
	uint32_t i;
	int c;

	wc->stats_fd = ioctl(w->vcpu.fd, KVM_GET_STATS_FD, NULL);
	if (wc->stats_fd < 0 || pread(wc->stats_fd, &h, sizeof(h), 0) != sizeof(h))
		goto fail;
	dsz = sizeof(struct kvm_stats_desc) + h.name_size;
	descs = calloc(h.num_desc, dsz);
	if (!descs || pread(wc->stats_fd, descs, h.num_desc * dsz, h.desc_offset) !=
	    (ssize_t)(h.num_desc * dsz)) {
		free(descs);
		goto fail;
	}
	for (i = 0; i < h.num_desc; i++) {
		struct kvm_stats_desc *d = (void *)(descs + i * dsz);

		for (c = WC_KVM_EXITS; c <= WC_KVM_FPU_RELOAD; c++)
			if (!strcmp(d->name, wl_counter_sources[c])) {
				wc->stats_off[c] = h.data_offset + d->offset;
				wc->have[c] = true;
			}
	}
	free(descs);
	for (c = WC_KVM_EXITS; c <= WC_KVM_FPU_RELOAD; c++)
		if (!wc->have[c])
			wc->why[c] = "not a KVM stat of this kernel";
	return;
fail:
	for (c = WC_KVM_EXITS; c <= WC_KVM_FPU_RELOAD; c++)
		wc->why[c] = "KVM_GET_STATS_FD failed";
}

int wl_counters_open(struct wl_counters *wc, struct wl_inst *w)
{
	int c, cpu;

	memset(wc, 0, sizeof(*wc));
	memset(wc->fd, -1, sizeof(wc->fd));
	wc->stats_fd = -1;
	wc->ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (wc->ncpus > 8)
		wc->ncpus = 8;
	if (!wl_tracefs()) {
		for (c = 0; is_perf(c); c++)
			wc->why[c] = "no tracefs";
	} else {
		for (c = 0; is_perf(c); c++) {
			/* A VM's functions: nothing to count for the others. */
			if (is_kprobe(c) && !w->mech->vm) {
				wc->why[c] = "no VM";
				continue;
			}
			if (open_perf(wc, c)) {
				for (cpu = 0; cpu < wc->ncpus; cpu++)
					if (wc->fd[c][cpu] >= 0)
						close(wc->fd[c][cpu]);
				memset(wc->fd[c], -1, sizeof(wc->fd[c]));
				continue;
			}
			wc->have[c] = true;
		}
	}
	if (w->mech->vm) {
		open_kvm_stats(wc, w);
		wc->have[WC_KVM_RUN] = true;
	} else {
		for (c = WC_KVM_EXITS; c < NR_COUNTERS; c++)
			wc->why[c] = "no VM";
	}
	return 0;
}

void wl_counters_close(struct wl_counters *wc)
{
	int c, cpu;

	for (c = 0; c < NR_COUNTERS; c++)
		for (cpu = 0; cpu < 8; cpu++)
			if (wc->fd[c][cpu] >= 0)
				close(wc->fd[c][cpu]);
	if (wc->stats_fd >= 0)
		close(wc->stats_fd);
	wc->stats_fd = -1;
}

void wl_counters_read(struct wl_counters *wc, struct wl_inst *w,
		      uint64_t v[NR_COUNTERS])
{
	int c, cpu;

	for (c = 0; c < NR_COUNTERS; c++) {
		v[c] = 0;
		if (!wc->have[c])
			continue;
		if (is_perf(c)) {
			for (cpu = 0; cpu < wc->ncpus; cpu++) {
				uint64_t n = 0;

				if (read(wc->fd[c][cpu], &n, sizeof(n)) == sizeof(n))
					v[c] += n;
			}
		} else if (is_kvm_stat(c)) {
			if (pread(wc->stats_fd, &v[c], sizeof(v[c]), wc->stats_off[c]) !=
			    sizeof(v[c]))
				v[c] = 0;
		} else {
			v[c] = w->vcpu.runs;
		}
	}
}

/*
 * Every job pays a fixed cost, and a machine-wide counter also gains other
 * tasks' events and the L1 timer's VM exits: noise that only ever adds.
 * Each job runs COUNT_ROUNDS times.  The empty job, whose count is that
 * noise and the fixed cost, stands as its least; the measured job as its
 * median, since what an op does may itself vary from run to run (whether
 * a udp-rr's recvfrom sleeps), which the least would bias low.  A single
 * empty job that caught a tick would otherwise be subtracted from the
 * measured one and make a per-op count come out low.
 */
#define COUNT_ROUNDS	3

static int count_job(struct wl_counters *wc, struct wl_inst *w, int op, long iters,
		     uint64_t out[NR_COUNTERS], char *why, size_t len)
{
	uint64_t a[NR_COUNTERS], b[NR_COUNTERS], got[COUNT_ROUNDS][NR_COUNTERS];
	int c, round, i, j;

	for (round = 0; round < COUNT_ROUNDS; round++) {
		wl_counters_read(wc, w, a);
		if (wl_run(w, op, iters, why, len))
			return -1;
		wl_counters_read(wc, w, b);
		for (c = 0; c < NR_COUNTERS; c++)
			got[round][c] = b[c] - a[c];
	}
	for (c = 0; c < NR_COUNTERS; c++) {
		uint64_t v[COUNT_ROUNDS], t;

		for (i = 0; i < COUNT_ROUNDS; i++)
			v[i] = got[i][c];
		for (i = 1; i < COUNT_ROUNDS; i++)	/* insertion sort */
			for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
				t = v[j];
				v[j] = v[j - 1];
				v[j - 1] = t;
			}
		out[c] = iters ? v[COUNT_ROUNDS / 2] : v[0];
	}
	return 0;
}

int wl_count_op(struct wl_counters *wc, struct wl_inst *w, int op, long iters,
		double per_op[NR_COUNTERS], char *why, size_t len)
{
	uint64_t c0[NR_COUNTERS], c1[NR_COUNTERS];
	int c;

	/* The empty job first: what every job pays whatever its length. */
	if (count_job(wc, w, op, 0, c0, why, len) ||
	    count_job(wc, w, op, iters, c1, why, len))
		return -1;
	for (c = 0; c < NR_COUNTERS; c++)
		per_op[c] = ((double)c1[c] - (double)c0[c]) / iters;
	return 0;
}
