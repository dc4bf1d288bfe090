// SPDX-License-Identifier: GPL-2.0
/*
 * Where the cost goes, guest side (/bench/profile in the QEMU guest), for
 * every mechanism of the list and each op of ops[] below.
 *
 *   profile -c [-i ITERS] [-m MECHS]	event counts per op (profile.h), any boot
 *   profile -p [-i ITERS] [-m MECHS]	the kernel path per op, in an -icount boot
 * MECHS: the mechanisms to run, by name, joined by '+' (default: all).
 *
 * The path is sampled, as `perf record -e cpu-clock` would: a cpu-clock
 * event on every CPU samples the instruction pointer every 10 us (the
 * kernel's floor for that event), and under -icount shift=0 10 us is 10,000
 * guest instructions, so a sample stands for the same amount of work
 * wherever it lands.  A sample says where the CPU was: user mode (the VMM,
 * a stub, or the code itself without a VM), the guest (KVM tells perf when
 * the interrupt came from guest mode), or a kernel function (/proc/kallsyms).
 * An hrtimer cannot interrupt code that runs with interrupts off, so such
 * code is counted where they come back on: KVM's entry and exit around
 * VMRUN runs with them off and re-enables them flagged as handling an
 * interrupt from the guest, so it is counted with the guest.
 * Kernel functions are put in buckets by name (buckets[]); the first
 * matching bucket wins.  A bucket's figure is its share of the samples
 * times the op's unprofiled path length, measured in the same boot (the
 * sampling interrupt's own work is not sampled, so it does not bias the
 * shares).  Each figure is per op: a job of ITERS iterations minus an
 * empty job.  Prints CSV for bench/profile_report.py.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "counters.h"

#define FILE_PATH	"/tmp/profile.dat"
#define PERIOD_NS	10000
#define RING_PAGES	512		/* 2 MiB of samples per CPU */
#define MAX_CPUS	8
#define TOP		12
/* Work per sampled chunk: 1.5M instructions, ~100 samples. */
#define SAMPLE_INSNS	1500000.0

static const int ops[] = { OP_BARE, OP_NULL, OP_MIXED };

/*
 * Kernel functions by name, first match wins: exact names, or prefixes
 * ending in '*'.  Where a name says little (copy_*, fput...), it goes with
 * what most of the workload's syscalls do with it: the syscall body.
 */
struct bucket {
	const char *name;
	const char *match[80];
};

