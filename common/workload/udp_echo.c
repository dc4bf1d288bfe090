// SPDX-License-Identifier: GPL-2.0
/*
 * The udp-rr ops' echo server: netperf's netserver in miniature.  A child
 * process bound to the loopback only, on a port the kernel picks, that
 * sends every datagram back to where it came from.  It dies with its
 * parent (PR_SET_PDEATHSIG) and when wl_udp_stop() kills it, so a run can
 * never leave it behind.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <net/if.h>

#include "workload.h"

struct wl_udp wl_udp;

static int bind_loopback(int family, struct sockaddr_storage *ss, socklen_t *len)
{
	int fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (void *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		*len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (void *)ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*len = sizeof(*a);
	}
	if (fd < 0 || bind(fd, (struct sockaddr *)ss, *len) ||
	    getsockname(fd, (struct sockaddr *)ss, len)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void echo(int fd)
{
	unsigned char buf[65536];

	for (;;) {
		struct sockaddr_storage from;
		socklen_t len = sizeof(from);
		ssize_t n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &len);

		if (n >= 0)
			sendto(fd, buf, n, 0, (struct sockaddr *)&from, len);
	}
}

/* The loopback interface is down in a fresh guest: bring it up. */
static void loopback_up(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr;

	if (fd < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
}

int wl_udp_start(unsigned int size, const char **why)
{
	struct sockaddr_storage ss;
	pid_t parent = getpid();
	socklen_t len;
	int fd;

	wl_udp_stop();
	loopback_up();
	wl_udp.size = size ? size : 1;
	if (wl_udp.size > WL_RR_MAX) {
		*why = "payload larger than WL_RR_MAX";
		errno = EINVAL;
		return -1;
	}
	wl_udp.family = AF_INET6;
	fd = bind_loopback(AF_INET6, &ss, &len);
	if (fd < 0) {
		snprintf(wl_udp.note, sizeof(wl_udp.note),
			 "127.0.0.1: cannot bind ::1 (%s)", strerror(errno));
		wl_udp.family = AF_INET;
		fd = bind_loopback(AF_INET, &ss, &len);
	} else {
		snprintf(wl_udp.note, sizeof(wl_udp.note), "::1");
	}
	*why = "cannot bind a UDP socket on the loopback";
	if (fd < 0)
		return -1;
	memcpy(wl_udp.addr, &ss, len);
	wl_udp.addr_len = len;
	wl_udp.pid = fork();
	if (wl_udp.pid < 0) {
		wl_udp.pid = 0;
		close(fd);
		return -1;
	}
	if (!wl_udp.pid) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(1);
		echo(fd);
	}
	close(fd);
	return 0;
}

/* The address stays: a socket connected to it then gets ECONNREFUSED. */
void wl_udp_stop(void)
{
	if (wl_udp.pid > 0) {
		kill(wl_udp.pid, SIGKILL);
		waitpid(wl_udp.pid, NULL, 0);
	}
	wl_udp.pid = 0;
}

long long wl_udp_server_ns(void)
{
	struct timespec ts;
	clockid_t clk;

	if (wl_udp.pid <= 0 || clock_getcpuclockid(wl_udp.pid, &clk) ||
	    clock_gettime(clk, &ts))
		return -1;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
