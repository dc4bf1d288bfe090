// SPDX-License-Identifier: GPL-2.0
/*
 * semantics_test: what the report's semantics matrix (REPORT.md) cites,
 * checked through every mechanism of the list.
 *
 * seccomp: in a child that installed a filter turning getegid() into
 * ERRNO(77), the code's getegid() through the mechanism must come back
 * -77, whichever thread of the process runs it (the vCPU thread inside
 * KVM_RUN, the VMM after the exit, a tracer, a supervisor, a queue's
 * thread, process_vm_exec()'s caller).
 *
 * FS/GS base (Sean Christopherson's example in the thread): with the
 * guest's GS base set to a marker, arch_prctl(ARCH_GET_GS) through a VM
 * mechanism must either be refused or answer the GS base of the VMM
 * thread that ran it, never the guest's.  Inside KVM_RUN the thread's
 * segment bases may hold the guest's values.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <asm/prctl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "kselftest.h"
#include "workload.h"
#include "semantics.h"

#define FILE_PATH	"/tmp/semantics.dat"
#define ERRNO_MARK	77
#define GUEST_GS	0x5a5a5000UL

/* Set up m with the probe page shared with its code: 0, or -1 and why. */
static int setup(struct wl_inst *w, const struct wl_mech *m, struct sem_probe **pp,
		 char *why, size_t len)
{
	struct sem_probe *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		snprintf(why, len, "mmap: %s", strerror(errno));
		return -1;
	}
	/* Idle: each probe enters and leaves (run_probe()). */
	if (wl_open(w, m, FILE_PATH, WL_OPEN_IDLE, why, len)) {
		munmap(p, 4096);
		return -1;
	}
	if (m->vm && vmm_map(&w->vm, p, 4096)) {
		snprintf(why, len, "vmm_map: %s", strerror(errno));
		wl_close(w);
		munmap(p, 4096);
		return -1;
	}
	memset(p, 0, sizeof(*p));
	p->ctx = w->ctx;
	*pp = p;
	return 0;
}

static int run_probe(struct wl_inst *w, struct sem_probe *p, char *why, size_t len)
{
	int r;

	if (wl_enter(w)) {
		snprintf(why, len, "enter: %s", strerror(errno));
		return -1;
	}
	r = wl_run_program(w, sem_probe_run, (uintptr_t)p, why, len);
	wl_leave(w);
	return r;
}

static int install_filter(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getegid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ERRNO_MARK),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/*
 * In a child, since a filter cannot be taken off: the filter first, then
 * the mechanism (its threads and stubs inherit it), then the call.
 */
static void test_seccomp(const struct wl_mech *m)
{
	struct sem_probe *p = NULL;
	int status, pfd[2];
	char why[200] = "";
	struct wl_inst w;
	pid_t pid;

	if (pipe(pfd))
		ksft_exit_fail_msg("pipe: %s\n", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (!pid) {
		long got = 0;
		int ok = 0;

		if (install_filter())
			snprintf(why, sizeof(why), "seccomp(): %s", strerror(errno));
		else if (!setup(&w, m, &p, why, sizeof(why))) {
			p->nr = __NR_getegid;
			if (!run_probe(&w, p, why, sizeof(why)) || w.ctx->hc_errors) {
				got = p->ret;
				ok = got == -ERRNO_MARK;
				snprintf(why, sizeof(why), "got %ld", got);
			}
		}
		if (write(pfd[1], why, strlen(why) + 1) < 0)
			_exit(2);
		_exit(!ok);
	}
	close(pfd[1]);
	if (read(pfd[0], why, sizeof(why) - 1) < 0)
		why[0] = 0;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	ksft_test_result(WIFEXITED(status) && !WEXITSTATUS(status),
			 "%s: seccomp: the process's filter (getegid -> ERRNO(%d)) judges the call (%s)\n",
			 m->name, ERRNO_MARK, why);
}

static void test_gs_base(const struct wl_mech *m)
{
	unsigned long own = 0;
	struct sem_probe *p;
	char why[200] = "";
	struct wl_inst w;
	bool ok = false;

	syscall(SYS_arch_prctl, ARCH_GET_GS, &own);
	if (!setup(&w, m, &p, why, sizeof(why))) {
		p->guest_gs = GUEST_GS;
		p->nr = __NR_arch_prctl;
		p->a0 = ARCH_GET_GS;
		p->a1 = (uintptr_t)&p->out;
		p->out = 0xdeadbeef;
		run_probe(&w, p, why, sizeof(why));
		if (w.ctx->hc_errors) {
			ok = true;
			snprintf(why, sizeof(why), "refused by the mechanism (%ld)",
				 w.ctx->last_hc_error);
		} else if (p->ret == 0) {
			ok = p->out == own;
			snprintf(why, sizeof(why), "answered %#lx, the VMM thread's %#lx",
				 (unsigned long)p->out, own);
		} else {
			snprintf(why, sizeof(why), "returned %ld", (long)p->ret);
		}
		wl_close(&w);
		munmap(p, 4096);
	}
	ksft_test_result(ok, "%s: arch_prctl(ARCH_GET_GS) with the guest's GS base %#lx: %s\n",
			 m->name, GUEST_GS, why);
}

int main(int argc, char **argv)
{
	const char *why;
	int k, n = 0;

	ksft_print_header();
	for (k = 0; k < wl_nr_mechs; k++)
		n += 1 + wl_mechs[k]->vm;
	ksft_set_plan(n);
	if (wl_make_file(FILE_PATH))
		ksft_exit_fail_msg("%s: %s\n", FILE_PATH, strerror(errno));
	for (k = 0; k < wl_nr_mechs; k++) {
		const struct wl_mech *m = wl_mechs[k];

		/* make test applies every series: missing is a failure */
		if (!m->available(&why)) {
			ksft_test_result_fail("%s: seccomp: not available: %s\n", m->name, why);
			if (m->vm)
				ksft_test_result_fail("%s: arch_prctl(ARCH_GET_GS): not available: %s\n",
						      m->name, why);
			continue;
		}
		test_seccomp(m);
		if (m->vm)
			test_gs_base(m);
	}
	unlink(FILE_PATH);
	ksft_finished();
}
