#!/usr/bin/env python3
"""Turn the guest's bench output into the comparison tables.

usage: report.py OUTDIR META.json RUN=LOG [RUN=LOG ...]
RUN is 'wall' or 'icount1', 'icount2', ...; LOG the guest's ttyS1 output.
Writes OUTDIR/latest.md (also printed), latest-samples.csv (every raw
sample), latest.json (metadata + summary) and latest.dat/.gp for gnuplot.
"""
import json
import statistics
import sys

MECHS = ['native', 'ptrace-sysemu', 'pvm-exec', 'pvm-syscall', 'exit-pio', 'exit-hypercall',
         'hypercall', 'bpf']
OPS = ['bare-exit', 'getppid', 'pipe-64B', 'pread-4K', 'open-fstat-close', 'mixed']
GUEST = ['exit-pio', 'exit-hypercall', 'hypercall', 'bpf']
NO_VM = ['ptrace-sysemu', 'pvm-exec', 'pvm-syscall']


def parse(path):
    """Samples per (mech, op), the run's notes, and samples per round."""
    samples, by_round, inside, notes = {}, {}, False, []
    with open(path, errors='replace') as f:
        for line in f:
            line = line.strip().replace('\r', '')
            if line == 'BEGIN-CSV':
                inside = True
            elif line == 'END-CSV':
                inside = False
            elif line.startswith('# bench:'):
                notes.append(line[2:])
            elif inside and not line.startswith(('#', 'mech,')) and line.count(',') == 3:
                mech, op, rnd, ns = line.split(',')
                samples.setdefault((mech, op), []).append(float(ns))
                by_round.setdefault((mech, op), {})[int(rnd)] = float(ns)
    return samples, notes, by_round


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def stats(samples):
    return {k: (statistics.median(v), pct(v, 90), len(v)) for k, v in samples.items()}


def us(ns):
    return f'{ns / 1000:.2f}'


def table(st, unit_note):
    mechs = [m for m in MECHS if any((m, o) in st for o in OPS)]
    out = ['| op | ' + ' | '.join(mechs) + ' |', '|---|' + '---|' * len(mechs)]
    for op in OPS:
        cells = []
        for m in mechs:
            s = st.get((m, op))
            cells.append(f'{us(s[0])} ({us(s[1])})' if s else '-')
        out.append(f'| {op} | ' + ' | '.join(cells) + ' |')
    out.append('')
    out.append(f'Median (p90) per op, {unit_note}.')
    return out


def paired(by_round, a, b):
    """Per-round differences of samples a and b (keys (mech, op)) taken in the
    same round: (median, p10, p90), or None."""
    x, y = by_round.get(a), by_round.get(b)
    d = [x[r] - y[r] for r in x if r in y] if x and y else []
    return (statistics.median(d), pct(d, 10), pct(d, 90)) if d else None


def delta_table(st, by_round, mechs, base, label, note):
    """One row per op: native, then each mechanism minus base(m, op), paired
    per round, with the spread of the differences."""
    out = ['| op | native | ' + ' | '.join(f'{m} - {label}' for m in mechs) + ' |',
           '|---|---|' + '---|' * len(mechs)]
    for op in OPS[1:]:
        nat = st.get(('native', op))
        cells = [us(nat[0]) if nat else '-']
        for m in mechs:
            d = paired(by_round, (m, op), base(m, op))
            cells.append(f'{us(d[0])} [{us(d[1])}, {us(d[2])}]' if d else '-')
        out.append(f'| {op} | ' + ' | '.join(cells) + ' |')
    return out + ['', note + '  Median of the per-round differences [p10, p90].']


def above_floor(st, by_round, unit_note):
    mechs = [m for m in GUEST if (m, 'bare-exit') in st]
    return delta_table(st, by_round, mechs, lambda m, op: (m, 'bare-exit'), 'floor',
                       'What each mechanism adds above its own floor, the bare exit of '
                       'the same instruction in the same VM and round: for exit-pio a PIO '
                       'exit to the VMM that runs nothing, for the others an unknown '
                       'hypercall that KVM answers (-KVM_ENOSYS) without leaving the '
                       'kernel.  So exit-pio - floor leaves out the return to the VMM that '
                       'exit-hypercall - floor includes: across those two, compare the '
                       f'whole round trips (table above); {unit_note}.')


def above_native(st, by_round, unit_note):
    mechs = [m for m in NO_VM if any((m, o) in st for o in OPS)]
    if not mechs or not any(('native', o) in st for o in OPS):
        return []
    return delta_table(st, by_round, mechs, lambda m, op: ('native', op), 'native',
                       'What each mechanism without a VM adds to the native system '
                       f'call; {unit_note}.') + ['']


def ratio(st, a, b, op='getppid'):
    if (a, op) in st and (b, op) in st and st[(b, op)][0] > 0:
        return st[(a, op)][0] / st[(b, op)][0]
    return None


