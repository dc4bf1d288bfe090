// SPDX-License-Identifier: GPL-2.0
/*
 * sandbox_test: unmodified busybox applets through every mechanism that
 * can run a program (common/sandbox), each output compared byte for byte
 * with the same applet run directly, and what the sandbox does with bad
 * input: files it cannot run, a call it does not support, a program that
 * faults or aborts.  After every case no process of the sandbox is left.
 *
 * A mechanism that cannot run programs (sandbox --list says why) is not a
 * test here; one that should and is not available fails, as in
 * workload_test (make test applies every series).
 *
 * The faulting programs are this test itself: it is static, so
 * `sandbox -- sandbox_test --probe WHAT` runs it under the sandbox, where
 * it faults at once.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "testdata.h"

#define SANDBOX		"/bench/sandbox"
#define BUSYBOX		"/bin/busybox"
#define WORKDIR		"/tmp/sandbox_test"
#define BIG_SIZE	(2 << 20)
#define MAX_MECHS	32
#define PROBE_PC	0xdead000UL

struct mech {
	char name[32];
	int ok;			/* can run programs here */
	int supervised;		/* and a supervisor sees their calls */
	char why[256];
};

static struct mech mechs[MAX_MECHS];
static int nr_mechs;
static const char *self;

/* ---- probes: what the program under the sandbox does ---- */

static int probe(const char *what)
{
	if (!strcmp(what, "jump"))
		((void (*)(void))PROBE_PC)();
	if (!strcmp(what, "null")) {
		int *volatile p = (int *)8;

		*p = 1;
	}
	if (!strcmp(what, "ud2"))
		asm volatile("ud2");
	if (!strcmp(what, "abort"))
		abort();
	if (!strcmp(what, "exit"))
		return 42;
	return 1;
}

/* ---- running things ---- */

/* Run argv with stdout to out (stderr to err), return the exit status. */
static int run(char *const argv[], const char *out, const char *err)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	if (buf && fread(buf, 1, n, f) == (size_t)n) {
		buf[n] = 0;
		*len = n;
	}
	fclose(f);
	return buf;
}

static bool contains(const char *path, const char *what)
{
	size_t n;
	char *buf = slurp(path, &n);
	bool yes = buf && strstr(buf, what);

	free(buf);
	return yes;
}

