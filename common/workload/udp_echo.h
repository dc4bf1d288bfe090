/* SPDX-License-Identifier: GPL-2.0 */
#ifndef WL_UDP_ECHO_H
#define WL_UDP_ECHO_H

#include <sys/types.h>

/*
 * The udp-rr ops' echo server, a child process bound to the loopback
 * (::1, or 127.0.0.1 if the kernel has no IPv6: note says which and why).
 * wl_inst_init() connects each context's socket to it.
 */
struct wl_udp {
	pid_t pid;			/* the echo server, 0 if none */
	int family;			/* AF_INET6 or AF_INET */
	unsigned char addr[28];		/* its struct sockaddr_in{,6} */
	unsigned int addr_len;
	unsigned int size;		/* OP_UDP_RR's payload (1, as netperf -r 1,1) */
	char note[128];
};
extern struct wl_udp wl_udp;
int wl_udp_start(unsigned int size, const char **why);
/* Kill the server; new contexts still connect to its (now closed) port. */
void wl_udp_stop(void);
/* The echo server's CPU time so far, in ns (-1 if unknown). */
long long wl_udp_server_ns(void);

#endif
