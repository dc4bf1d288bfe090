#!/usr/bin/env python3
"""vCPU scaling's table: 1, 2 and 4 workers at once per VM mechanism.

usage: scaling_report.py OUTDIR LOG
       scaling_report.py --self-test
LOG is the guest's ttyS1 output of /bench/scaling (bench/scaling.c).
Writes OUTDIR/latest-scaling.md (also printed) and latest-scaling.json.
Per mechanism and worker count: the median over the repeats of the calls
per second of all workers together, the same over one worker's (with the
range over the repeats: min over max, max over min), and the CPU time of
every task per call.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common', 'py'))
import guestlog  # noqa: E402
import results  # noqa: E402


def parse(path):
    """The boot's run record, mechanisms, skips, notes and, per (mech,
    workers), the list of (calls/s, CPU ns per call) of every repeat."""
    boot = guestlog.read_boot(path, 'scaling')
    cells = {}
    for r in boot.by_type['scale']:
        if r['wall_ns'] <= 0 or r['calls'] <= 0:
            continue
        cells.setdefault((r['mech'], r['workers']), []).append(
            (r['calls'] * 1e9 / r['wall_ns'], r['cpu_ns'] / r['calls']))
    return boot, cells


def summarize(boot, cells):
    """{mech: {workers: {...}}}: medians, and the throughput over one
    worker's with its range over the repeats."""
    out = {}
    for m in [r['name'] for r in boot.mechs]:
        if m in boot.skips:
            out[m] = {'not_run': guestlog.skip_text(boot.skips[m])}
            continue
        one = [t for t, _ in cells.get((m, 1), [])]
        row = {}
        for n in sorted(w for mm, w in cells if mm == m):
            tput = [t for t, _ in cells[(m, n)]]
            cpu = [c for _, c in cells[(m, n)]]
            d = {'calls_per_s': statistics.median(tput), 'cpu_ns_per_call': statistics.median(cpu),
                 'repeats': len(tput)}
            if one:
                d['speedup'] = d['calls_per_s'] / statistics.median(one)
                d['speedup_range'] = [min(tput) / max(one), max(tput) / min(one)]
            row[n] = d
        out[m] = row
    return out


def ratio(v):
    """Two decimals, or two significant digits for a collapse (0.00077)."""
    return f'{v:.2f}' if v >= 0.1 else f'{v:.2g}'


def speedup_cell(d):
    """A worker count's throughput over one worker's, with its range; '-'
    without one (no cell, or no one-worker figure).  REPORT.md's too."""
    r = d and d.get('speedup_range')
    return f'{ratio(d["speedup"])} [{ratio(r[0])}-{ratio(r[1])}]' if r else '-'


def report(boot, table):
    run = boot.run
    workers = sorted({n for row in table.values() if 'not_run' not in row for n in row})
    md = ['# vCPU scaling: workers making getppid calls at once', '',
          f'Each worker is a process with its own instance of the mechanism (its own VM with '
          f'one vCPU for a VM mechanism; hc-queue: its own queue and server thread, so a '
          f'server per vCPU; hc-queue-shared: the workers are threads of one process, each '
          f'with its own VM and ring, and one server thread serves every ring), making {run["jobs"]} jobs of {run["iters_per_job"]} getppid; '
          f'{run["cpus"]} guest CPUs, {run["repeats"]} repeats.  Per worker count: all '
          f'workers\' calls per second (median over the repeats), that over one worker\'s '
          f'[range over the repeats], and the CPU time of every task of the guest per call '
          f'(ns, median).  More workers than CPUs share them: past {run["cpus"]} the '
          f'throughput cannot grow.', '']
    md += [f'- {n}' for n in boot.notes]
    for r in boot.by_type['shutdown']:
        md.append(f'- {r["mech"]}, {r["workers"]} workers, repeat {r["repeat"]}: a worker\'s '
                  f'VM ended in a triple fault or the measurement did not end ({r["reason"]}); '
                  f'measured again.  The nested-SVM defect of the emulator '
                  f'(hypercall/README.md, "Stuck calls").')
    md.append('')
    md += ['| mechanism | ' + ' | '.join(f'{n} worker{"s" * (n > 1)}: calls/s | x one | '
                                           f'CPU ns/call' for n in workers) + ' |',
           '|---|' + '---|---|---|' * len(workers)]
    for m, row in table.items():
        if 'not_run' in row:
            md.append(f'| {m} | not run: {row["not_run"]} |' + ' |' * (3 * len(workers) - 1))
            continue
        cells = []
        for n in workers:
            d = row.get(n)
            if not d:
                cells += ['-', '-', '-']
                continue
            cells += [f'{d["calls_per_s"]:,.0f}', speedup_cell(d),
                      f'{d["cpu_ns_per_call"]:,.0f}']
        md.append(f'| {m} | ' + ' | '.join(cells) + ' |')
    return md + ['']