static const struct bucket buckets[] = {
	{ "VM entry and exit", { "svm_vcpu_run", "svm_vcpu_enter_exit", "__svm_vcpu_run",
		"vmx_vcpu_run", "vmx_vcpu_enter_exit", "__vmx_vcpu_run",
		"svm_prepare_switch_to_guest", "vmx_prepare_switch_to_guest",
		"svm_prepare_host_switch", "svm_vcpu_load", "svm_vcpu_put", "vcpu_load",
		"vcpu_put", "kvm_arch_vcpu_load", "kvm_arch_vcpu_put", "fpu_swap_kvm_fpstate",
		"kvm_load_guest_fpu", "kvm_put_guest_fpu", "kvm_load_host_xsave_state",
		"kvm_load_guest_xsave_state", "save_fpregs_to_fpstate", "restore_fpregs_from_fpstate",
		"os_xsave", "os_xrstor*", "xsave*", "xrstor*", "vcpu_enter_guest", NULL } },
	{ "seccomp", { "seccomp*", "__secure_computing*", "__seccomp*", "populate_seccomp_data",
		"bpf_prog_run*", NULL } },
	/*
	 * JIT-compiled code lies past the kernel image, so its nearest symbol
	 * is the image's last: the BPF verdict program and its trampoline, and
	 * the seccomp filters (classic BPF, JIT-compiled too).
	 */
	{ "BPF programs (verdict, or JIT seccomp filter)", { "bpf_*", "__bpf_*",
		"kvm_hc_host_syscall_bpf", "_einittext", "_etext", NULL } },
	{ "process_vm_exec", { "*process_vm_exec*", "pvm_*",
		"x86_gsbase*", "x86_fsbase*", "do_arch_prctl_64", "__ptrace_may_access",
		"mm_access", NULL } },
	{ "ptrace", { "ptrace*", "__x64_sys_ptrace", "__x64_sys_wait4", "do_wait*",
		"wait_consider_task", "wait_task*", "kernel_wait4", "arch_ptrace",
		"do_notify_parent_cldstop", "genregs_*", "getreg", "putreg", "*regset*",
		"__ptrace*", NULL } },
	{ "signals", { "*signal*", "setup_rt_frame", "x64_setup_rt_frame", "restore_sigcontext",
		"__x64_sys_rt_sigreturn", "copy_fpstate_to_sigframe", "fpu__restore_sig", "__fpu_restore_sig*",
		"__fpu_restore_sig", "get_sigframe", "force_sig*", "send_sig*", "__send_signal*",
		"complete_signal", "dequeue_signal", "collect_signal", "copy_siginfo*", NULL } },
	{ "futex and wake-ups", { "futex*", "__futex*", "get_futex_key", "gup_fast*",
		"get_user_pages*", "try_to_wake_up",
		"ttwu*", "wake_up*", "__wake_up*", "autoremove_wake_function", NULL } },
	{ "scheduler and context switch", { "__schedule", "schedule*", "finish_task_switch*",
		"__switch_to*", "switch_mm*", "pick_next*", "dequeue_*", "enqueue_*", "update_curr*",
		"put_prev*", "set_next*", "check_preempt*", "resched_curr", "select_task_rq*",
		"update_load*", "update_cfs*", "__update_load*", "reweight*", "sched_*",
		"psi_*", "load_new_mm_cr3", "native_write_cr3", "cpuacct*", "rcu_note*", NULL } },
	{ "the hypercall's runner", { "kvm_pv_host_syscall*", "kvm_host_syscall*",
		"kvm_hc_*", NULL } },
	{ "KVM exit handling", { "kvm*", "__kvm*", "svm_*", "vmx_*", "nested_*", "x86_emulate*",
		"x86_decode*", "em_*", "emulator_*", "decode_*", "complete_*pio*", "kernel_pio",
		"pio_*", "handle_exit", "io_interception", "vmmcall_interception",
		"kvm_emulate*", "init_emulate_ctxt", "writeback", "x86_*insn*", "__x86_*insn*",
		"paging64_*", "mmu_*", "__get_user*", "copy_from_user*", "_copy_from_user",
		"kvm_read_guest*", "*memslot*", "*gfn_to_*", "__gfn*", "trace_kvm*", "hva_*",
		"*_interception", NULL } },
	{ "VMM's syscalls (ioctl / poll)", { "__x64_sys_ioctl", "__x64_sys_poll", "do_sys_poll",
		"do_poll*", "seccomp_notify*", "__fdget", "__fget*", "fdget*", "security_file_ioctl",
		NULL } },
	{ "syscall entry and exit", { "entry_SYSCALL*", "do_syscall_64", "x64_sys_call",
		"syscall_*", "exit_to_user_mode*", "arch_exit_to_user_mode*",
		"syscall_exit_to_user_mode*", "fpregs_restore_userregs", "switch_fpu_return",
		"__rseq_handle_notify_resume", "rseq*", "irqentry*", "error_entry", NULL } },
	{ "syscall body", { "__x64_sys_*", "ksys_*", "vfs_*", "pipe_*", "anon_pipe*", "filemap_*",
		"copy_page_*", "_copy_to_iter", "copy_to_user*", "rep_movs_alternative",
		"__task_pid_nr_ns", "do_sys_*", "do_filp_open", "path_*", "link_path_walk",
		"walk_component", "lookup_*", "d_*", "__d_*", "dput", "mntput*", "open_last_lookups",
		"do_open", "do_dentry_open", "alloc_fd", "fd_install", "file_close_fd*", "filp_close",
		"fput*", "__fput*", "task_work_run", "getname*", "putname", "kmem_cache_*",
		"kfree", "__kmalloc*", "inode_*", "generic_*", "security_*", "shmem_*", "touch_atime",
		"atime_needs_update", "cp_new_stat", "vfs_fstat", "__do_sys_*", "fsnotify*",
		"__fsnotify*", "rw_verify_area", "strncpy_from_user", "memcpy*", "memset*",
		"alloc_empty_file", "init_file", "file_*", "__alloc_file", "fdget_pos",
		"mutex_*", "__mutex*", "_raw_spin*", "rcu_read*", "__rcu_read*", "xas_*", NULL } },
	{ "interrupts and timers", { "*irq*", "*hrtimer*", "tick_*", "__sysvec*", "sysvec*",
		"timekeeping*", "update_process_times", "scheduler_tick", "account_*", "native_apic*",
		"lapic_*", "clockevents*", NULL } },
};
#define NR_BUCKETS	(sizeof(buckets) / sizeof(buckets[0]))

