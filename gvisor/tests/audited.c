// SPDX-License-Identifier: GPL-2.0
/*
 * audited PROGRAM [ARG...]: run PROGRAM with syscall auditing on, so that
 * KVM refuses every host call its threads ask of KVM_HC_HOST_SYSCALL
 * (-KVM_EPERM: the audit record of a call made inside KVM_RUN cannot be
 * emitted, hypercalls.rst); then put audit back as it was for the tests
 * that follow.
 *
 * runsc_test checks with it that the Sentry falls back to HLT for calls KVM
 * refuses, and never crashes.  A task is audited when it was created while
 * audit was on and no rule excludes it, and once audit was ever on that
 * holds even after it is turned off: kvm_pv_syscall_test leaves a
 * "-a never,task" rule for that reason.  This removes the rule for the run
 * and adds it afterwards whether or not it was there.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int audit_send(int fd, int type, const void *data, size_t len)
{
	struct {
		struct nlmsghdr h;
		char data[1024];
	} req = {}, ack = {};
	struct nlmsgerr *err = NLMSG_DATA(&ack.h);

	req.h.nlmsg_len = NLMSG_LENGTH(len);
	req.h.nlmsg_type = type;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	memcpy(NLMSG_DATA(&req.h), data, len);
	if (send(fd, &req, req.h.nlmsg_len, 0) < 0)
		return -errno;
	if (recv(fd, &ack, sizeof(ack), 0) < 0)
		return -errno;
	return ack.h.nlmsg_type == NLMSG_ERROR ? err->error : 0;
}

int main(int argc, char **argv)
{
	struct audit_status on = { .mask = AUDIT_STATUS_ENABLED, .enabled = 1 };
	struct audit_status off = { .mask = AUDIT_STATUS_ENABLED, .enabled = 0 };
	struct audit_rule_data never = { .flags = AUDIT_FILTER_TASK,
					 .action = AUDIT_NEVER };
	int fd, st, e;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGRAM [ARG...]\n", argv[0]);
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0) {
		fprintf(stderr, "audited: no audit socket: %s\n", strerror(errno));
		return 4;
	}
	audit_send(fd, AUDIT_DEL_RULE, &never, sizeof(never));
	e = audit_send(fd, AUDIT_SET, &on, sizeof(on));
	if (e) {
		fprintf(stderr, "audited: enabling audit: %s\n", strerror(-e));
		return 4;
	}
	pid = fork();
	if (pid == 0) {
		execv(argv[1], argv + 1);
		fprintf(stderr, "audited: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		st = 1 << 8;
	audit_send(fd, AUDIT_SET, &off, sizeof(off));
	audit_send(fd, AUDIT_ADD_RULE, &never, sizeof(never));
	close(fd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
