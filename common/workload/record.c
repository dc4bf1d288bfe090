// SPDX-License-Identifier: GPL-2.0
/* The guest -> host record format: see record.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "mech.h"
#include "record.h"

static void put(struct wl_rec *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct wl_rec *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->n, sizeof(r->buf) - r->n, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(r->buf) - r->n)
		r->overflow = true;
	else
		r->n += n;
}

static void put_string(struct wl_rec *r, const char *s)
{
	put(r, "\"");
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			put(r, "\\%c", c);
		else if (c < 0x20)
			put(r, "\\u%04x", c);
		else
			put(r, "%c", c);
	}
	put(r, "\"");
}

static void key(struct wl_rec *r, const char *k)
{
	put(r, ",");
	put_string(r, k);
	put(r, ":");
}

void wl_rec_begin(struct wl_rec *r, const char *type)
{
	r->n = 0;
	r->overflow = false;
	put(r, "{\"type\":");
	put_string(r, type);
}

void wl_rec_str(struct wl_rec *r, const char *k, const char *val)
{
	key(r, k);
	if (val)
		put_string(r, val);
	else
		put(r, "null");
}

void wl_rec_int(struct wl_rec *r, const char *k, long long val)
{
	key(r, k);
	put(r, "%lld", val);
}

void wl_rec_num(struct wl_rec *r, const char *k, double val, int decimals)
{
	key(r, k);
	/* JSON has no NaN or infinity. */
	if (val != val || val > 1e300 || val < -1e300)
		put(r, "null");
	else
		put(r, "%.*f", decimals, val);
}

void wl_rec_bool(struct wl_rec *r, const char *k, bool val)
{
	key(r, k);
	put(r, val ? "true" : "false");
}

void wl_rec_strs(struct wl_rec *r, const char *k, const char *const *vals)
{
	int i;

	key(r, k);
	put(r, "[");
	for (i = 0; vals[i]; i++) {
		if (i)
			put(r, ",");
		put_string(r, vals[i]);
	}
	put(r, "]");
}

/* Records held by wl_rec_hold(), in order. */
static struct {
	bool on;
	char *buf;
	size_t len, size;
	unsigned long dropped;
} held;

static int write_all(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, buf, len);

		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

int wl_rec_end(struct wl_rec *r)
{
	put(r, "}\n");
	if (r->overflow) {
		fprintf(stderr, "# record too long, dropped: %.60s...\n", r->buf);
		return -1;
	}
	if (held.on) {
		if (held.len + r->n > held.size) {
			size_t size = held.size ? 2 * held.size : 1 << 20;
			char *buf;

			while (size < held.len + r->n)
				size *= 2;
			buf = realloc(held.buf, size);
			if (!buf) {
				held.dropped++;
				return -1;
			}
			held.buf = buf;
			held.size = size;
		}
		memcpy(held.buf + held.len, r->buf, r->n);
		held.len += r->n;
		return 0;
	}
	fflush(stdout);
	return write_all(r->buf, r->n);
}

void wl_rec_hold(void)
{
	held.on = true;
}

void wl_rec_release(void)
{
	held.on = false;
	fflush(stdout);
	if (held.len)
		write_all(held.buf, held.len);
	free(held.buf);
	held.buf = NULL;
	held.len = held.size = 0;
	if (held.dropped)
		wl_rec_note("record", "%lu held records dropped: out of memory", held.dropped);
	held.dropped = 0;
}

void wl_rec_run(struct wl_rec *r, const char *tool)
{
	struct utsname u;

	uname(&u);
	wl_rec_begin(r, "run");
	wl_rec_str(r, "tool", tool);
	wl_rec_int(r, "schema", WL_REC_SCHEMA);
	wl_rec_str(r, "kernel", u.release);
}

void wl_rec_note(const char *tool, const char *fmt, ...)
{
	struct wl_rec r;
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	wl_rec_begin(&r, "note");
	wl_rec_str(&r, "tool", tool);
	wl_rec_str(&r, "text", text);
	wl_rec_end(&r);
}

void wl_rec_mech(const char *tool, const struct wl_mech *m)
{
	struct wl_rec r;

	wl_rec_begin(&r, "mech");
	wl_rec_str(&r, "tool", tool);
	wl_rec_str(&r, "name", m->name);
	wl_rec_bool(&r, "vm", m->vm);
	wl_rec_str(&r, "icount_na", m->icount_na);
	wl_rec_str(&r, "program_na", m->program_na);
	wl_rec_str(&r, "summary", m->summary);
	wl_rec_end(&r);
}

void wl_rec_skip(const char *tool, const char *mech, const char *op,
		 const char *kind, const char *reason)
{
	struct wl_rec r;

	wl_rec_begin(&r, "skip");
	wl_rec_str(&r, "tool", tool);
	wl_rec_str(&r, "mech", mech);
	wl_rec_str(&r, "op", op);
	wl_rec_str(&r, "kind", kind);
	wl_rec_str(&r, "reason", reason);
	wl_rec_end(&r);
}
