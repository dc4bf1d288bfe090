// SPDX-License-Identifier: GPL-2.0
/*
 * The programs bench, guest side (/bench/programs): unmodified busybox
 * applets under every mechanism that can run a program (common/sandbox),
 * in one boot, interleaved as the workload bench is; every run's output
 * compared with the applet run directly.  Prints records
 * (common/workload/record.h) for bench/programs_report.py: a "program" per
 * applet, a "mech" and maybe a "skip" per mechanism, a "program_run" per
 * run (elapsed_ns, or elapsed_insns in a -d boot) and the calls of each
 * program under each mechanism ("program_calls", first round).
 *
 *   programs [-r ROUNDS] [-m MECHS] [-d]
 * -d: a deterministic (-icount) boot: mechanisms whose figure means
 * nothing there (wl_mech.icount_na) are listed but not run.
 *
 * A run's time is what the sandbox measured from the program's first
 * instruction to its end (the VM or stub set up before, and torn down
 * after, are not in it); for gzip|gunzip, the two programs' times added.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record.h"
#include "workload.h"
#include "testdata.h"

#define SANDBOX		"/bench/sandbox"
#define BUSYBOX		"/bin/busybox"
#define WORKDIR		"/tmp/programs"
#define BIG_SIZE	(4 << 20)
#define TOOL		"programs"

struct program {
	const char *name;
	char *argv[6];		/* busybox's arguments */
	char *pipe_to[4];	/* a second program reading the first's output */
	bool to_null;		/* stdout to /dev/null: nothing to compare */
	const char *want;	/* what the output must be, when not the direct run's */
};

static const struct program programs[] = {
	{ .name = "sha256sum", .argv = { "sha256sum", "big.bin" } },
	{ .name = "gzip|gunzip", .argv = { "gzip", "-c", "big.bin" },
	  .pipe_to = { "gunzip", "-c" }, .want = "big.bin" },
	{ .name = "sh-loop", .argv = { "sh", "-c",
		"i=0; while [ $i -lt 2000 ]; do i=$((i+1)); echo \"line $i\"; done" } },
	{ .name = "find", .argv = { "find", "tree" } },
	{ .name = "ls-lR", .argv = { "ls", "-lR", "tree" } },
	{ .name = "cat", .argv = { "cat", "big.bin" }, .to_null = true },
};
#define NR_PROGRAMS	(sizeof(programs) / sizeof(programs[0]))

/* What a sandbox's --stats file says. */
struct stats {
	long long ns, handled, forwarded;
	int status;
};

static int read_stats(const char *path, struct stats *st, const char *prog,
		      const char *mech, bool print_calls)
{
	char key[32], name[64];
	long long v;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%31s", key) == 1) {
		if (!strcmp(key, "calls") && fscanf(f, "%63s %lld", name, &v) == 2) {
			if (print_calls) {
				struct wl_rec r;

				wl_rec_begin(&r, "program_calls");
				wl_rec_str(&r, "program", prog);
				wl_rec_str(&r, "mech", mech);
				wl_rec_str(&r, "call", name);
				wl_rec_int(&r, "count", v);
				wl_rec_end(&r);
			}
		} else if (!strcmp(key, "mech")) {
			fscanf(f, "%*s");
		} else if (fscanf(f, "%lld", &v) == 1) {
			if (!strcmp(key, "ns"))
				st->ns += v;
			else if (!strcmp(key, "status") && v)
				st->status = v;
			else if (!strcmp(key, "handled"))
				st->handled += v;
			else if (!strcmp(key, "forwarded"))
				st->forwarded += v;
		}
	}
	fclose(f);
	return 0;
}

