// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF policy for KVM_HC_HOST_SYSCALL, end to end: the program loads and
 * attaches; the common workload gives native results through it with no
 * exit to the VMM and counters that match the calls; a syscall outside the
 * allow-list goes to the VMM, a denied one is refused; a VM that did not
 * opt in is not seen; detaching restores the default path; a program of
 * the wrong kind, or an unprivileged loader, is rejected.
 *
 * Review round 3: what a program sees of a call (hc_observe.bpf.c) is
 * the call, never a pt_regs field the guest forged or a stale orig_ax;
 * TO_VMM where there is no exit is -KVM_EOPNOTSUPP; two mechanisms own a
 * policy each.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "bpf.h"
#include "hc_observe.skel.h"
#include "kvm_hc_abi.h"

#define ITERS	20
#define FILE_PATH "/tmp/bpf_hc.dat"

static uint64_t total_count(struct hc_policy *p)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < wl_nr_syscalls; i++)
		n += hc_policy_count(p, wl_syscall_nrs[i]);
	return n;
}

/* Run op; 0 on success, with the exits and counter delta it caused. */
static int run(struct wl_inst *w, struct hc_policy *p, int op, long *exits,
	       uint64_t *counted, char *why)
{
	uint64_t before = total_count(p);
	int r;

	w->exits = 0;
	r = wl_run(w, op, ITERS, why, 160);
	*exits = w->exits;
	*counted = total_count(p) - before;
	return r;
}

