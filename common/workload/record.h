/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one format in which a guest program reports to the host: a record
 * is a JSON object on one line of its own, {"type":"...", ...}, written
 * whole (one write() per record, or one buffer of held records).  The
 * host reads them with common/py/guestlog.py, and nothing else; TAP lines
 * and "# " comments around them are ignored by it.  Field names carry their
 * unit (ns_per_op, insns_per_op); a boot's first record is of type "run"
 * and says which schema the rest follows.
 *
 *	struct wl_rec r;
 *
 *	wl_rec_begin(&r, "sample");
 *	wl_rec_str(&r, "mech", m->name);
 *	wl_rec_num(&r, "ns_per_op", ns, 1);
 *	wl_rec_end(&r);
 */
#ifndef WL_RECORD_H
#define WL_RECORD_H

#include <stdbool.h>
#include <stddef.h>

/* Bumped when a record type changes meaning; guestlog.py checks it. */
#define WL_REC_SCHEMA	1

struct wl_rec {
	char buf[4096];
	size_t n;
	bool overflow;
};

void wl_rec_begin(struct wl_rec *r, const char *type);
/* A string (NULL: JSON null), escaped. */
void wl_rec_str(struct wl_rec *r, const char *key, const char *val);
void wl_rec_int(struct wl_rec *r, const char *key, long long val);
/* A number with that many decimals, as printf("%.*f") writes it. */
void wl_rec_num(struct wl_rec *r, const char *key, double val, int decimals);
void wl_rec_bool(struct wl_rec *r, const char *key, bool val);
/* A list of strings, NULL-terminated. */
void wl_rec_strs(struct wl_rec *r, const char *key, const char *const *vals);
/* Write the record to stdout (a record too long for buf is not written: -1). */
int wl_rec_end(struct wl_rec *r);

/*
 * Hold every record from now on in memory, in order, and write them all at
 * wl_rec_release().  For a program that measures under -icount: a record
 * written while it measures keeps ttyS1's transmit interrupt (9600 baud, a
 * character per million guest instructions) busy through the measurements
 * that follow, so the figures would depend on how much was printed.
 */
void wl_rec_hold(void);
void wl_rec_release(void);

/* The "run" record that opens a boot's records: tool, schema, kernel. */
void wl_rec_run(struct wl_rec *r, const char *tool);
/* A "note": one line for the report's list of what the run said. */
void wl_rec_note(const char *tool, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct wl_mech;
/* A "mech" record: what the host needs of a mechanism of the run. */
void wl_rec_mech(const char *tool, const struct wl_mech *m);
/*
 * A "skip": the mechanism (or one of its ops, op non-NULL) did not run, of
 * a kind the report tells apart: "missing" (the kernel lacks what it
 * needs), "n/a" (its figure means nothing here), "failed" (it broke).
 */
void wl_rec_skip(const char *tool, const char *mech, const char *op,
		 const char *kind, const char *reason);

#endif
