/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a mechanism's cost goes, counted by the kernel itself: tracepoint
 * and kprobe counts over the whole machine (perf_event_open), the
 * vCPU's KVM binary stats (KVM_GET_STATS_FD), and the VMM's own count of
 * KVM_RUN returns.  Every figure is per op: the counts of a job of n
 * iterations minus those of an empty job (which pays the job's fixed
 * costs: entering the VM or the stub, the end-of-job exit), divided by n.
 * Used by bench/profile.c and checked by common/tests/counters_test.c.
 */
#ifndef WL_COUNTERS_H
#define WL_COUNTERS_H

#include <stdint.h>
#include "workload.h"

/* The counters, in the order of the tables. */
enum wl_counter {
	/* Tracepoints, all CPUs. */
	WC_VM_EXIT,		/* kvm:kvm_exit */
	WC_USER_EXIT,		/* kvm:kvm_userspace_exit: KVM_RUN returns */
	WC_HYPERCALL,		/* kvm:kvm_hypercall */
	WC_KVM_FPU,		/* kvm:kvm_fpu: guest FPU loaded or put */
	WC_SYSCALL,		/* raw_syscalls:sys_enter: user -> kernel by syscall */
	WC_CSWITCH,		/* sched:sched_switch */
	WC_TLB,			/* tlb:tlb_flush: CR3 switches on task switch, flushes */
	WC_SIGNAL,		/* signal:signal_deliver */
	WC_FPU_SAVE,		/* x86_fpu:x86_fpu_regs_deactivated: task FPU saved */
	/*
	 * Kprobes, all CPUs (VM mechanisms only).  KVM has no tracepoint
	 * for these: every vcpu_load()/vcpu_put() (a vCPU ioctl's, and the
	 * preempt notifier's), and the notifier's own runs, which happen
	 * only when a vCPU task is switched out or in inside a vCPU ioctl.
	 */
	WC_VCPU_LOAD,		/* kvm_arch_vcpu_load */
	WC_VCPU_PUT,		/* kvm_arch_vcpu_put */
	WC_PREEMPT_OUT,		/* kvm_sched_out: preempt notifier, switched out */
	WC_PREEMPT_IN,		/* kvm_sched_in: preempt notifier, switched in */
	/* The vCPU's KVM binary stats (VM mechanisms only). */
	WC_KVM_EXITS,		/* exits */
	WC_KVM_IO_EXITS,	/* io_exits */
	WC_KVM_HYPERCALLS,	/* hypercalls */
	WC_KVM_STATE_RELOAD,	/* host_state_reload */
	WC_KVM_FPU_RELOAD,	/* fpu_reload */
	/* The VMM's own count. */
	WC_KVM_RUN,		/* KVM_RUN calls returned */
	NR_COUNTERS
};

extern const char *const wl_counter_names[NR_COUNTERS];
/* What each counter counts, for the report's legend. */
extern const char *const wl_counter_sources[NR_COUNTERS];

struct wl_counters {
	int fd[NR_COUNTERS][8];		/* perf fds per CPU, -1 if not opened */
	int ncpus;
	int stats_fd;			/* the vCPU's KVM_GET_STATS_FD, or -1 */
	uint64_t stats_off[NR_COUNTERS];	/* offsets in the stats data */
	bool have[NR_COUNTERS];		/* counted for this mechanism */
	const char *why[NR_COUNTERS];	/* why not, if not */
};

/* Open what can be counted for w (its vCPU's stats if it has a VM). */
int wl_counters_open(struct wl_counters *wc, struct wl_inst *w);
void wl_counters_close(struct wl_counters *wc);
void wl_counters_read(struct wl_counters *wc, struct wl_inst *w,
		      uint64_t v[NR_COUNTERS]);

/*
 * Per-op counts of op on w: counts(iters) - counts(0), over iters; of a
 * few runs of each job, the empty job's least count (noise only adds) and
 * the measured job's median.  0 on success, -1 with why if a job failed.
 */
int wl_count_op(struct wl_counters *wc, struct wl_inst *w, int op, long iters,
		double per_op[NR_COUNTERS], char *why, size_t len);

/* Mount tracefs if needed: its path, or NULL. */
const char *wl_tracefs(void);

#endif
