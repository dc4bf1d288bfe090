/* SPDX-License-Identifier: GPL-2.0 */
/* semantics_test's probe: one call, made by the code through the mechanism. */
#ifndef SEMANTICS_H
#define SEMANTICS_H

#include <stdint.h>

struct sem_probe {
	struct wl_ctx *ctx;
	uint64_t guest_gs;	/* VM: the guest's GS base, set before the call */
	uint64_t nr, a0, a1;
	int64_t ret;		/* what the call returned to the code */
	uint64_t out;		/* where the call writes (arch_prctl(ARCH_GET_GS)) */
};

/* The code's side: the call in the probe (arg), through ctx->call. */
uint64_t sem_probe_run(uint64_t arg);

#endif