/* Any process left whose command line starts with the sandbox's path? */
static int leftovers(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char path[300], cmd[64] = "";
		FILE *f;

		if (atoi(e->d_name) <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(cmd, sizeof(cmd), f) && !strcmp(cmd, SANDBOX))
			n++;
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* ---- the data ---- */

static void make_data(void)
{
	char why[128];

	mkdir(WORKDIR, 0755);
	if (chdir(WORKDIR))
		ksft_exit_fail_msg("%s: %s\n", WORKDIR, strerror(errno));
	if (sb_make_data(BUSYBOX, BIG_SIZE, 4, 6, why, sizeof(why)))
		ksft_exit_fail_msg("%s\n", why);
}

/* ---- the mechanisms, as the sandbox lists them ---- */

static void list_mechs(void)
{
	char *argv[] = { SANDBOX, "--list", NULL }, line[512];
	FILE *f;

	if (run(argv, "list.txt", NULL))
		ksft_exit_fail_msg("%s --list failed\n", SANDBOX);
	f = fopen("list.txt", "r");
	while (f && fgets(line, sizeof(line), f) && nr_mechs < MAX_MECHS) {
		struct mech *m = &mechs[nr_mechs++];
		char *tab = strchr(line, '\t');

		if (!tab)
			continue;
		*tab++ = 0;
		tab[strcspn(tab, "\n")] = 0;
		snprintf(m->name, sizeof(m->name), "%.31s", line);
		m->supervised = !strcmp(tab, "yes");
		m->ok = m->supervised || !strncmp(tab, "unsupervised", 12);
		snprintf(m->why, sizeof(m->why), "%s", tab);
	}
	if (f)
		fclose(f);
}

/* ---- the cases ---- */

struct applet {
	const char *name;
	char *argv[8];
};

static const struct applet applets[] = {
	{ "sha256sum", { "sha256sum", "big.bin" } },
	{ "gzip", { "gzip", "-c", "big.bin" } },
	{ "gunzip", { "gunzip", "-c", "big.gz" } },
	{ "sh-loop", { "sh", "-c", "i=0; while [ $i -lt 300 ]; do i=$((i+1)); echo \"line $i\"; done" } },
	{ "find", { "find", "tree" } },
	{ "ls-lR", { "ls", "-lR", "tree" } },
	{ "cat", { "cat", "big.bin" } },
};
#define NR_APPLETS	(sizeof(applets) / sizeof(applets[0]))

/* The argv of an applet, natively or under a mechanism. */
static void applet_argv(const struct applet *a, const char *mech, char **argv)
{
	int n = 0, i;

	if (mech) {
		argv[n++] = SANDBOX;
		argv[n++] = "--quiet";
		argv[n++] = "--mech";
		argv[n++] = (char *)mech;
		argv[n++] = "--";
	}
	argv[n++] = BUSYBOX;
	for (i = 0; a->argv[i]; i++)
		argv[n++] = a->argv[i];
	argv[n] = NULL;
}

static void test_applets(const struct mech *m)
{
	unsigned int i;

	for (i = 0; i < NR_APPLETS; i++) {
		char *argv[16], out[64], want[64];
		int want_rc, rc;
		bool same;

		snprintf(want, sizeof(want), "native-%s.out", applets[i].name);
		snprintf(out, sizeof(out), "%s-%s.out", m->name, applets[i].name);
		applet_argv(&applets[i], NULL, argv);
		want_rc = run(argv, want, NULL);
		applet_argv(&applets[i], m->name, argv);
		rc = run(argv, out, "err.txt");
		if (rc != want_rc)
			system("sed 's/^/# /' err.txt");
		same = sb_same_file(out, want);
		ksft_test_result(rc == want_rc && same,
				 "%s: busybox %s: status %d (directly %d), output %s\n",
				 m->name, applets[i].name, rc, want_rc,
				 same ? "identical" : "DIFFERS");
		unlink(out);
	}
}

/* A case that must end with status rc and say what in the sandbox's stderr. */
static void expect(const char *mech, char **prog, int rc, const char *what,
		   const char *label)
{
	char *argv[16] = { SANDBOX, "--quiet", "--mech", (char *)mech, "--" };
	int i, got, left;

	for (i = 0; prog[i]; i++)
		argv[5 + i] = prog[i];
	argv[5 + i] = NULL;
	got = run(argv, "out.txt", "err.txt");
	left = leftovers();
	ksft_test_result(got == rc && contains("err.txt", what) && !left,
			 "%s: %s: status %d (want %d), says \"%s\"%s, %d processes left\n",
			 mech, label, got, rc, what, contains("err.txt", what) ? "" : " NOT",
			 left);
	if (got != rc || !contains("err.txt", what))
		system("sed 's/^/# /' err.txt");
}

/* A copy of busybox whose PT_NOTE says PT_INTERP: "dynamically linked". */
static int make_dynamic(const char *path)
{
	size_t n;
	char *elf = slurp(BUSYBOX, &n);
	unsigned long phoff;
	unsigned short phnum, i;
	FILE *f;

	if (!elf || n < 64)
		return -1;
	memcpy(&phoff, elf + 32, 8);
	memcpy(&phnum, elf + 56, 2);
	for (i = 0; i < phnum && phoff + 56 * (i + 1) <= n; i++) {
		unsigned int *type = (unsigned int *)(elf + phoff + 56 * i);

		if (*type == 4) {	/* PT_NOTE -> PT_INTERP */
			*type = 3;
			break;
		}
	}
	f = fopen(path, "w");
	if (!f || fwrite(elf, 1, n, f) != n || fclose(f) || chmod(path, 0755))
		return -1;
	free(elf);
	return 0;
}

static void test_bad_files(const char *mech)
{
	char *text[] = { "notelf.sh", NULL }, *dyn[] = { "dynamic", NULL };
	char *elf32[] = { "elf32", NULL };
	static const unsigned char hdr32[64] = { 0x7f, 'E', 'L', 'F', 1, 1, 1 };
	FILE *f = fopen("notelf.sh", "w");

	if (f) {
		fputs("#!/bin/sh\necho not an ELF\n", f);
		fclose(f);
	}
	chmod("notelf.sh", 0755);
	f = fopen("elf32", "w");
	if (f) {
		fwrite(hdr32, 1, sizeof(hdr32), f);
		fclose(f);
	}
	expect(mech, text, 126, "not an ELF file", "a shell script is refused before anything runs");
	expect(mech, elf32, 126, "not an x86-64 (64-bit) executable", "a 32-bit ELF is refused");
	if (make_dynamic("dynamic"))
		ksft_test_result_fail("%s: a dynamic executable: cannot make one\n", mech);
	else
		expect(mech, dyn, 126, "dynamically linked", "a dynamic executable is refused");
}

#define NR_BAD	6	/* the cases of test_bad_programs() */
static void test_bad_programs(const struct mech *m)
{
	char *fork_sh[] = { BUSYBOX, "sh", "-c", BUSYBOX " true", NULL };
	char *jump[] = { (char *)self, "--probe", "jump", NULL };
	char *null[] = { (char *)self, "--probe", "null", NULL };
	char *ud2[] = { (char *)self, "--probe", "ud2", NULL };
	char *ab[] = { (char *)self, "--probe", "abort", NULL };
	char *ex[] = { (char *)self, "--probe", "exit", NULL };
	char pc[64];

	snprintf(pc, sizeof(pc), "at pc %#lx, address %#lx", PROBE_PC, PROBE_PC);
	expect(m->name, fork_sh, 128 + SIGSYS, ") at pc 0x",
	       "sh running a command (fork) ends with SIGSYS's status");
	expect(m->name, jump, 128 + SIGSEGV, pc, "a jump to an unmapped address");
	expect(m->name, null, 128 + SIGSEGV, "address 0x8", "a write to address 8");
	expect(m->name, ud2, 128 + SIGILL, "killed by signal 4", "ud2");
	expect(m->name, ab, 128 + SIGABRT, "which it sent itself", "abort()");
	expect(m->name, ex, 42, "", "exit(42): the program's own status");
}

int main(int argc, char **argv)
{
	int i, n_ok = 0, n_sup = 0;

	if (argc > 2 && !strcmp(argv[1], "--probe"))
		return probe(argv[2]);
	self = realpath(argv[0], NULL);
	ksft_print_header();
	make_data();
	list_mechs();
	for (i = 0; i < nr_mechs; i++) {
		bool na = !mechs[i].ok && !strncmp(mechs[i].why, "n/a", 3);

		n_ok += !na;
		n_sup += !na && (mechs[i].supervised || !mechs[i].ok);
	}
	ksft_set_plan(3 + n_ok * NR_APPLETS + n_sup * NR_BAD);
	for (i = 0; i < nr_mechs; i++) {
		const struct mech *m = &mechs[i];

		if (!m->ok && !strncmp(m->why, "n/a", 3)) {
			ksft_print_msg("%s: %s\n", m->name, m->why);
			continue;
		}
		if (!m->ok) {
			/* make test applies every series: missing is a failure */
			for (int k = 0; k < (int)(NR_APPLETS + NR_BAD); k++)
				ksft_test_result_fail("%s: %s\n", m->name, m->why);
			continue;
		}
		test_applets(m);
		/* Unsupervised, a program faults or forks as it would natively. */
		if (m->supervised)
			test_bad_programs(m);
		else
			ksft_print_msg("%s: %s\n", m->name, m->why);
	}
	test_bad_files("hypercall");
	ksft_finished();
}
