// SPDX-License-Identifier: GPL-2.0
/*
 * What holds of each mechanism (REPORT.md's semantics matrix), printed on
 * the host without booting anything: `make report` runs build/facts and
 * bench/decision_report.py reads its records (common/workload/record.h).
 * It only reads the mechanisms' ops tables: no hook is called, no VM is
 * made, /dev/kvm is never opened.
 *
 * A fact's test is a stable id (suite.variant.test) from
 * common/tests/test-ids, never a test's description: check_test_ids.py
 * holds each id to a result of the last `make test`.
 */
#include <stdio.h>

#include "record.h"
#include "workload.h"

int main(void)
{
	struct wl_rec r;
	int k, i;

	wl_rec_run(&r, "facts");
	wl_rec_end(&r);
	for (i = 0; i < NR_WL_PROPS; i++) {
		wl_rec_begin(&r, "prop");
		wl_rec_int(&r, "index", i);
		wl_rec_str(&r, "title", wl_prop_titles[i]);
		wl_rec_end(&r);
	}
	for (k = 0; k < wl_nr_mechs; k++) {
		const struct wl_mech *m = wl_mechs[k];

		wl_rec_mech("facts", m);
		for (i = 0; i < NR_WL_PROPS; i++) {
			const struct wl_fact *f = &m->facts[i];

			wl_rec_begin(&r, "fact");
			wl_rec_str(&r, "mech", m->name);
			wl_rec_int(&r, "prop", i);
			wl_rec_str(&r, "answer", f->answer);
			wl_rec_str(&r, "test", f->test);
			wl_rec_str(&r, "design", f->design);
			wl_rec_end(&r);
		}
	}
	return 0;
}
