/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest workload every mechanism runs: real system calls issued by
 * guest ring-0 code (or, for the mechanisms without a VM, by the same code
 * in a process), each result checked.
 *
 * workload.guest.c is the code's side: it fills a pt_regs in shared memory
 * and hands it over through the mechanism's call hook (wl_ctx.call).
 * A mechanism is one file with one struct wl_mech (its ops) in the mech/
 * folder of the variant it belongs to (common/workload/mech/ for those that
 * need no series), listed by one `MECHS +=` line in that folder's build.mk;
 * the build generates the list (mech_list.c holds what reads it).  The
 * bench, the report and the workload's tests iterate over that list and
 * never name a mechanism; a test of one variant names the mechanisms it
 * tests.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include "op.h"		/* the ops and their constants */
#include "ctx.h"	/* the guest context and the call hooks */
#include "mech.h"	/* a mechanism's ops and facts, an instance, the driver */
#include "mech_vm.h"	/* what the VM mechanisms share (vm.c) */
#include "mech_stub.h"	/* what the mechanisms without a VM share (stub.c) */
#include "udp_echo.h"	/* the udp-rr ops' echo server */

#endif