def headlines(st, by_round, label):
    unit = 'us' if label == 'wall' else 'k insns'
    out = []
    for exitm in ('exit-pio', 'exit-hypercall'):
        r = ratio(st, exitm, 'hypercall')
        if r:
            out.append(f'- {label}: getppid via {exitm} / via hypercall = **{r:.2f}x** '
                       '(the posting: 2.1 us / 1.0 us = 2.1x on a Xeon Gold 6268CL)')
    r = ratio(st, 'bpf', 'hypercall')
    if r:
        out.append(f'- {label}: getppid via bpf / via hypercall = **{r:.2f}x** '
                   '(the posting: "the same performance numbers")')
    r = ratio(st, 'ptrace-sysemu', 'pvm-exec')
    if r:
        out.append(f'- {label}: getppid via ptrace-sysemu / via pvm-exec = **{r:.2f}x** '
                   '(the 2021 process_vm_exec() RFC measured it against ptrace)')
    for m in ('pvm-exec', 'pvm-syscall'):
        r = ratio(st, m, 'hypercall')
        if r:
            out.append(f'- {label}: getppid via {m} / via hypercall = **{r:.2f}x**')
    if ('hypercall', 'getppid') in st and ('native', 'getppid') in st:
        hc = paired(by_round, ('hypercall', 'getppid'), ('hypercall', 'bare-exit'))
        nat = st[('native', 'getppid')][0]
        if hc:
            out.append(f'- {label}: hypercall getppid minus its floor (paired per round) = '
                       f'**{us(hc[0])} {unit}**, native getppid = **{us(nat)} {unit}**')
    return out


def main():
    outdir, meta_path = sys.argv[1], sys.argv[2]
    runs = dict(a.split('=', 1) for a in sys.argv[3:])
    meta = json.load(open(meta_path))
    parsed = {name: parse(path) for name, path in runs.items()}
    st = {name: stats(s) for name, (s, _, _) in parsed.items()}
    rounds = {name: r for name, (_, _, r) in parsed.items()}

    md = ['# KVM_HC_HOST_SYSCALL and its alternatives: one run', '']
    md += [f'- {k}: {v}' for k, v in meta.items()]
    for name, (_, notes, _) in parsed.items():
        md += [f'- {name}: {n}' for n in notes]
    md.append('')
    if 'wall' in st and st['wall']:
        md += ['## Wall clock (absolute times are noise here; compare within the table)', '']
        md += table(st['wall'], 'microseconds')
        md += ['']
        md += above_floor(st['wall'], rounds['wall'], 'microseconds')
        md += ['']
        md += above_native(st['wall'], rounds['wall'], 'microseconds')
    icounts = [n for n in st if n.startswith('icount') and st[n]]
    if icounts:
        first = st[icounts[0]]
        md += ['## Deterministic mode (QEMU -icount shift=0: 1 "ns" = 1 guest instruction)', '']
        md += table(first, 'thousands of guest instructions (path length)')
        md += ['']
        md += above_floor(first, rounds[icounts[0]], 'thousands of guest instructions')
        md += ['']
        md += above_native(first, rounds[icounts[0]], 'thousands of guest instructions')
        if len(icounts) > 1:
            diffs = []
            for k, v in first.items():
                other = st[icounts[1]].get(k)
                if other and v[0]:
                    diffs.append(abs(other[0] - v[0]) / v[0])
            a, b = parsed[icounts[0]][0], parsed[icounts[1]][0]
            pairs = [(x, y) for k in a if k in b for x, y in zip(a[k], b[k])]
            same = sum(1 for x, y in pairs if x == y)
            md.append(f'Repeatability: {len(icounts)} icount runs (one vCPU); largest relative '
                      f'difference between their medians: {100 * max(diffs or [0]):.3f}%; '
                      f'{same} of {len(pairs)} individual samples identical to the '
                      'instruction.')
            md.append('')
    md += ['## Headline figures', '']
    for name in ['wall'] + icounts[:1]:
        md += headlines(st.get(name, {}), rounds.get(name, {}), name)
    md.append('')
    text = '\n'.join(md)
    print(text)
    open(f'{outdir}/latest.md', 'w').write(text + '\n')

    with open(f'{outdir}/latest-samples.csv', 'w') as f:
        f.write('run,mech,op,sample,ns_per_op\n')
        for name, (s, _, _) in parsed.items():
            for (m, o), xs in sorted(s.items()):
                for i, x in enumerate(xs):
                    f.write(f'{name},{m},{o},{i},{x}\n')
    summary = {name: {f'{m}/{o}': {'median_ns': v[0], 'p90_ns': v[1], 'n': v[2]}
                      for (m, o), v in s.items()} for name, s in st.items()}
    json.dump({'meta': meta, 'summary': summary}, open(f'{outdir}/latest.json', 'w'), indent=1)

    # gnuplot: one cluster per op, one bar per mechanism, medians; one file
    # for wall clock, one for path lengths
    for name, fname in (('wall', 'latest.dat'), (icounts[0] if icounts else '', 'latest-icount.dat')):
        base = st.get(name)
        if not base:
            continue
        with open(f'{outdir}/{fname}', 'w') as f:
            f.write('op ' + ' '.join(MECHS) + '\n')
            for op in OPS:
                f.write(op + ' ' + ' '.join(
                    us(base[(m, op)][0]) if (m, op) in base else '0' for m in MECHS) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
