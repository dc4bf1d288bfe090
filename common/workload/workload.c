// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's side of the workload, common to every mechanism: the ops,
 * the context the code works on, and the calls into a mechanism's ops.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "workload.h"

const char *const wl_op_names[NR_ALL_OPS] = {
	[OP_BARE] = "bare-exit",
	[OP_NULL] = "getppid",
	[OP_PIPE] = "pipe-64B",
	[OP_PREAD] = "pread-4K",
	[OP_OPEN] = "open-fstat-close",
	[OP_MIXED] = "mixed",
	[OP_UDP_RR] = "udp-rr",
	[OP_UDP_RR_1K] = "udp-rr-1K",
	[OP_BAD] = "bad-calls",
};

const unsigned int wl_syscall_nrs[] = {
	__NR_getppid, __NR_write, __NR_read, __NR_pread64,
	__NR_open, __NR_fstat, __NR_close, __NR_sendto, __NR_recvfrom,
};
const unsigned int wl_nr_syscalls = sizeof(wl_syscall_nrs) / sizeof(wl_syscall_nrs[0]);

const int wl_op_calls[NR_ALL_OPS] = {
	[OP_BARE] = 0, [OP_NULL] = 1, [OP_PIPE] = 2, [OP_PREAD] = 1,
	[OP_OPEN] = 3, [OP_MIXED] = 7, [OP_UDP_RR] = 2, [OP_UDP_RR_1K] = 2,
	[OP_BAD] = 3,
};

bool wl_mech_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	if (!list)
		return true;
	for (p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == '+') && (p[n] == '+' || !p[n]))
			return true;
	return false;
}

int wl_make_file(const char *path)
{
	unsigned char buf[WL_FILE_SIZE];
	int fd, i;

	for (i = 0; i < WL_FILE_SIZE; i++)
		buf[i] = (unsigned char)(i * 7);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, buf, sizeof(buf)) != sizeof(buf)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

bool wl_allow_missing(int argc, char **argv)
{
	return argc > 1 && !strcmp(argv[1], "--allow-missing");
}

long host_syscall(unsigned long nr, unsigned long a0, unsigned long a1,
		  unsigned long a2, unsigned long a3, unsigned long a4,
		  unsigned long a5)
{
	long ret = syscall(nr, a0, a1, a2, a3, a4, a5);

	return ret == -1 ? -errno : ret;
}

int wl_run_in_caller(struct wl_inst *w, char *why, size_t len)
{
	wl_guest_run((uintptr_t)w->job);
	return 0;
}

/* What gVisor's Sentry does after an exit: run the call on the host. */
void wl_run_for_code(struct pt_regs *r)
{
	r->rax = host_syscall(r->rax, r->rdi, r->rsi, r->rdx, r->r10, r->r8, r->r9);
}

long wl_serve(struct wl_ctx *c, struct pt_regs *r)
{
	if (c->serve)
		return c->serve(c, r);
	return host_syscall(r->rax, r->rdi, r->rsi, r->rdx, r->r10, r->r8, r->r9);
}