/* The functions the posting's perf trace named: their own rows. */
static const char *const named[] = {
	"svm_prepare_switch_to_guest", "vmx_prepare_switch_to_guest",
	"fpu_swap_kvm_fpstate", "vcpu_put", "syscall_exit_to_user_mode",
};
#define NR_NAMED	(sizeof(named) / sizeof(named[0]))

/* Not a kernel function: the first two columns of every table. */
enum { W_USER, W_GUEST, W_OTHER_KERNEL, NR_WHERE };

struct sym {
	unsigned long addr;
	const char *name;
};

static struct sym *syms;
static size_t nsyms;

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_kallsyms(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t cap = 0;
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long a;
		char t, name[256];

		if (sscanf(line, "%lx %c %255s", &a, &t, name) != 3 || !a ||
		    (t != 't' && t != 'T'))
			continue;
		if (nsyms == cap) {
			cap = cap ? 2 * cap : 65536;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				return -1;
		}
		syms[nsyms].addr = a;
		syms[nsyms++].name = strdup(name);
	}
	fclose(f);
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
	return nsyms ? 0 : -1;
}

static long sym_index(unsigned long ip)
{
	size_t lo = 0, hi = nsyms;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	return nsyms && syms[lo].addr <= ip ? (long)lo : -1;
}

static bool name_matches(const char *pat, const char *name)
{
	size_t n = strlen(pat);

	if (pat[0] == '*' && pat[n - 1] == '*') {
		char mid[64];

		snprintf(mid, sizeof(mid), "%.*s", (int)(n - 2), pat + 1);
		return strstr(name, mid) != NULL;
	}
	if (pat[n - 1] == '*')
		return !strncmp(pat, name, n - 1);
	return !strcmp(pat, name);
}

/* NR_WHERE + bucket, or W_OTHER_KERNEL. */
static int classify(const char *name)
{
	unsigned int b, i;

	for (b = 0; b < NR_BUCKETS; b++)
		for (i = 0; buckets[b].match[i]; i++)
			if (name_matches(buckets[b].match[i], name))
				return NR_WHERE + b;
	return W_OTHER_KERNEL;
}

struct sampler {
	int fd[MAX_CPUS];
	struct perf_event_mmap_page *ring[MAX_CPUS];
	int ncpus;
	uint64_t lost;
};

struct tally {
	uint64_t where[NR_WHERE + NR_BUCKETS];
	uint64_t *per_sym;	/* nsyms counters */
	uint64_t samples;
};

static int sampler_open(struct sampler *s)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = PERIOD_NS,
		.sample_type = PERF_SAMPLE_IP,
		.disabled = 1,
	};
	int cpu;

	s->ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (s->ncpus > MAX_CPUS)
		s->ncpus = MAX_CPUS;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		s->fd[cpu] = syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
		if (s->fd[cpu] < 0)
			return -1;
		s->ring[cpu] = mmap(NULL, (RING_PAGES + 1) * 4096, PROT_READ | PROT_WRITE,
				    MAP_SHARED, s->fd[cpu], 0);
		if (s->ring[cpu] == MAP_FAILED)
			return -1;
	}
	return 0;
}

