// SPDX-License-Identifier: GPL-2.0
/*
 * Where the cost goes, guest side (/bench/profile in the QEMU guest), for
 * every mechanism of the list and each op of ops[] below.
 *
 *   profile -c [-i ITERS] [-m MECHS]	event counts per op (counters.h), any boot
 *   profile -p [-i ITERS] [-m MECHS]	the kernel path per op, in an -icount boot
 * MECHS: the mechanisms to run, by name, joined by '+' (default: all).
 * -u: udp-rr only (the one-vCPU counts boot of profile.sh).
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
 * The guest reports samples per kernel function; the host puts them in
 * buckets by name (bench/profile_report.py, BUCKETS), the first matching
 * bucket winning.  A sample stands for insns_per_sample instructions: the
 * op's unprofiled path length, measured in the same boot, over the samples
 * of one op (the sampling interrupt's own work is not sampled, so it does
 * not bias the shares).  Each figure is per op: a job of ITERS iterations
 * minus an empty job.  Prints records (common/workload/record.h) for
 * bench/profile_report.py: "counter" (what each count is), "mech", "skip",
 * "count" (-c), and for -p per mechanism and op a "path", a "where" per
 * place that is not a kernel function, and a "symbol" per kernel function
 * whose samples differ (and per function of named[], always).
 *
 * udp-rr is a call that can sleep: a transaction's recvfrom blocks until the
 * echo server (another guest process) replies, unless the reply is there
 * first (on two vCPUs a slow enough exit lets the server win).  There the
 * KVM stats show what a blocking call costs a VM mechanism: host_state_reload
 * counts vcpu_put (svm_vcpu_put/vmx_vcpu_put), whether from the preempt
 * notifier when a call sleeps inside KVM_RUN or from the return to the VMM,
 * and fpu_reload counts the guest FPU put back at the end of KVM_RUN.
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
#include "record.h"
#include "udp_echo.h"

#define FILE_PATH	"/tmp/profile.dat"
#define TOOL		"profile"
#define PERIOD_NS	10000
#define RING_PAGES	512		/* 2 MiB of samples per CPU */
#define MAX_CPUS	8
/* Work per sampled chunk: 1.5M instructions, ~100 samples. */
#define SAMPLE_INSNS	1500000.0

static const int ops[] = { OP_BARE, OP_NULL, OP_MIXED, OP_UDP_RR };

/*
 * The functions the posting's perf trace named: a "symbol" record each
 * whatever its samples, so that the host tells 0 from not in this kernel.
 */
static const char *const named[] = {
	"svm_prepare_switch_to_guest", "vmx_prepare_switch_to_guest",
	"fpu_swap_kvm_fpstate", "vcpu_put", "syscall_exit_to_user_mode",
};
#define NR_NAMED	(sizeof(named) / sizeof(named[0]))

/* Not a kernel function: the first two columns of every table. */
enum { W_USER, W_GUEST, W_OTHER_KERNEL, NR_WHERE };
/* Their keys in "where" records (W_OTHER_KERNEL: a kernel IP with no symbol). */
static const char *const where_keys[NR_WHERE] = {
	[W_USER] = "user", [W_GUEST] = "guest", [W_OTHER_KERNEL] = "kernel-no-symbol",
};

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

struct sampler {
	int fd[MAX_CPUS];
	struct perf_event_mmap_page *ring[MAX_CPUS];
	int ncpus;
	uint64_t lost;
};

struct tally {
	uint64_t where[NR_WHERE];
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

