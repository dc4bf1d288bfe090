#!/usr/bin/env python3
"""Hold the facts' test ids to the tests (common/tests/test-ids).

usage: check_test_ids.py FACTS TAP
  FACTS  the records build/facts prints (bench/facts.c)
  TAP    a `make test` TAP log

Fails (exit 1) when a fact cites an id the table does not have, or when a
cited id matches no result of its program in the log (for an id with %m:
no result for one of the mechanisms whose facts cite it): a test
whose message was reworded, or that no longer runs, is named here instead
of turning a cell of REPORT.md into "not run".  Prints TAP.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'py'))
import guestlog  # noqa: E402

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'test-ids')


def load_table(path=TABLE):
    """{id: (program, description start)}"""
    ids = {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        tid, prog, start = (f.strip() for f in line.split('|', 2))
        ids[tid] = (prog, start)
    return ids


def status(tap, ids, tid, mech):
    """What a TAP log says of an id for a mechanism: ok, FAILED, skipped,
    not run, or unknown id."""
    if tid not in ids:
        return 'unknown id'
    prog, start = ids[tid]
    start = start.replace('%m', mech)
    if tap is None or prog not in tap:
        return 'not run'
    found = [st for st, desc in tap[prog]['results'] if desc.startswith(start)]
    if not found:
        return 'not run'
    for st in ('FAILED', 'skipped'):
        if st in found:
            return st
    return 'ok'


def checks(facts_path, tap_path):
    """[(ok, description)]: every cited id is in the table and matches a
    result of its program in the TAP log (an id no fact cites is not
    checked)."""
    facts = guestlog.read_boot(facts_path, 'facts')
    tap = guestlog.tap_programs(tap_path)
    ids = load_table()
    cited = {}
    for f in facts.by_type['fact']:
        if f.get('test'):
            cited.setdefault(f['test'], []).append(f['mech'])
    out = []
    for tid, mechs in sorted(cited.items()):
        out.append((tid in ids, f'{tid}: cited by {", ".join(mechs)}, in test-ids'))
    for tid in sorted(set(ids) & set(cited)):
        for mech in cited[tid] if '%m' in ids[tid][1] else [None]:
            st = status(tap, ids, tid, mech or '')
            what = f'{tid}' + (f' for {mech}' if mech else '')
            out.append((st != 'not run', f'{what}: a result of {ids[tid][0]} ({st})'))
    return out


def main():
    res = checks(sys.argv[1], sys.argv[2])
    print(f'1..{len(res)}')
    for i, (ok, desc) in enumerate(res, 1):
        print(f'{"ok" if ok else "not ok"} {i} test ids: {desc}')
    bad = sum(1 for ok, _ in res if not ok)
    print(f'# test ids: {len(res) - bad} passed, {bad} failed')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