/* Take every sample out of the rings into t. */
static void sampler_drain(struct sampler *s, struct tally *t)
{
	int cpu;

	for (cpu = 0; cpu < s->ncpus; cpu++) {
		struct perf_event_mmap_page *m = s->ring[cpu];
		unsigned char *data = (unsigned char *)m + 4096;
		uint64_t size = (uint64_t)RING_PAGES * 4096;
		uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
		uint64_t tail = m->data_tail;

		while (tail < head) {
			struct perf_event_header h;
			unsigned char rec[64];
			uint64_t i;

			for (i = 0; i < sizeof(h); i++)
				((unsigned char *)&h)[i] = data[(tail + i) % size];
			if (h.size < sizeof(h) || h.size > sizeof(rec))
				break;
			for (i = 0; i < h.size; i++)
				rec[i] = data[(tail + i) % size];
			tail += h.size;
			if (h.type == PERF_RECORD_LOST) {
				s->lost += ((uint64_t *)(rec + sizeof(h)))[1];
				continue;
			}
			if (h.type != PERF_RECORD_SAMPLE)
				continue;
			t->samples++;
			switch (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) {
			case PERF_RECORD_MISC_USER:
				t->where[W_USER]++;
				break;
			case PERF_RECORD_MISC_GUEST_KERNEL:
			case PERF_RECORD_MISC_GUEST_USER:
				t->where[W_GUEST]++;
				break;
			default: {
				long k = sym_index(*(uint64_t *)(rec + sizeof(h)));

				if (k < 0) {
					t->where[W_OTHER_KERNEL]++;
				} else {
					t->per_sym[k]++;
					t->where[classify(syms[k].name)]++;
				}
			}
			}
		}
		__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
	}
}

static void sampler_enable(struct sampler *s, bool on)
{
	int cpu;

	for (cpu = 0; cpu < s->ncpus; cpu++)
		ioctl(s->fd[cpu], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int write_sysctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), r;

	if (fd < 0)
		return -1;
	r = write(fd, val, strlen(val)) > 0 ? 0 : -1;
	close(fd);
	return r;
}

static struct sampler sampler;

static void tally_clear(struct tally *t)
{
	memset(t->where, 0, sizeof(t->where));
	memset(t->per_sym, 0, nsyms * sizeof(*t->per_sym));
	t->samples = 0;
}

/*
 * Samples of CHUNKS jobs of n iterations each, into t.  Under -icount the
 * code is periodic to the instruction and so would be a fixed sampling
 * period: the samples would fall on the same few points of the loop.  Each
 * chunk therefore samples with its own period, drawn from a fixed seed.
 */
#define CHUNKS	16

static int sample_jobs(struct wl_inst *w, int op, long n, struct tally *t,
		       char *why, size_t len)
{
	static struct tally junk;
	unsigned int seed = 12345;
	int c, cpu;

	if (!junk.per_sym)
		junk.per_sym = calloc(nsyms, sizeof(uint64_t));
	sampler_drain(&sampler, &junk);	/* whatever came before */
	tally_clear(t);
	for (c = 0; c < CHUNKS; c++) {
		uint64_t period = PERIOD_NS + rand_r(&seed) % PERIOD_NS;

		for (cpu = 0; cpu < sampler.ncpus; cpu++)
			ioctl(sampler.fd[cpu], PERF_EVENT_IOC_PERIOD, &period);
		sampler_enable(&sampler, true);
		if (wl_run(w, op, n, why, len)) {
			sampler_enable(&sampler, false);
			return -1;
		}
		sampler_enable(&sampler, false);
		sampler_drain(&sampler, t);
	}
	return 0;
}

static const char *where_name(int k)
{
	static const char *const names[NR_WHERE] = {
		[W_USER] = "user mode (VMM / stub / the code)",
		[W_GUEST] = "guest and KVM's interrupts-off world switch",
		[W_OTHER_KERNEL] = "other kernel",
	};

	return k < NR_WHERE ? names[k] : buckets[k - NR_WHERE].name;
}

/* Samples of symbol k in the measured job beyond the empty one. */
static long sym_delta(const struct tally *t0, const struct tally *t1, size_t k)
{
	return (long)t1->per_sym[k] - (long)t0->per_sym[k];
}

/* Measure: the unprofiled path length per op, in this boot (0, or -1). */
static int measure_total(struct wl_inst *w, int op, long iters, double *total,
			 char *why, size_t len)
{
	double el[2];
	int i;

	for (i = 0; i < 2; i++) {
		double t = now_ns();

		if (wl_run(w, op, i ? iters : 0, why, len))
			return -1;
		el[i] = now_ns() - t;
	}
	*total = (el[1] - el[0]) / iters;
	return 0;
}

