#!/usr/bin/env python3
"""The programs bench's tables: unmodified busybox applets per mechanism.

usage: programs_report.py OUTDIR RUN=LOG [RUN=LOG ...]
RUN is 'wall' or 'icount'; LOG the guest's ttyS1 output of /bench/programs.
Writes OUTDIR/latest-programs.md (also printed), latest-programs.json
(every median and ratio) and latest-programs.csv (every run).  Like
report.py it names no mechanism, except the hypercall, which the issue
asks every time to be compared with.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common', 'py'))
import guestlog  # noqa: E402
import results  # noqa: E402

BASE = 'native'
HC = 'hypercall'


def parse(path):
    """One programs boot: its programs, mechanisms, skips, notes, runs and
    the calls each program made under each mechanism."""
    boot = guestlog.read_boot(path, 'programs')
    elapsed = f'elapsed_{guestlog.unit(boot)}'
    progs = [(r['name'], r['command']) for r in boot.by_type['program']]
    runs = [dict(program=r['program'], mech=r['mech'], round=r['round'], ns=r[elapsed],
                 status=r['status'], same=r['same_output'], handled=r['handled'],
                 forwarded=r['forwarded'])
            for r in boot.by_type['program_run']]
    calls = {}
    for r in boot.by_type['program_calls']:
        calls.setdefault((r['program'], r['mech']), {})[r['call']] = r['count']
    return progs, boot.mechs, boot.skips, boot.notes, runs, calls, guestlog.unit(boot)


def esc(text):
    """A table cell: a | of its own would end the cell."""
    return text.replace('|', '\\|')


def medians(runs):
    by = {}
    for r in runs:
        by.setdefault((r['mech'], r['program']), []).append(r['ns'])
    return {k: statistics.median(v) for k, v in by.items()}


def fmt_time(ns):
    return f'{ns / 1e6:.1f}'


def main():
    out = sys.argv[1]
    logs = [a.split('=', 1) for a in sys.argv[2:]]
    md, js, csv_rows = [], {'runs': {}}, []
    progs, all_mechs, na = None, [], {}
    for kind, path in logs:
        try:
            p, mech_recs, skips, notes, runs, calls, u = parse(path)
        except (OSError, guestlog.LogError) as e:
            md.append(f'- {kind}: not run ({e})')
            continue
        progs = progs or p
        mechs = [m['name'] for m in mech_recs]
        for m in mechs:
            if m not in all_mechs:
                all_mechs.append(m)
        for m in mech_recs:
            if m.get('program_na'):
                na[m['name']] = m['program_na']
        icount = u == 'insns'     # the boot's run record says
        med = medians(runs)
        ran = [m for m in mechs if any((m, pn) in med for pn, _ in p)]
        unit = ('millions of guest instructions (-icount: path length)' if icount
                else 'milliseconds of wall-clock time')
        md += [f'### {kind}: time per program', '',
               '| mechanism | ' + ' | '.join(esc(pn) for pn, _ in p) + ' |',
               '|---|' + '---|' * len(p)]
        for m in mechs:
            if m in na:
                md.append(f'| {m} | n/a: {na[m]} |' + ' |' * (len(p) - 1))
                continue
            if m not in ran:
                sk = skips.get(m)
                why = f'{sk["kind"]}: {sk["reason"]}' if sk else 'not run'
                why = why.replace('missing: ', 'skipped: ')
                md.append(f'| {m} | {why} |' + ' |' * (len(p) - 1))
                continue
            md.append(f'| {m} | ' + ' | '.join(
                fmt_time(med[(m, pn)]) if (m, pn) in med else '-'
                for pn, _ in p) + ' |')
        rounds = max((r['round'] for r in runs), default=-1) + 1
        md += ['', f'Median of {rounds} round(s), {unit}: from the program\'s first '
               'instruction to its end, as the sandbox measured it (the VM or stub '
               'set up before and torn down after are not in it; for gzip|gunzip the '
               'two programs\' times added).', '']
        md += [f'### {kind}: ratios to {BASE} and to {HC}', '',
               '| mechanism | ' + ' | '.join(esc(pn) for pn, _ in p) + ' |',
               '|---|' + '---|' * len(p)]
        ratios = {}
        for m in ran:
            cells = []
            for pn, _ in p:
                t, b, h = med.get((m, pn)), med.get((BASE, pn)), med.get((HC, pn))
                if t is None or not b:
                    cells.append('-')
                    continue
                rn, rh = t / b, (t / h if h else None)
                ratios.setdefault(m, {})[pn] = {'native': rn, 'hypercall': rh}
                cells.append(f'{rn:.2f} / {rh:.2f}' if rh else f'{rn:.2f} / -')
            md.append(f'| {m} | ' + ' | '.join(cells) + ' |')
        md += ['', f'Each cell: the median time over {BASE}\'s, then over {HC}\'s, '
               'same program, same boot.  gzip|gunzip runs two sandboxes at once, each '
               'with its own VM or stub: a mechanism whose server thread spins (its '
               'icount_na says so) has two spinning threads there, on two CPUs.', '']
        bad = [r for r in runs if not r['same'] or r['status']]
        md.append(f'Outputs: {len(runs) - len(bad)} of {len(runs)} runs byte-identical '
                  'to the applet run directly, with status 0.' if not bad else
                  f'Outputs: **{len(bad)} of {len(runs)} runs differ or failed**: ' +
                  ', '.join(f"{r['mech']} {r['program']} round {r['round']}" for r in bad[:10]))
        md.append('')
        per = {}
        for (m, pn), v in med.items():
            per.setdefault(m, {})[pn] = v
        js['runs'][kind] = {
            'unit': u, f'median_{u}': per, 'ratios': ratios, 'rounds': rounds,
            'runs': len(runs), 'identical': len(runs) - len(bad)}
        for r in runs:
            csv_rows.append(dict(run=kind, unit=u, **r))
        if not icount:
            js['calls'] = {}
            for (pn, m), c in calls.items():
                js['calls'].setdefault(pn, {})[m] = c
            md += ['### System calls per program (as the supervisor saw them under '
                   f'{HC})', '', '| program | command | calls | run by the supervisor | '
                   'forwarded | by number, most first |', '|---|---|---|---|---|---|']
            for pn, cmd in p:
                c = calls.get((pn, HC), {})
                r0 = next((r for r in runs if r['mech'] == HC and r['program'] == pn), None)
                if not r0:
                    md.append(f'| {esc(pn)} | `{esc(cmd)}` | not run | | | |')
                    continue
                top = ', '.join(f'{k} {v}' for k, v in
                                sorted(c.items(), key=lambda kv: -kv[1]))
                md.append(f"| {esc(pn)} | `{esc(cmd)}` | {r0['handled'] + r0['forwarded']} | "
                          f"{r0['handled']} | {r0['forwarded']} | {top} |")
            md += ['', 'Counts differ by a few between mechanisms where a pipe is read '
                   '(gzip|gunzip): how much is in the pipe at each read depends on timing.',
                   '']
    js['programs'] = progs or []
    js['mechanisms'] = all_mechs
    js['n/a'] = na
    text = '\n'.join(['## Unmodified programs (common/sandbox)', ''] + md)
    open(f'{out}/latest-programs.md', 'w').write(text + '\n')
    results.write(f'{out}/latest-programs.json', 'programs', js)
    with open(f'{out}/latest-programs.csv', 'w') as f:
        keys = ['run', 'program', 'mech', 'round', 'ns', 'unit', 'status', 'same',
                'handled', 'forwarded']
        # The elapsed column is in the row's unit (guest instructions in icount runs).
        f.write(','.join('elapsed' if k == 'ns' else k for k in keys) + '\n')
        for r in csv_rows:
            f.write(','.join(str(r[k]) for k in keys) + '\n')
    print(text)
    return 0 if all(v['identical'] == v['runs'] for v in js['runs'].values()) else 1


if __name__ == '__main__':
    sys.exit(main())
