// SPDX-License-Identifier: GPL-2.0
/*
 * udp_rr: the posting's experiment (netperf UDP_RR, 1-byte request and
 * response) and a loop of one call the Sentry passes to the host, as a
 * static program that runs natively and under runsc alike.
 *
 *   udp_rr echo PORT            the echo server (127.0.0.1:PORT), forever
 *   udp_rr rr PORT N SAMPLES    SAMPLES times N transactions with it
 *   udp_rr send N SAMPLES       SAMPLES times N send()s of one byte to a
 *                               socket of its own that never reads
 *
 * Each sample prints "sample OP N NS": NS is the elapsed CLOCK_MONOTONIC
 * time of the N operations (under QEMU -icount, guest instructions).
 * A first sample of N/10, not printed, warms up the sockets and, under
 * runsc, the Sentry's paths.  Under runsc --network=host every send() and
 * recv() is a host sendmsg/recvmsg the Sentry makes.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "udp_rr: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int udp_socket(int port, int bind_it)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket");
	if (bind_it ? bind(fd, (void *)&a, sizeof(a)) :
		      connect(fd, (void *)&a, sizeof(a)))
		die(bind_it ? "bind" : "connect");
	return fd;
}

static void echo(int port)
{
	int fd = udp_socket(port, 1);
	struct sockaddr_in from;
	socklen_t len;
	char buf[64];
	ssize_t n;

	for (;;) {
		len = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (void *)&from, &len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("recvfrom");
		}
		if (sendto(fd, buf, n, 0, (void *)&from, len) < 0)
			die("sendto");
	}
}

static void rr(int fd, long n)
{
	char c = 'x';

	for (long i = 0; i < n; i++) {
		if (send(fd, &c, 1, 0) != 1)
			die("send");
		if (recv(fd, &c, 1, 0) != 1)
			die("recv");
	}
}

static void sends(int fd, long n)
{
	char c = 'x';

	for (long i = 0; i < n; i++)
		if (send(fd, &c, 1, 0) != 1)
			die("send");
}

/* A socket bound to an ephemeral port of its own: the sends' sink. */
static int sink_connected(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int sink = udp_socket(0, 1);

	if (getsockname(sink, (void *)&a, &len))
		die("getsockname");
	return udp_socket(ntohs(a.sin_port), 0);
}

int main(int argc, char **argv)
{
	void (*loop)(int, long);
	long n, samples;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "echo")) {
		echo(atoi(argv[2]));
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "rr")) {
		fd = udp_socket(atoi(argv[2]), 0);
		loop = rr;
	} else if (argc == 4 && !strcmp(argv[1], "send")) {
		fd = sink_connected();
		loop = sends;
	} else {
		fprintf(stderr, "usage: udp_rr echo PORT | rr PORT N SAMPLES | send N SAMPLES\n");
		return 2;
	}
	n = atol(argv[argc - 2]);
	samples = atol(argv[argc - 1]);
	if (n < 10 || samples < 1) {
		fprintf(stderr, "udp_rr: N must be at least 10, SAMPLES at least 1\n");
		return 2;
	}
	loop(fd, n / 10);
	for (long s = 0; s < samples; s++) {
		long long t0 = now_ns();

		loop(fd, n);
		printf("sample %s %ld %lld\n", argv[1], n, now_ns() - t0);
	}
	return 0;
}