/* Judge: the TOP symbols with the most samples, most first (-1: none). */
static void find_top(const struct tally *t0, const struct tally *t1, long top[TOP])
{
	size_t k;
	int i, j;

	for (i = 0; i < TOP; i++)
		top[i] = -1;
	for (k = 0; k < nsyms; k++) {
		long d = sym_delta(t0, t1, k);

		for (i = 0; i < TOP; i++) {
			long c = top[i] < 0 ? -1 : sym_delta(t0, t1, top[i]);

			if (d > c && d > 0) {
				for (j = TOP - 1; j > i; j--)
					top[j] = top[j - 1];
				top[i] = k;
				break;
			}
		}
	}
}

/* Emit: buckets, top symbols and named symbols, in instructions per op. */
static void emit_path(const char *m, const char *o, const struct tally *t0,
		      const struct tally *t1, double scale)
{
	long top[TOP];
	size_t k;
	int i;

	for (i = 0; i < (int)(NR_WHERE + NR_BUCKETS); i++)
		printf("bucket,%s,%s,%s,%.1f\n", m, o, where_name(i),
		       ((double)t1->where[i] - (double)t0->where[i]) * scale);
	find_top(t0, t1, top);
	for (i = 0; i < TOP && top[i] >= 0; i++)
		printf("top,%s,%s,%s,%.1f,%s\n", m, o, syms[top[i]].name,
		       (double)sym_delta(t0, t1, top[i]) * scale,
		       where_name(classify(syms[top[i]].name)));
	for (i = 0; i < (int)NR_NAMED; i++) {
		long s = -1;

		for (k = 0; k < nsyms; k++)
			if (!strcmp(syms[k].name, named[i]))
				s = k;
		if (s < 0)
			printf("named,%s,%s,%s,n/a\n", m, o, named[i]);
		else
			printf("named,%s,%s,%s,%.1f\n", m, o, named[i],
			       (double)sym_delta(t0, t1, s) * scale);
	}
}

/*
 * The sampled kernel path of one op: its length measured unprofiled, then
 * an empty and a measured job sampled; what differs is the op's.
 */
static void profile_path(struct wl_inst *w, int op, long iters)
{
	const char *m = w->mech->name, *o = wl_op_names[op];
	static struct tally t0, t1;
	double total, samples;
	char why[160];

	if (!t0.per_sym) {
		t0.per_sym = calloc(nsyms, sizeof(uint64_t));
		t1.per_sym = calloc(nsyms, sizeof(uint64_t));
	}
	if (measure_total(w, op, iters, &total, why, sizeof(why))) {
		printf("# profile: %s %s: %s\n", m, o, why);
		return;
	}
	/* About SAMPLE_INSNS instructions of work per chunk, whatever the op. */
	iters = total > 0 ? SAMPLE_INSNS / total : iters;
	if (iters < 10)
		iters = 10;
	if (sample_jobs(w, op, 0, &t0, why, sizeof(why)) ||
	    sample_jobs(w, op, iters, &t1, why, sizeof(why))) {
		printf("# profile: %s %s: %s\n", m, o, why);
		return;
	}
	samples = (double)t1.samples - (double)t0.samples;
	printf("path,%s,%s,total,%.1f\n", m, o, total);
	printf("path,%s,%s,samples,%.0f\n", m, o, samples);
	printf("path,%s,%s,sampled-iterations,%ld\n", m, o, iters * CHUNKS);
	if (samples > 0)
		emit_path(m, o, &t0, &t1, total / samples);	/* insns per op per sample */
}

static bool hres_active(void)
{
	FILE *f = fopen("/proc/timer_list", "r");
	char line[256];
	bool on = false;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, ".hres_active") && strstr(line, ": 1"))
			on = true;
	if (f)
		fclose(f);
	return on;
}

