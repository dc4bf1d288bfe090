// SPDX-License-Identifier: GPL-2.0
/*
 * The one driver of a mechanism's session (mech.h): every caller, from the
 * bench to the sandbox, opens and closes an instance through here, so the
 * order available -> init -> enter -> ... -> leave -> destroy is written
 * once.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"

int wl_open(struct wl_inst *w, const struct wl_mech *m, const char *file,
	    unsigned int flags, char *why, size_t len)
{
	const char *what;

	memset(w, 0, sizeof(*w));
	if (!m->available(&what)) {
		snprintf(why, len, "%s", what);
		return WL_MISSING;
	}
	if (wl_inst_init(w, m, file, &what)) {
		snprintf(why, len, "%s: %s", what, strerror(errno));
		return WL_FAILED;
	}
	if (!(flags & WL_OPEN_IDLE) && wl_enter(w)) {
		snprintf(why, len, "enter: %s", strerror(errno));
		wl_inst_destroy(w);
		return WL_FAILED;
	}
	return WL_OPENED;
}

void wl_close(struct wl_inst *w)
{
	if (!w->mech)
		return;
	if (w->entered)
		wl_leave(w);
	wl_inst_destroy(w);
}

int wl_enter(struct wl_inst *w)
{
	if (w->mech->enter && w->mech->enter(w))
		return -1;
	w->entered = true;
	return 0;
}

void wl_leave(struct wl_inst *w)
{
	if (w->mech->leave)
		w->mech->leave(w);
	w->entered = false;
}
