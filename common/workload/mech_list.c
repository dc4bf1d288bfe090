// SPDX-License-Identifier: GPL-2.0
/*
 * What reads the list of mechanisms.  The list itself (wl_mechs[]) is
 * generated at build time from the `MECHS +=` lines of each folder's
 * build.mk (common/scripts/mech-list.sh), in table order: common/'s
 * first, then the variants in the order of the top-level `series` file.
 */
#include <string.h>

#include "mech.h"

const struct wl_mech *wl_mech_by_name(const char *name)
{
	int i;

	for (i = 0; i < wl_nr_mechs; i++)
		if (!strcmp(wl_mechs[i]->name, name))
			return wl_mechs[i];
	return NULL;
}

const char *const wl_prop_titles[NR_WL_PROPS] = {
	[WL_SECCOMP] = "seccomp filters judge the call",
	[WL_TRACED] = "ptrace and audit see the call",
	[WL_SIGNALS] = "signals interrupt a blocking call; restart codes defined",
	[WL_THREAD_STATE] = "calls on FS/GS base or FPU state act on the right thread",
	[WL_SAME_VA] = "needs guest-virtual == host-virtual",
	[WL_OPT_IN] = "opt-in, and the privilege it needs",
	[WL_NO_NESTED] = "works without nested virtualization",
	[WL_CONFIDENTIAL] = "usable by a confidential guest",
};
