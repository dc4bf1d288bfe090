// SPDX-License-Identifier: GPL-2.0
/*
 * sockio: read(2), write(2), readv(2) and writev(2) on TCP and UDP sockets
 * of the loopback, with the results a program can see: byte counts, data,
 * end of stream, EAGAIN, EPIPE, a datagram cut to the buffer.  runsc_test
 * runs it natively and under runsc --network=host (hostinet: each call is
 * one on a host socket, gvisor/patches 0006 makes them recvmsg and sendmsg
 * with MSG_DONTWAIT) and compares the output line by line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static void die(const char *what)
{
	printf("sockio: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* "what: N" or "what: -1 ENAME", the way a program would see the call. */
static void say(const char *what, ssize_t n)
{
	if (n >= 0)
		printf("%s: %zd\n", what, n);
	else
		printf("%s: -1 %s\n", what, errno == EAGAIN ? "EAGAIN" :
		       errno == EPIPE ? "EPIPE" : errno == ECONNRESET ?
		       "ECONNRESET" : strerror(errno));
}

static void tcp_pair(int *c, int *s)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || bind(l, (void *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (void *)&a, &len))
		die("listen");
	*c = socket(AF_INET, SOCK_STREAM, 0);
	if (*c < 0 || connect(*c, (void *)&a, sizeof(a)))
		die("connect");
	*s = accept(l, NULL, NULL);
	if (*s < 0)
		die("accept");
	close(l);
}

static void tcp(void)
{
	char buf[64], a[3], b[5];
	struct iovec w[3] = {
		{ "one", 3 }, { "two", 3 }, { "three", 5 },
	}, r[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	ssize_t n;
	int c, s;

	tcp_pair(&c, &s);
	say("tcp write", write(c, "hello", 5));
	n = read(s, buf, sizeof(buf));
	say("tcp read", n);
	printf("tcp data: %.*s\n", (int)(n > 0 ? n : 0), buf);
	say("tcp writev", writev(c, w, 3));
	/* Wait for all 11 bytes, then read 8 of them into two buffers. */
	while (recv(s, buf, sizeof(buf), MSG_PEEK) < 11)
		;
	n = readv(s, r, 2);
	say("tcp readv", n);
	printf("tcp readv data: %.3s|%.5s\n", a, b);
	say("tcp read rest", read(s, buf, sizeof(buf)));
	fcntl(s, F_SETFL, O_NONBLOCK);
	say("tcp read, nothing there, O_NONBLOCK", read(s, buf, sizeof(buf)));
	fcntl(s, F_SETFL, 0);
	shutdown(c, SHUT_WR);
	say("tcp read after the peer's shutdown (end of stream)", read(s, buf, sizeof(buf)));
	say("tcp read again at end of stream", read(s, buf, sizeof(buf)));
	close(c);
	/* The peer is gone: the first write may still go (RST comes back),
	 * a later one fails with EPIPE; SIGPIPE is ignored.
	 */
	signal(SIGPIPE, SIG_IGN);
	for (int i = 0; i < 100; i++) {
		n = write(s, "x", 1);
		if (n < 0)
			break;
		usleep(1000);
	}
	say("tcp write to a closed peer, in the end", n);
	close(s);
}

static void udp(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	char buf[16];
	ssize_t n;
	int r = socket(AF_INET, SOCK_DGRAM, 0), w = socket(AF_INET, SOCK_DGRAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (r < 0 || w < 0 || bind(r, (void *)&a, sizeof(a)) ||
	    getsockname(r, (void *)&a, &len) || connect(w, (void *)&a, sizeof(a)))
		die("udp");
	say("udp write", write(w, "datagram", 8));
	n = read(r, buf, sizeof(buf));
	say("udp read", n);
	printf("udp data: %.*s\n", (int)(n > 0 ? n : 0), buf);
	say("udp write", write(w, "a longer datagram", 17));
	n = read(r, buf, 4);
	say("udp read into 4 bytes (the rest is dropped)", n);
	printf("udp data: %.*s\n", (int)(n > 0 ? n : 0), buf);
	fcntl(r, F_SETFL, O_NONBLOCK);
	say("udp read, nothing there, O_NONBLOCK", read(r, buf, sizeof(buf)));
	close(r);
	close(w);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	tcp();
	udp();
	return 0;
}
