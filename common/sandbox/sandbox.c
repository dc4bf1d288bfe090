// SPDX-License-Identifier: GPL-2.0
/*
 * sandbox: run an unmodified static x86-64 program with its system calls
 * served by one mechanism of the workload (README.md).
 *
 *   sandbox --mech NAME [--stats FILE] [--quiet] -- PROGRAM [ARG...]
 *   sandbox --list
 *
 * The exit status is the program's.  A program that faulted, or sent
 * itself a signal whose default action ends it, ends with 128 + that
 * signal; one that made a call the sandbox does not run with 128 + SIGSYS
 * (159).  The sandbox's own failures are 125 (the mechanism cannot run
 * programs here, or failed) and 126 (the file is not a static x86-64
 * executable: said before any VM or stub is made), as a shell would say.
 *
 * The parent loads the program and reports; a child runs it under the
 * mechanism, so that the native mechanism, where the program takes the
 * process over, is timed and reported the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"
#include "loader.h"

#define EXIT_MECH	125
#define EXIT_NOEXEC	126

static const char *const syscall_names[SB_NR_MAX] = {
#include "syscall_names.h"
};

extern char **environ;

static const char *nr_name(uint64_t nr)
{
	return nr < SB_NR_MAX && syscall_names[nr] ? syscall_names[nr] : "?";
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A call the supervisor forwards, when the server is this process. */
static long host_forward(void *ctx, struct pt_regs *r)
{
	return host_syscall(r->rax, r->rdi, r->rsi, r->rdx, r->r10, r->r8, r->r9);
}

/* The mechanisms without a VM hand the code's calls here (wl_serve()). */
static long serve(struct wl_ctx *c, struct pt_regs *r)
{
	struct sb_state *s = c->serve_arg;

	sb_syscall(s, r);
	if (s->fs_set) {
		c->fs_base = s->fs_base;
		c->fs_base_set = 1;
		s->fs_set = 0;
	}
	if (s->end != SB_RUNNING)
		c->stop = 1;
	return r->rax;
}

/*
 * Keep the descriptors below SB_FD_LIMIT for the program: fill them before
 * the mechanism opens its own, free them after.
 */