def main(argv):
    outdir, log = argv[1], argv[2]
    boot, cells = parse(log)
    table = summarize(boot, cells)
    text = '\n'.join(report(boot, table))
    print(text)
    open(os.path.join(outdir, 'latest-scaling.md'), 'w').write(text + '\n')
    results.write(os.path.join(outdir, 'latest-scaling.json'), 'scaling',
                  {'run': boot.run, 'notes': boot.notes,
                   'shutdowns': boot.by_type['shutdown'],
                   'mechanisms': {m: {str(n): d for n, d in row.items()}
                                  if 'not_run' not in row else row
                                  for m, row in table.items()}})
    return 0


def self_test():
    """A mechanism that did not run says why and gets no figures; the
    figures of one that ran are the records', divided as stated."""
    import tempfile
    recs = [
        '{"type":"run","tool":"scaling","schema":%d,"kernel":"x","iters_per_job":10,'
        '"jobs":2,"repeats":2,"cpus":2}' % guestlog.REC_SCHEMA,
        '{"type":"mech","tool":"scaling","name":"a","vm":true}',
        '{"type":"mech","tool":"scaling","name":"b","vm":true}',
        '{"type":"skip","tool":"scaling","mech":"b","kind":"missing","reason":"no cap"}',
    ]
    for rep, (w1, w2) in enumerate(((1000, 1000), (2000, 1000))):
        recs.append('{"type":"scale","mech":"a","workers":1,"repeat":%d,"calls":20,'
                    '"wall_ns":%d,"cpu_ns":40}' % (rep, w1))
        recs.append('{"type":"scale","mech":"a","workers":2,"repeat":%d,"calls":40,'
                    '"wall_ns":%d,"cpu_ns":160}' % (rep, w2))
    with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
        f.write('\n'.join(recs) + '\n')
    try:
        boot, cells = parse(f.name)
    finally:
        os.unlink(f.name)
    t = summarize(boot, cells)
    md = '\n'.join(report(boot, t))
    checks = [
        ('a skipped mechanism says why', 'not run: scaling: b skipped: no cap' in md),
        ('no figure is made up for it', set(t['b']) == {'not_run'}),
        ('calls/s is calls over wall time, median of the repeats',
         abs(t['a'][1]['calls_per_s'] - 15e6) < 1e-3 and abs(t['a'][2]['calls_per_s'] - 40e6) < 1e-3),
        ('x one is over one worker\'s median, its range min/max and max/min',
         abs(t['a'][2]['speedup'] - 40 / 15) < 1e-9 and
         abs(t['a'][2]['speedup_range'][0] - 40 / 20) < 1e-9 and
         abs(t['a'][2]['speedup_range'][1] - 40 / 10) < 1e-9),
        ('CPU per call is every task\'s time over the calls',
         t['a'][1]['cpu_ns_per_call'] == 2 and t['a'][2]['cpu_ns_per_call'] == 4),
    ]
    bad = 0
    for what, good in checks:
        print(f'scaling report: {"ok" if good else "FAIL"}: {what}')
        bad += not good
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(self_test() if sys.argv[1:] == ['--self-test'] else main(sys.argv))