/* argv of busybox's args, under the sandbox when mech is set. */
static int build_argv(char **argv, char *const *args, const char *mech,
		      const char *stats)
{
	int n = 0, i;

	if (mech) {
		argv[n++] = SANDBOX;
		argv[n++] = "--quiet";
		argv[n++] = "--stats";
		argv[n++] = (char *)stats;
		argv[n++] = "--mech";
		argv[n++] = (char *)mech;
		argv[n++] = "--";
	}
	argv[n++] = BUSYBOX;
	for (i = 0; args[i]; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return n;
}

static pid_t spawn(char **argv, int in, int out)
{
	pid_t pid = fork();

	if (!pid) {
		if ((in >= 0 && dup2(in, 0) < 0) || dup2(out, 1) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int wait_status(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * Run a program (and the one its output is piped to), under mech or
 * directly (NULL), output to out: the worst exit status, 0 if all ended
 * well; st gets the sandboxes' stats.
 */
static int run_program(const struct program *p, const char *mech, const char *out,
		       struct stats *st, bool print_calls)
{
	char *argv[16], *argv2[16];
	int fd, pfd[2] = { -1, -1 }, r1, r2 = 0;
	pid_t p1, p2 = -1;

	memset(st, 0, sizeof(*st));
	/* Close-on-exec: a child keeping the pipe's write end would never see EOF. */
	fd = open(p->to_null ? "/dev/null" : out,
		  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	fflush(NULL);
	build_argv(argv, p->argv, mech, "stats1");
	if (p->pipe_to[0]) {
		if (pipe2(pfd, O_CLOEXEC))
			return -1;
		build_argv(argv2, p->pipe_to, mech, "stats2");
		p1 = spawn(argv, -1, pfd[1]);
		p2 = spawn(argv2, pfd[0], fd);
		close(pfd[0]);
		close(pfd[1]);
	} else {
		p1 = spawn(argv, -1, fd);
	}
	close(fd);
	r1 = wait_status(p1);
	if (p2 > 0)
		r2 = wait_status(p2);
	if (mech) {
		read_stats("stats1", st, p->name, mech, print_calls);
		if (p2 > 0)
			read_stats("stats2", st, p->name, mech, print_calls);
	}
	return r1 ? r1 : r2;
}

int main(int argc, char **argv)
{
	int rounds = 3, opt, k, r, failed = 0;
	bool deterministic = false, *run = calloc(wl_nr_mechs, sizeof(bool));
	const char *only = NULL, *why;
	struct wl_rec rec;
	char err[160];
	unsigned int i;

	while ((opt = getopt(argc, argv, "r:m:d")) != -1) {
		if (opt == 'r')
			rounds = atoi(optarg);
		else if (opt == 'm')
			only = optarg;
		else if (opt == 'd')
			deterministic = true;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	wl_rec_run(&rec, TOOL);
	wl_rec_int(&rec, "rounds", rounds);
	wl_rec_bool(&rec, "deterministic", deterministic);
	wl_rec_str(&rec, "unit", deterministic ? "insns" : "ns");
	wl_rec_end(&rec);
	mkdir(WORKDIR, 0755);
	if (!run || chdir(WORKDIR) ||
	    sb_make_data(BUSYBOX, BIG_SIZE, 10, 20, err, sizeof(err))) {
		wl_rec_note(TOOL, "setting up %s: %s", WORKDIR, run ? err : "no memory");
		return 1;
	}
	wl_rec_note(TOOL, "%d rounds; big.bin %d bytes, tree/ of 10 x 20 files",
		    rounds, BIG_SIZE);
	for (i = 0; i < NR_PROGRAMS; i++) {
		const struct program *p = &programs[i];
		char want[64], cmd[256];
		struct stats st;
		size_t n;
		int j;

		/* The command as a shell would run it (cut at sizeof(cmd)). */
		n = snprintf(cmd, sizeof(cmd), "busybox");
		for (j = 0; p->argv[j] && n < sizeof(cmd); j++)
			n += snprintf(cmd + n, sizeof(cmd) - n, " %s", p->argv[j]);
		if (p->pipe_to[0] && n < sizeof(cmd))
			n += snprintf(cmd + n, sizeof(cmd) - n, " | busybox %s %s",
				      p->pipe_to[0], p->pipe_to[1]);
		if (p->to_null && n < sizeof(cmd))
			snprintf(cmd + n, sizeof(cmd) - n, " > /dev/null");
		wl_rec_begin(&rec, "program");
		wl_rec_str(&rec, "name", p->name);
		wl_rec_str(&rec, "command", cmd);
		wl_rec_end(&rec);
		/* The reference: the applet run directly, as a shell runs it. */
		snprintf(want, sizeof(want), "want-%u", i);
		if (run_program(p, NULL, want, &st, false))
			wl_rec_note(TOOL, "%s run directly failed", p->name);
	}
	for (k = 0; k < wl_nr_mechs; k++) {
		const struct wl_mech *m = wl_mechs[k];

		if (!wl_mech_in_list(only, m->name))
			continue;
		wl_rec_mech(TOOL, m);
		if (m->program_na)
			wl_rec_skip(TOOL, m->name, NULL, "n/a", m->program_na);
		else if (deterministic && m->icount_na)
			wl_rec_skip(TOOL, m->name, NULL, "n/a", m->icount_na);
		else if (!m->available(&why))
			wl_rec_skip(TOOL, m->name, NULL, "missing", why);
		else
			run[k] = true;
	}
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < wl_nr_mechs; k++) {
			int mech = (r + k) % wl_nr_mechs;
			const struct wl_mech *m = wl_mechs[mech];

			if (!run[mech])
				continue;
			for (i = 0; i < NR_PROGRAMS; i++) {
				const struct program *p = &programs[i];
				char want[64];
				struct stats st;
				bool same;
				int rc;

				snprintf(want, sizeof(want), "want-%u", i);
				rc = run_program(p, m->name, "out", &st, r == 0);
				same = p->to_null || sb_same_file("out", p->want ?: want);
				failed |= rc || !same;
				wl_rec_begin(&rec, "program_run");
				wl_rec_str(&rec, "program", p->name);
				wl_rec_str(&rec, "mech", m->name);
				wl_rec_int(&rec, "round", r);
				wl_rec_int(&rec, deterministic ? "elapsed_insns" : "elapsed_ns", st.ns);
				wl_rec_int(&rec, "status", rc);
				wl_rec_bool(&rec, "same_output", same);
				wl_rec_int(&rec, "handled", st.handled);
				wl_rec_int(&rec, "forwarded", st.forwarded);
				wl_rec_end(&rec);
			}
		}
		fprintf(stderr, "# progress: round %d/%d\n", r + 1, rounds);
	}
	return failed;
}