static int hold_low_fds(int *held)
{
	int n = 0, fd;

	while ((fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0) {
		if (fd >= SB_FD_LIMIT) {
			close(fd);
			break;
		}
		held[n++] = fd;
	}
	return n;
}

/* The program's regions and the supervisor's state, for the guest. */
static int map_into_vm(struct wl_inst *w, struct sb_state *s)
{
	uint64_t start[3], size[3];
	int i, n = sb_regions(s, start, size);

	for (i = 0; i < n; i++)
		if (vmm_map(&w->vm, (void *)start[i], size[i]))
			return -1;
	return vmm_map(&w->vm, s, sizeof(*s));
}

static int report_fault(const char *prog, const struct wl_ctx *c)
{
	fprintf(stderr, "sandbox: %s: killed by signal %d (%s) at pc %#llx, address %#llx\n",
		prog, c->fault_signal, strsignal(c->fault_signal),
		(unsigned long long)c->fault_pc, (unsigned long long)c->fault_addr);
	return SB_STATUS_SIGNAL(c->fault_signal);
}

/* The child: load, set the mechanism up, run, say how it ended. */
static int run_child(const struct wl_mech *m, struct sb_state *s, char **argv)
{
	int held[SB_FD_LIMIT], nheld, status, i;
	struct wl_inst w;
	char why[256];

	s->pid = getpid();	/* the process whose calls the program's are */
	nheld = hold_low_fds(held);
	/* Idle: the program is mapped and the serving set up before enter. */
	if (wl_open(&w, m, argv[0], WL_OPEN_IDLE, why, sizeof(why))) {
		fprintf(stderr, "sandbox: %s: %s\n", m->name, why);
		return EXIT_MECH;
	}
	for (i = 0; i < nheld; i++)
		close(held[i]);
	if (m->vm) {
		if (map_into_vm(&w, s)) {
			fprintf(stderr, "sandbox: mapping the program into the VM: %s\n",
				strerror(errno));
			wl_close(&w);
			return EXIT_MECH;
		}
		s->forward = sb_vm_forward;
		s->forward_ctx = w.ctx;
	} else {
		s->forward = host_forward;
		w.ctx->serve = serve;
		w.ctx->serve_arg = s;
	}
	if (wl_enter(&w)) {
		fprintf(stderr, "sandbox: %s: enter: %s\n", m->name, strerror(errno));
		wl_close(&w);
		return EXIT_MECH;
	}
	s->t_start_ns = now_ns();
	/* Native: the program takes this process over and never returns. */
	if (wl_run_program(&w, m->vm ? sb_guest_enter : sb_jump, (uintptr_t)s,
			   why, sizeof(why)))
		status = w.ctx->fault_signal ? report_fault(argv[0], w.ctx) : -1;
	else
		status = -2;
	s->t_end_ns = now_ns();
	if (status == -1)
		fprintf(stderr, "sandbox: %s: %s\n", m->name, why);
	wl_close(&w);
	if (status >= 0)
		return status;
	if (status == -1)
		return EXIT_MECH;
	switch (s->end) {
	case SB_EXITED:
		return s->exit_status;
	case SB_REFUSED:
		fprintf(stderr, "sandbox: %s: system call %llu (%s) at pc %#llx is not supported: "
			"the program ends here\n", argv[0], (unsigned long long)s->refused_nr,
			nr_name(s->refused_nr), (unsigned long long)s->refused_pc);
		return SB_STATUS_SIGNAL(SIGSYS);
	case SB_KILLED:
		fprintf(stderr, "sandbox: %s: killed by signal %d (%s), which it sent itself\n",
			argv[0], s->signal, strsignal(s->signal));
		return SB_STATUS_SIGNAL(s->signal);
	}
	fprintf(stderr, "sandbox: %s: the code returned before the program ended\n", m->name);
	return EXIT_MECH;
}

static void write_stats(const char *path, const struct wl_mech *m,
			const struct sb_state *s, int status)
{
	FILE *f = fopen(path, "w");
	bool seen = s->handled + s->forwarded;
	int i;

	if (!f) {
		fprintf(stderr, "sandbox: %s: %s\n", path, strerror(errno));
		return;
	}
	fprintf(f, "mech %s\nstatus %d\nns %llu\n", m->name, status,
		(unsigned long long)(s->t_end_ns - s->t_start_ns));
	/* Native: nothing sees the calls. */
	if (seen) {
		fprintf(f, "handled %llu\nforwarded %llu\n",
			(unsigned long long)s->handled, (unsigned long long)s->forwarded);
		for (i = 0; i <= SB_NR_MAX; i++)
			if (s->calls[i])
				fprintf(f, "calls %s %llu\n", i < SB_NR_MAX ? nr_name(i) : "other",
					(unsigned long long)s->calls[i]);
	}
	fclose(f);
}

static void list(void)
{
	const char *why;
	int k;

	for (k = 0; k < wl_nr_mechs; k++) {
		const struct wl_mech *m = wl_mechs[k];

		if (m->program_na)
			printf("%s\tn/a: %s\n", m->name, m->program_na);
		else if (!m->available(&why))
			printf("%s\tnot available: %s\n", m->name, why);
		else if (!m->vm && !m->runs_calls)
			printf("%s\tunsupervised: the program's calls run natively, unseen\n",
			       m->name);
		else
			printf("%s\tyes\n", m->name);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: sandbox --mech NAME [--stats FILE] [--quiet] -- PROGRAM [ARG...]\n"
		"       sandbox --list\n");
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mech", required_argument, NULL, 'm' },
		{ "stats", required_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name = NULL, *stats = NULL, *why;
	const struct wl_mech *m;
	struct sb_state *s;
	bool quiet = false;
	int opt, status;
	char err[256];
	pid_t pid;

	while ((opt = getopt_long(argc, argv, "+m:s:ql", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			name = optarg;
			break;
		case 's':
			stats = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'l':
			list();
			return 0;
		default:
			return usage();
		}
	}
	if (!name || optind >= argc)
		return usage();
	m = wl_mech_by_name(name);
	if (!m) {
		fprintf(stderr, "sandbox: no mechanism %s (sandbox --list)\n", name);
		return usage();
	}
	if (m->program_na) {
		fprintf(stderr, "sandbox: %s cannot run a program: %s\n", name, m->program_na);
		return EXIT_MECH;
	}
	if (!m->available(&why)) {
		fprintf(stderr, "sandbox: %s is not available: %s\n", name, why);
		return EXIT_MECH;
	}
	if (sb_check(argv[optind], err, sizeof(err))) {
		fprintf(stderr, "sandbox: %s\n", err);
		return EXIT_NOEXEC;
	}
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (s == MAP_FAILED) {
		perror("sandbox: mmap");
		return EXIT_MECH;
	}
	/*
	 * Loaded here, inherited by the child: the program's pages outlive it,
	 * so that a native program's exit, which the parent times, frees none.
	 */
	if (sb_load(s, argv[optind], argv + optind, environ, err, sizeof(err))) {
		fprintf(stderr, "sandbox: %s\n", err);
		return EXIT_NOEXEC;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("sandbox: fork");
		return EXIT_MECH;
	}
	if (!pid)
		_exit(run_child(m, s, argv + optind));
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!s->t_end_ns)
		s->t_end_ns = now_ns();	/* native: the program was the child */
	status = WIFEXITED(status) ? WEXITSTATUS(status) :
		 SB_STATUS_SIGNAL(WTERMSIG(status));
	if (stats)
		write_stats(stats, m, s, status);
	if (!quiet)
		fprintf(stderr, "sandbox: %s: %s: status %d, %.3f ms, %llu calls seen "
			"(%llu run by the supervisor, %llu forwarded)\n", name, argv[optind],
			status, (s->t_end_ns - s->t_start_ns) / 1e6,
			(unsigned long long)(s->handled + s->forwarded),
			(unsigned long long)s->handled, (unsigned long long)s->forwarded);
	return status;
}