static int setup_sampler(void)
{
	int i;

	for (i = 0; i < 100 && !hres_active(); i++)
		usleep(100 * 1000);
	if (!hres_active())
		printf("# profile: no high-resolution timers: a sample per tick only\n");
	/* One sample per 10 us of (virtual) time, never throttled. */
	write_sysctl("/proc/sys/kernel/perf_cpu_time_max_percent", "0");
	write_sysctl("/proc/sys/kernel/perf_event_max_sample_rate", "100000");
	write_sysctl("/proc/sys/kernel/kptr_restrict", "0");
	return load_kallsyms() || sampler_open(&sampler) ? -1 : 0;
}

static void profile_counts(struct wl_inst *w, int op, long iters)
{
	double v[NR_COUNTERS];
	struct wl_counters wc;
	char why[160];
	int c;

	wl_counters_open(&wc, w);
	if (wl_count_op(&wc, w, op, iters, v, why, sizeof(why))) {
		printf("# profile: %s %s: %s\n", w->mech->name, wl_op_names[op], why);
	} else {
		for (c = 0; c < NR_COUNTERS; c++)
			if (wc.have[c])
				printf("count,%s,%s,%s,%.3f\n", w->mech->name,
				       wl_op_names[op], wl_counter_names[c], v[c]);
	}
	wl_counters_close(&wc);
}

int main(int argc, char **argv)
{
	bool counts = false, path = false;
	const char *only = NULL;
	long iters = 100;
	int opt, k, i;

	while ((opt = getopt(argc, argv, "cpi:m:")) != -1) {
		if (opt == 'm')
			only = optarg;	/* mechanisms by name: a+b+c */
		else if (opt == 'c')
			counts = true;
		else if (opt == 'p')
			path = true;
		else if (opt == 'i')
			iters = atol(optarg);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (wl_make_file(FILE_PATH)) {
		printf("# profile: %s: %s\n", FILE_PATH, strerror(errno));
		return 1;
	}
	if (path && setup_sampler()) {
		printf("# profile: cannot sample (perf cpu-clock, /proc/kallsyms): %s\n",
		       strerror(errno));
		path = false;
	}
	printf("# profile: %s, %ld iterations per job\n",
	       counts ? "event counts" : "kernel path", iters);
	for (k = 0; k < NR_COUNTERS; k++)
		printf("COUNTER|%s|%s\n", wl_counter_names[k], wl_counter_sources[k]);
	for (k = 0; k < W_OTHER_KERNEL; k++)
		printf("WHERE|%s\n", where_name(k));
	for (k = 0; k < (int)NR_BUCKETS; k++) {
		printf("BUCKET|%s|", buckets[k].name);
		for (i = 0; buckets[k].match[i]; i++)
			printf("%s ", buckets[k].match[i]);
		printf("\n");
	}
	printf("PROFILE-BEGIN\n");
	for (k = 0; k < wl_nr_mechs; k++) {
		const struct wl_mech *m = wl_mechs[k];
		struct wl_inst w;
		char why[256];

		if (!wl_mech_in_list(only, m->name))
			continue;
		printf("MECH|%s|%d|%s|%s\n", m->name, m->vm, m->icount_na ?: "", m->summary);
		if (path && m->icount_na) {
			printf("skip,%s,n/a under -icount: %s\n", m->name, m->icount_na);
			continue;
		}
		switch (wl_open(&w, m, FILE_PATH, 0, why, sizeof(why))) {
		case WL_MISSING:
			printf("skip,%s,%s\n", m->name, why);
			continue;
		case WL_FAILED:
			printf("skip,%s,set-up failed: %s\n", m->name, why);
			continue;
		}
		for (i = 0; i < (int)(sizeof(ops) / sizeof(ops[0])); i++) {
			char err[160];

			if (!wl_op_applies(m, ops[i]))
				continue;
			wl_run(&w, ops[i], 10, err, sizeof(err));	/* warm up */
			if (counts)
				profile_counts(&w, ops[i], iters);
			if (path)
				profile_path(&w, ops[i], iters);
		}
		wl_close(&w);
		fprintf(stderr, "# progress: %s\n", m->name);
	}
	if (path)
		printf("# profile: %llu samples lost\n", (unsigned long long)sampler.lost);
	printf("PROFILE-END\n");
	unlink(FILE_PATH);
	return 0;
}
