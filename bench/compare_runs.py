#!/usr/bin/env python3
"""Two bench runs' path lengths side by side: does a change move them?

usage: compare_runs.py NEW_DIR OLD_DIR [THRESHOLD_PERCENT]

Reads each directory's latest.json (either schema: common/py/results.py)
and compares the medians of every icount run, cell by cell (mechanism, op).
Prints the cells that moved by more than THRESHOLD_PERCENT (default 0.2),
how many did not, and the largest move, beside each run's own spread
between its icount boots.  A report, not a test: it exits 0.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common', 'py'))
import results  # noqa: E402


def cells(js, run):
    r = js['runs'].get(run)
    if not r:
        return {}
    key = f'median_{r["unit"]}'
    return {(m, op): v[key] for m, ops in r['per_op'].items() for op, v in ops.items()}


def spread(js):
    """The largest relative difference between a run's icount boots."""
    runs = sorted(r for r in js['runs'] if r.startswith('icount'))
    if len(runs) < 2:
        return None
    a, b = cells(js, runs[0]), cells(js, runs[1])
    return max((abs(a[k] - b[k]) / b[k] for k in a if k in b and b[k]), default=0)


def main():
    new = results.load(os.path.join(sys.argv[1], 'latest.json'), 'bench')
    old = results.load(os.path.join(sys.argv[2], 'latest.json'), 'bench')
    limit = float(sys.argv[3]) / 100 if len(sys.argv) > 3 else 0.002
    n = within = 0
    worst = (0, None)
    for run in sorted(r for r in new['runs'] if r.startswith('icount') and r in old['runs']):
        a, b = cells(new, run), cells(old, run)
        for k in sorted(a):
            if k not in b or not b[k]:
                continue
            d = (a[k] - b[k]) / b[k]
            n += 1
            if abs(d) <= limit:
                within += 1
            else:
                print(f'{run} {k[0]:16} {k[1]:18} {b[k]:10.1f} -> {a[k]:10.1f} {100 * d:+.3f}%')
            if abs(d) > abs(worst[0]):
                worst = (d, (run,) + k)
    print(f'{within} of {n} cells within {100 * limit:.1f}%; largest move '
          f'{100 * worst[0]:+.3f}% ({" ".join(worst[1]) if worst[1] else "-"})')
    for name, js in (('new', new), ('old', old)):
        s = spread(js)
        print(f'{name} run: its icount boots differ by at most '
              + (f'{100 * s:.3f}%' if s is not None else 'n/a (one boot)'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