/* The context's descriptors; the memory is the mechanism's (VM or shared). */
static int ctx_init(struct wl_ctx *c, const char *file)
{
	int p[2];

	c->pipe_r = c->pipe_w = c->file_fd = c->sock_fd = -1;
	if (pipe(p))
		return -1;
	c->rr_size = wl_udp.size ? wl_udp.size : 1;
	if (wl_udp.addr_len) {
		/* A lost reply must end the run: recvfrom() gives up after 2 s. */
		struct timeval tv = { .tv_sec = 2 };

		c->sock_fd = socket(wl_udp.family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (c->sock_fd < 0 ||
		    setsockopt(c->sock_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
		    connect(c->sock_fd, (struct sockaddr *)wl_udp.addr, wl_udp.addr_len))
			return -1;
	}
	c->pipe_r = p[0];
	c->pipe_w = p[1];
	c->ppid = getppid();
	snprintf(c->path, sizeof(c->path), "%s", file);
	c->file_fd = open(file, O_RDONLY | O_CLOEXEC);
	return c->file_fd < 0 ? -1 : 0;
}

int wl_inst_init(struct wl_inst *w, const struct wl_mech *m, const char *file,
	       const char **why)
{
	memset(w, 0, sizeof(*w));
	w->mech = m;
	*why = "the workload context";
	/*
	 * Without a VM the context is a shared mapping, with its descriptors
	 * open before init forks a stub (which inherits them); a VM mechanism
	 * allocates it in its arena, so its init comes first.
	 */
	if (!m->vm && (wl_shared_alloc(w) || ctx_init(w->ctx, file)))
		goto err;
	if (m->init(w, why))
		goto err;
	*why = "the workload context";
	if (m->vm && (!w->ctx || ctx_init(w->ctx, file)))
		goto err;
	return 0;
err:
	wl_inst_destroy(w);
	return -1;
}

void wl_inst_destroy(struct wl_inst *w)
{
	struct wl_ctx *c = w->ctx;
	int e = errno;

	if (!w->mech)
		return;
	/* Descriptor 0 is never ours: a context not yet set up is zeroed. */
	if (c) {
		if (c->pipe_r > 0)
			close(c->pipe_r);
		if (c->pipe_w > 0)
			close(c->pipe_w);
		if (c->file_fd > 0)
			close(c->file_fd);
		if (c->sock_fd > 0)
			close(c->sock_fd);
	}
	w->mech->destroy(w);
	wl_shared_free(w);
	w->ctx = NULL;
	w->mech = NULL;
	errno = e;
}

int wl_run_program(struct wl_inst *w, uint64_t (*fn)(uint64_t), uint64_t arg,
		   char *why, size_t len)
{
	struct wl_ctx *c = w->ctx;
	int r;

	c->errors = c->hc_errors = 0;
	c->stop = c->fault_signal = 0;
	w->job->ctx = c;
	w->job->iters = 1;
	w->job->program = fn;
	w->job->program_arg = arg;
	r = w->mech->run(w, why, len);
	w->job->program = NULL;
	if (!r && c->hc_errors) {
		snprintf(why, len, "the mechanism refused %llu calls (last: %ld)",
			 (unsigned long long)c->hc_errors, c->last_hc_error);
		return -1;
	}
	return r;
}

int wl_run(struct wl_inst *w, int op, long iters, char *why, size_t len)
{
	struct wl_ctx *c = w->ctx;

	if (!wl_op_applies(w->mech, op)) {
		snprintf(why, len, "%s has no %s", w->mech->name, wl_op_names[op]);
		return -1;
	}
	if (wl_op_is_udp(op) && c->sock_fd < 0) {
		snprintf(why, len, "%s: no echo server (wl_udp_start())", wl_op_names[op]);
		return -1;
	}
	c->errors = c->hc_errors = 0;
	c->stop = 0;
	c->rr_fail_seq = 0;
	w->job->ctx = c;
	w->job->op = op;
	w->job->iters = iters;
	if (w->mech->run(w, why, len))
		return -1;
	if (c->rr_fail_seq) {
		static const char *const step[] = { "sendto", "recvfrom", "reply" };
		long r = c->rr_fail_ret;

		if (c->rr_fail_step == 2)
			snprintf(why, len, "%s transaction %llu: the reply does not carry its sequence number",
				 wl_op_names[op], (unsigned long long)c->rr_fail_seq);
		else
			snprintf(why, len, "%s transaction %llu: %s returned %ld%s%s%s",
				 wl_op_names[op], (unsigned long long)c->rr_fail_seq,
				 step[c->rr_fail_step], r, r < 0 ? " (" : "",
				 r < 0 ? strerror(-r) : "", r < 0 ? ")" : "");
		return -1;
	}
	if (c->stop) {
		snprintf(why, len, "the mechanism stopped the job (last error %ld)",
			 c->last_hc_error);
		return -1;
	}
	if (c->errors || c->hc_errors) {
		snprintf(why, len, "%llu wrong results, %llu refused calls (last: %ld)",
			 (unsigned long long)c->errors,
			 (unsigned long long)c->hc_errors, c->last_hc_error);
		return -1;
	}
	return 0;
}
