// SPDX-License-Identifier: GPL-2.0
/* The loader side of hc_policy.bpf.c, on its bpftool-generated skeleton. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hc_policy.h"
#include "hc_policy.skel.h"
#include "hc_misuse.skel.h"

struct hc_policy {
	struct hc_policy_bpf *skel;
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN && getenv("HCP_VERBOSE") ?
		vfprintf(stderr, fmt, ap) : 0;
}

/* Each call makes a policy of its own: its owner destroys it, once. */
struct hc_policy *hc_policy_load(void)
{
	struct hc_policy *p = calloc(1, sizeof(*p));
	int err;

	if (!p)
		return NULL;
	libbpf_set_print(quiet);
	p->skel = hc_policy_bpf__open();
	if (!p->skel)
		goto cleanup;
	err = hc_policy_bpf__load(p->skel);
	if (err) {
		errno = -err;
		goto cleanup;
	}
	return p;

cleanup:
	err = errno;
	hc_policy_bpf__destroy(p->skel);
	free(p);
	errno = err;
	return NULL;
}

int hc_policy_set(struct hc_policy *p, unsigned int nr, int verdict)
{
	__u8 v = verdict;

	return bpf_map__update_elem(p->skel->maps.hcp_allow, &nr, sizeof(nr),
				    &v, sizeof(v), BPF_ANY);
}

int hc_policy_attach(struct hc_policy *p)
{
	return hc_policy_bpf__attach(p->skel);
}

void hc_policy_detach(struct hc_policy *p)
{
	hc_policy_bpf__detach(p->skel);
}

uint64_t hc_policy_count(struct hc_policy *p, unsigned int nr)
{
	__u64 v = 0;

	bpf_map__lookup_elem(p->skel->maps.hcp_calls, &nr, sizeof(nr), &v,
			     sizeof(v), 0);
	return v;
}

void hc_policy_destroy(struct hc_policy *p)
{
	if (!p)
		return;
	hc_policy_bpf__destroy(p->skel);
	free(p);
}

int hc_misuse_rejected(void)
{
	static char log[64 * 1024];
	LIBBPF_OPTS(bpf_object_open_opts, opts,
		    .kernel_log_buf = log,
		    .kernel_log_size = sizeof(log),
		    .kernel_log_level = 1);
	struct hc_misuse_bpf *skel = hc_misuse_bpf__open_opts(&opts);
	int err;

	if (!skel)
		return -1;
	err = hc_misuse_bpf__load(skel);
	hc_misuse_bpf__destroy(skel);
	/* Rejected, and for the right reason: the hook is not sleepable. */
	return err && strstr(log, "kvm_hc_host_syscall_bpf is not sleepable") ? 0 : -1;
}