static int unprivileged_load_fails(void)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(2);
		_exit(hc_policy_load() ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/*
 * Review round 3: with hc_observe attached, run the mixed op through a
 * hypercall form: every call the verdict hook and sys_enter see inside
 * KVM_RUN must carry orig_ax == ax and the ip of the thread's own KVM_RUN.
 * In the pt_regs form, the guest's struct has forged ip, sp, cs and
 * orig_ax; the register form keeps its pt_regs from call to call.
 */
static void test_observed(const char *mech)
{
	struct hc_observe_bpf *o = hc_observe_bpf__open();
	char why[160];
	struct wl_inst w;
	int r = -1;

	if (!o)
		goto out;
	o->rodata->target_tgid = getpid();
	if (hc_observe_bpf__load(o) || hc_observe_bpf__attach(o))
		goto out;
	if (wl_open(&w, wl_mech_by_name(mech), FILE_PATH, WL_OPEN_IDLE, why, sizeof(why)))
		goto out;
	w.ctx->regs.rip = 0x5a5a5000;
	w.ctx->regs.rsp = 0x5a5a6000;
	w.ctx->regs.cs = 0x5a;
	w.ctx->regs.orig_rax = 0x1234;
	r = wl_run(&w, OP_MIXED, ITERS, why, sizeof(why));
	wl_close(&w);
out:
	ksft_test_result(!r && o && o->bss->hook_calls && o->bss->enter_calls &&
			 !o->bss->hook_orig_ax_wrong && !o->bss->hook_ip_wrong &&
			 !o->bss->enter_ip_wrong,
			 "%s: the verdict hook and sys_enter see the call with its own orig_ax and the VMM's KVM_RUN ip, not forged or stale ones (hook %llu calls: orig_ax wrong %llu, ip wrong %llu; sys_enter %llu calls: ip wrong %llu)\n",
			 mech, o ? (unsigned long long)o->bss->hook_calls : 0,
			 o ? (unsigned long long)o->bss->hook_orig_ax_wrong : 0,
			 o ? (unsigned long long)o->bss->hook_ip_wrong : 0,
			 o ? (unsigned long long)o->bss->enter_calls : 0,
			 o ? (unsigned long long)o->bss->enter_ip_wrong : 0);
	hc_observe_bpf__destroy(o);
}

/* Review round 3: TO_VMM in the register form, which has no exit. */
static void test_to_vmm_without_exit(void)
{
	struct wl_inst w;
	char why[160];
	long err = 0;
	int r = -1;

	if (!wl_open(&w, wl_mech_by_name("bpf-regs"), FILE_PATH, WL_OPEN_IDLE, why, sizeof(why))) {
		hc_policy_set(wl_bpf_policy(&w), __NR_getppid, HCP_VMM);
		if (!wl_enter(&w)) {
			r = wl_run(&w, OP_NULL, ITERS, why, sizeof(why));
			err = w.ctx->last_hc_error;
		}
		wl_close(&w);
	}
	ksft_test_result(r && err == -HC_KVM_EOPNOTSUPP,
			 "register form: a program's TO_VMM, with no exit to go to, is -KVM_EOPNOTSUPP, not -KVM_ENOSYS (%ld)\n",
			 err);
}

/* Review round 3: each mechanism owns its policy; destroying one leaves the other. */
static void test_two_policies(void)
{
	struct wl_inst a, b;
	struct hc_policy *pa = NULL, *pb = NULL;
	uint64_t counted = 0;
	char why[160];
	long exits;
	int r = -1;

	if (wl_open(&a, wl_mech_by_name("bpf"), FILE_PATH, WL_OPEN_IDLE, why, sizeof(why)))
		goto out;
	if (wl_open(&b, wl_mech_by_name("bpf-regs"), FILE_PATH, WL_OPEN_IDLE, why, sizeof(why))) {
		wl_close(&a);
		goto out;
	}
	pa = wl_bpf_policy(&a);
	pb = wl_bpf_policy(&b);
	/* Destroy one; the other must still work (closing twice is a no-op). */
	wl_close(&a);
	if (pa != pb && !wl_enter(&b))
		r = run(&b, pb, OP_NULL, &exits, &counted, why);
	wl_close(&b);
out:
	ksft_test_result(pa && pa != pb && !r && counted == ITERS,
			 "bpf and bpf-regs each own a policy; destroying one leaves the other working (%llu calls counted)\n",
			 (unsigned long long)counted);
}

int main(int argc, char **argv)
{
	const struct wl_mech *bpf = wl_mech_by_name("bpf");
	struct wl_inst w, plain;
	struct hc_policy *p;
	const char *what;
	uint64_t counted;
	char why[160];
	long exits;
	int op, r;

	ksft_print_header();
	/* make test applies the series: missing is a failure (see workload_test). */
	if (!bpf->available(&what)) {
		if (wl_allow_missing(argc, argv))
			ksft_exit_skip("%s\n", what);
		ksft_exit_fail_msg("bpf mechanism not available: %s\n", what);
	}
	ksft_set_plan(2 + (NR_OPS - 1) + 6 + 4);
	if (wl_make_file(FILE_PATH))
		ksft_exit_fail_msg("%s: %s\n", FILE_PATH, strerror(errno));

	/* The mechanism loads hc_policy.bpf.o and allows the workload's calls. */
	r = wl_open(&w, bpf, FILE_PATH, WL_OPEN_IDLE, why, sizeof(why));
	ksft_test_result(!r, "the bpf mechanism loads hc_policy.bpf.o (%s)\n",
			 r ? why : "ok");
	if (r)
		ksft_exit_fail_msg("cannot go on without the program\n");
	p = wl_bpf_policy(&w);
	r = wl_enter(&w);
	ksft_test_result(!r, "fmod_ret attaches to kvm_hc_host_syscall_bpf (%d)\n", r);

	for (op = OP_NULL; op < NR_OPS; op++) {
		r = run(&w, p, op, &exits, &counted, why);
		ksft_test_result(!r && !exits && counted == (uint64_t)wl_op_calls[op] * ITERS,
				 "%s through the program: results match native, %ld exits, %llu calls counted\n",
				 wl_op_names[op], exits, (unsigned long long)counted);
		if (r)
			ksft_print_msg("%s\n", why);
	}

	hc_policy_set(p, __NR_getppid, HCP_VMM);
	r = run(&w, p, OP_NULL, &exits, &counted, why);
	ksft_test_result(!r && exits == ITERS && !counted,
			 "getppid outside the allow-list goes to the VMM (%ld exits, %llu counted)\n",
			 exits, (unsigned long long)counted);

	hc_policy_set(p, __NR_getppid, HCP_DENY);
	r = run(&w, p, OP_NULL, &exits, &counted, why);
	ksft_test_result(r && w.ctx->hc_errors == ITERS && !exits && !counted,
			 "denied getppid is refused with -KVM_EPERM (%llu failed hypercalls)\n",
			 (unsigned long long)w.ctx->hc_errors);

	/* A VM that enabled only the exit, not KVM_CAP_PV_HOST_SYSCALL. */
	hc_policy_set(p, __NR_getppid, HCP_KERNEL);
	if (wl_open(&plain, wl_mech_by_name("exit-hypercall"), FILE_PATH, WL_OPEN_IDLE,
		    why, sizeof(why)))
		ksft_exit_fail_msg("%s\n", why);
	r = run(&plain, p, OP_NULL, &exits, &counted, why);
	ksft_test_result(!r && exits == ITERS && !counted,
			 "a VM that did not opt in is not seen by the program (%ld exits)\n",
			 exits);
	wl_close(&plain);

	wl_leave(&w);
	r = run(&w, p, OP_MIXED, &exits, &counted, why);
	ksft_test_result(!r && !exits && !counted,
			 "detached: the default in-kernel path again (%ld exits, %llu counted)\n",
			 exits, (unsigned long long)counted);
	wl_close(&w);

	ksft_test_result(!hc_misuse_rejected(),
			 "a sleepable program on the hook is refused (only verdicts; KVM runs the call)\n");
	ksft_test_result(unprivileged_load_fails(),
			 "an unprivileged loader is rejected\n");
	test_observed("hypercall");
	test_observed("hypercall-regs");
	test_to_vmm_without_exit();
	test_two_policies();
	unlink(FILE_PATH);
	ksft_finished();
}