				if (k < 0)
					t->where[W_OTHER_KERNEL]++;
				else
					t->per_sym[k]++;
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

/*
 * Which symbols are one of named[], and which of named[] this kernel has:
 * matched once, after kallsyms is read, not for every op.
 */
static bool *sym_named;
static bool named_found[NR_NAMED];

static int match_named(void)
{
	unsigned int i;
	size_t k;

	sym_named = calloc(nsyms, sizeof(*sym_named));
	if (!sym_named)
		return -1;
	for (k = 0; k < nsyms; k++)
		for (i = 0; i < NR_NAMED; i++)
			if (!strcmp(syms[k].name, named[i]))
				sym_named[k] = named_found[i] = true;
	return 0;
}

/*
 * A "symbol" record.  k: the symbol's rank in address order, which breaks
 * ties in the top list; k < 0 for one of named[] this kernel lacks, whose
 * samples are null.
 */
static void emit_symbol(const char *m, const char *o, const char *name, long k,
			long samples, bool is_named)
{
	struct wl_rec r;

	wl_rec_begin(&r, "symbol");
	wl_rec_str(&r, "mech", m);
	wl_rec_str(&r, "op", o);
	wl_rec_str(&r, "name", name);
	if (k >= 0) {
		wl_rec_int(&r, "rank", k);
		wl_rec_int(&r, "samples", samples);
	} else {
		wl_rec_str(&r, "samples", NULL);
	}
	if (is_named)
		wl_rec_bool(&r, "named", true);
	wl_rec_end(&r);
}

/*
 * Emit where the op's samples fell: the places that are not kernel
 * functions, each kernel function whose samples differ between the
 * measured and the empty job, and each of named[] whatever its samples.
 */
static void emit_path(const char *m, const char *o, const struct tally *t0,
		      const struct tally *t1)
{
	struct wl_rec r;
	size_t k;
	int i;

	for (i = 0; i < NR_WHERE; i++) {
		wl_rec_begin(&r, "where");
		wl_rec_str(&r, "mech", m);
		wl_rec_str(&r, "op", o);
		wl_rec_str(&r, "where", where_keys[i]);
		wl_rec_int(&r, "samples", (long)t1->where[i] - (long)t0->where[i]);
		wl_rec_end(&r);
	}
	for (i = 0; i < (int)NR_NAMED; i++)
		if (!named_found[i])
			emit_symbol(m, o, named[i], -1, 0, true);
	for (k = 0; k < nsyms; k++)
		if (sym_delta(t0, t1, k) || sym_named[k])
			emit_symbol(m, o, syms[k].name, k, sym_delta(t0, t1, k), sym_named[k]);
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
	struct wl_rec r;
	char why[160];

	if (!t0.per_sym) {
		t0.per_sym = calloc(nsyms, sizeof(uint64_t));
		t1.per_sym = calloc(nsyms, sizeof(uint64_t));
	}
	if (measure_total(w, op, iters, &total, why, sizeof(why))) {
		wl_rec_skip(TOOL, m, o, "failed", why);
		return;
	}
	/* About SAMPLE_INSNS instructions of work per chunk, whatever the op. */
	iters = total > 0 ? SAMPLE_INSNS / total : iters;
	if (iters < 10)
		iters = 10;
	if (sample_jobs(w, op, 0, &t0, why, sizeof(why)) ||
	    sample_jobs(w, op, iters, &t1, why, sizeof(why))) {
		wl_rec_skip(TOOL, m, o, "failed", why);
		return;
	}
	samples = (double)t1.samples - (double)t0.samples;
	wl_rec_begin(&r, "path");
	wl_rec_str(&r, "mech", m);
	wl_rec_str(&r, "op", o);
	wl_rec_num(&r, "insns_per_op", total, 1);
	wl_rec_num(&r, "samples", samples, 0);
	wl_rec_int(&r, "sampled_iterations", iters * CHUNKS);
	/* What one sample stands for, per op. */
	wl_rec_num(&r, "insns_per_sample", samples > 0 ? total / samples : 0, 12);
	wl_rec_end(&r);
	if (samples > 0)
		emit_path(m, o, &t0, &t1);
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
		wl_rec_note(TOOL, "no high-resolution timers: a sample per tick only");
	/* One sample per 10 us of (virtual) time, never throttled. */
	write_sysctl("/proc/sys/kernel/perf_cpu_time_max_percent", "0");
	write_sysctl("/proc/sys/kernel/perf_event_max_sample_rate", "100000");
	write_sysctl("/proc/sys/kernel/kptr_restrict", "0");
	return load_kallsyms() || match_named() || sampler_open(&sampler) ? -1 : 0;
}

static void profile_counts(struct wl_inst *w, int op, long iters)
{
	double v[NR_COUNTERS];
	struct wl_counters wc;
	struct wl_rec r;
	char why[160];
	int c;

	wl_counters_open(&wc, w);
	if (wl_count_op(&wc, w, op, iters, v, why, sizeof(why))) {
		wl_rec_skip(TOOL, w->mech->name, wl_op_names[op], "failed", why);
	} else {
		for (c = 0; c < NR_COUNTERS; c++) {
			if (!wc.have[c])
				continue;
			wl_rec_begin(&r, "count");
			wl_rec_str(&r, "mech", w->mech->name);
			wl_rec_str(&r, "op", wl_op_names[op]);
			wl_rec_str(&r, "counter", wl_counter_names[c]);
			wl_rec_num(&r, "per_op", v[c], 3);
			wl_rec_end(&r);
		}
	}
	wl_counters_close(&wc);
}

int main(int argc, char **argv)
{
	bool counts = false, path = false, udp = false, udp_only = false;
	const char *only = NULL, *what;
	struct wl_rec rec;
	long iters = 100;
	int opt, k, i;

	while ((opt = getopt(argc, argv, "cpi:m:u")) != -1) {
		if (opt == 'm')
			only = optarg;	/* mechanisms by name: a+b+c */
		else if (opt == 'c')
			counts = true;
		else if (opt == 'p')
			path = true;
		else if (opt == 'i')
			iters = atol(optarg);
		else if (opt == 'u')
			udp_only = true;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	wl_rec_run(&rec, TOOL);
	wl_rec_str(&rec, "mode", counts ? "counts" : "path");
	wl_rec_int(&rec, "iters_per_job", iters);
	wl_rec_end(&rec);
	if (wl_make_file(FILE_PATH)) {
		wl_rec_note(TOOL, "%s: %s", FILE_PATH, strerror(errno));
		return 1;
	}
	if (path && setup_sampler()) {
		wl_rec_note(TOOL, "cannot sample (perf cpu-clock, /proc/kallsyms): %s",
			    strerror(errno));
		path = false;
	}
	wl_rec_note(TOOL, "%s, %ld iterations per job",
		    counts ? "event counts" : "kernel path", iters);
	udp = !wl_udp_start(1, &what);
	if (udp)
		wl_rec_note(TOOL, "udp-rr: 1-byte request and reply, echo server on %s",
			    wl_udp.note);
	else
		wl_rec_note(TOOL, "udp-rr not run: %s: %s", what, strerror(errno));
	if (udp_only && !udp)
		return 1;	/* -u has nothing else to do: the boot fails */
	for (k = 0; k < NR_COUNTERS; k++) {
		wl_rec_begin(&rec, "counter");
		wl_rec_str(&rec, "name", wl_counter_names[k]);
		wl_rec_str(&rec, "source", wl_counter_sources[k]);
		wl_rec_end(&rec);
	}
	/* Printed at the end: none is sent while an op is measured. */
	wl_rec_hold();
	for (k = 0; k < wl_nr_mechs; k++) {
		const struct wl_mech *m = wl_mechs[k];
		struct wl_inst w;
		char why[256];

		if (!wl_mech_in_list(only, m->name))
			continue;
		wl_rec_mech(TOOL, m);
		if (path && m->icount_na) {
			wl_rec_skip(TOOL, m->name, NULL, "n/a", m->icount_na);
			continue;
		}
		switch (wl_open(&w, m, FILE_PATH, 0, why, sizeof(why))) {
		case WL_MISSING:
			wl_rec_skip(TOOL, m->name, NULL, "missing", why);
			continue;
		case WL_FAILED:
			wl_rec_skip(TOOL, m->name, NULL, "failed", why);
			continue;
		}
		for (i = 0; i < (int)(sizeof(ops) / sizeof(ops[0])); i++) {
			char err[160];

			if (!wl_op_applies(m, ops[i]) || (wl_op_is_udp(ops[i]) && !udp) ||
			    (udp_only && !wl_op_is_udp(ops[i])))
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
		wl_rec_note(TOOL, "%llu samples lost", (unsigned long long)sampler.lost);
	wl_rec_release();
	if (udp)
		wl_udp_stop();
	unlink(FILE_PATH);
	return 0;
}
