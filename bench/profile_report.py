#!/usr/bin/env python3
"""Where the cost goes: turn /bench/profile's output into tables and a plot.

usage: profile_report.py OUTDIR counts=LOG [path=LOG]
       profile_report.py --self-test

counts: the event-count boot (profile -c); path: the -icount boot (profile
-p).  Writes OUTDIR/latest-profile.md (also printed), latest-profile.csv
(every figure), latest-profile-{getppid,mixed}.dat (for plot-profile.gp).
A mechanism the guest could not run is a row saying why, never zeros.
"""
import csv
import io
import os
import sys
import tempfile

OPS = ['bare-exit', 'getppid', 'mixed']
# The counts a reader looks at first, in this order; the rest go to the csv.
MAIN_COUNTS = ['vm-exits', 'userspace-exits', 'hypercalls', 'kvm-fpu-swaps', 'syscalls',
               'context-switches', 'cr3-switches+flushes', 'signals', 'task-fpu-saves']
STAT_COUNTS = ['stat:exits', 'stat:io_exits', 'stat:hypercalls', 'stat:host_state_reload',
               'stat:fpu_reload', 'KVM_RUN-returns']


def parse(path):
    """Everything one profile run printed."""
    r = {'mechs': [], 'skip': {}, 'notes': [], 'sources': {}, 'count': {}, 'path': {},
         'bucket': {}, 'top': {}, 'named': {}, 'buckets': [], 'where': []}
    with open(path, errors='replace') as f:
        for line in f:
            line = line.strip().replace('\r', '')
            if line.startswith('MECH|'):
                name = line.split('|')[1]
                if name not in r['mechs']:
                    r['mechs'].append(name)
            elif line.startswith('COUNTER|'):
                _, name, src = line.split('|', 2)
                r['sources'][name] = src
            elif line.startswith('BUCKET|'):
                r['buckets'].append(line.split('|')[1])
            elif line.startswith('WHERE|'):
                r['where'].append(line.split('|')[1])
            elif line.startswith('# profile:'):
                r['notes'].append(line[2:])
            elif line.startswith('skip,'):
                _, m, why = line.split(',', 2)
                r['skip'][m] = why
            else:
                row = next(csv.reader([line]))
                if len(row) >= 5 and row[0] in ('count', 'path', 'bucket', 'top', 'named'):
                    kind, m, op, key, val = row[:5]
                    try:
                        v = float(val)
                    except ValueError:
                        v = None
                    d = r[kind].setdefault((m, op), {})
                    d[key] = (v, row[5]) if kind == 'top' else v
    return r


def k(v):
    return '-' if v is None else f'{v / 1000:.2f}'


def count_table(r, op, names):
    names = [n for n in names if any(n in r['count'].get((m, op), {}) for m in r['mechs'])]
    if not names:
        return []
    out = ['| mechanism | ' + ' | '.join(names) + ' |', '|---|' + '---|' * len(names)]
    for m in r['mechs']:
        if m in r['skip']:
            out.append(f'| {m} | not run: {r["skip"][m]} |' + ' |' * (len(names) - 1))
            continue
        c = r['count'].get((m, op))
        if c is None or not any(n in c for n in names):
            continue	# the op does not apply, or none of these is counted (no VM)
        out.append(f'| {m} | ' + ' | '.join(
            f'{c[n]:.2f}' if n in c else '-' for n in names) + ' |')
    return out


def path_buckets(r, op):
    """The buckets any mechanism has a figure in, in the guest's order: user
    mode and the guest first, the named buckets, other kernel last."""
    order = r['where'] + r['buckets'] + ['other kernel']
    seen = set()
    for m in r['mechs']:
        for b, v in r['bucket'].get((m, op), {}).items():
            if v and abs(v) >= 0.5:
                seen.add(b)
    return [b for b in order if b in seen] + sorted(seen - set(order))


def path_table(r, op):
    bks = path_buckets(r, op)
    out = ['| mechanism | total | ' + ' | '.join(bks) + ' |',
           '|---|---|' + '---|' * len(bks)]
    for m in r['mechs']:
        if m in r['skip']:
            out.append(f'| {m} | not run: {r["skip"][m]} |' + ' |' * len(bks))
            continue
        p, b = r['path'].get((m, op)), r['bucket'].get((m, op))
        if not p:
            continue
        out.append(f'| {m} | {k(p.get("total"))} | ' +
                   ' | '.join(k(b.get(x)) if b else '-' for x in bks) + ' |')
    return out


def top_table(r, op, n=6):
    out = ['| mechanism | top kernel functions, thousands of instructions per op (bucket) |',
           '|---|---|']
    for m in r['mechs']:
        t = r['top'].get((m, op))
        if not t:
            continue
        best = sorted(t.items(), key=lambda kv: -(kv[1][0] or 0))[:n]
        out.append(f'| {m} | ' + '; '.join(f'{f} {k(v)} ({b})' for f, (v, b) in best) + ' |')
    return out


def named_table(r, op):
    fns = []
    for m in r['mechs']:
        for f in r['named'].get((m, op), {}):
            if f not in fns:
                fns.append(f)
    if not fns:
        return []
    out = ['| mechanism | ' + ' | '.join(fns) + ' |', '|---|' + '---|' * len(fns)]
    for m in r['mechs']:
        d = r['named'].get((m, op))
        if d:
            out.append(f'| {m} | ' + ' | '.join(
                'not in this kernel' if d.get(f) is None else k(d[f]) for f in fns) + ' |')
    return out


def write_dat(r, op, path):
    """Rows: mechanisms that ran; columns: buckets (k instructions, >= 0)."""
    bks = path_buckets(r, op)
    rows = [m for m in r['mechs'] if r['bucket'].get((m, op))]
    with open(path, 'w') as f:
        f.write('mech ' + ' '.join('"' + b + '"' for b in bks) + '\n')
        for m in rows:
            b = r['bucket'][(m, op)]
            f.write(m + ' ' + ' '.join(f'{max(0.0, (b.get(x) or 0) / 1000):.3f}'
                                       for x in bks) + '\n')
    return len(bks) + 1


def report(counts, path):
    md = ['# Where the cost goes: one profile run', '']
    for name, r in (('counts', counts), ('path', path)):
        if r:
            md += [f'- {name}: {n}' for n in r['notes']]
    md.append('')
    if counts:
        md += ['## Event counts per op (the kernel\'s own counters)', '',
               'Machine-wide tracepoint counts and the vCPU\'s KVM stats per op: the counts '
               'of a job of n iterations minus those of an empty job, over n (so the job\'s '
               'own entry and end-of-job exit are not in them).  Two vCPUs, no -icount: a '
               'count does not depend on time, and a mechanism whose threads spin needs a '
               'second CPU to run as designed.  Sources: ' +
               ', '.join(f'{n} = {s}' for n, s in counts['sources'].items()) + '.', '']
        for op in OPS:
            t = count_table(counts, op, MAIN_COUNTS)
            if t:
                md += [f'### {op}', ''] + t + ['']
                s = count_table(counts, op, STAT_COUNTS)
                if s:
                    md += ['KVM binary stats of the vCPU (KVM_GET_STATS_FD) and the VMM\'s '
                           'count of KVM_RUN returns:', ''] + s + ['']
    if path:
        md += ['## The kernel path per op (sampled, -icount)', '',
               'Thousands of guest instructions per op, by where a cpu-clock sample found '
               'the CPU (one sample per 10-20k instructions, a period drawn per chunk so '
               'that the samples do not lock onto the loop; about 2000 samples per cell, so '
               'a bucket under 2% of its total is within the noise, and a small negative '
               'value is noise of the empty-job subtraction).  Code that runs with interrupts '
               'off is counted where they come back on; KVM\'s entry and exit around VMRUN '
               'is such code and is counted with the guest.  Buckets are by function '
               'name (bench/profile.c, `buckets[]`).', '']
        for op in OPS:
            if any(path['bucket'].get((m, op)) for m in path['mechs']):
                md += [f'### {op}', ''] + path_table(path, op) + ['']
        md += ['### Top kernel functions per getppid', ''] + top_table(path, 'getppid') + ['']
        nt = named_table(path, 'getppid')
        if nt:
            md += ['### The functions named in the posting\'s perf trace, per getppid', '',
                   'vmx_prepare_switch_to_guest, fpu_swap_kvm_fpstate, vcpu_put and '
                   'syscall_exit_to_user_mode, as the posting\'s Xeon trace named them; '
                   'on this SVM host the first is svm_prepare_switch_to_guest.  0 means no '
                   'sample fell in it.', ''] + nt + ['']
    return md


def main(argv):
    outdir = argv[1]
    logs = dict(a.split('=', 1) for a in argv[2:])
    counts = parse(logs['counts']) if 'counts' in logs else None
    path = parse(logs['path']) if 'path' in logs else None
    md = report(counts, path)
    text = '\n'.join(md)
    print(text)
    open(os.path.join(outdir, 'latest-profile.md'), 'w').write(text + '\n')
    with open(os.path.join(outdir, 'latest-profile.csv'), 'w') as f:
        w = csv.writer(f)
        w.writerow(['run', 'kind', 'mech', 'op', 'key', 'value'])
        for name, r in (('counts', counts), ('path', path)):
            if not r:
                continue
            for kind in ('count', 'path', 'bucket', 'named'):
                for (m, op), d in sorted(r[kind].items()):
                    for key, v in d.items():
                        w.writerow([name, kind, m, op, key, v])
            for (m, op), d in sorted(r['top'].items()):
                for key, (v, b) in d.items():
                    w.writerow([name, 'top', m, op, key, v])
            for m, why in r['skip'].items():
                w.writerow([name, 'skip', m, '', 'why', why])
    if path:
        for op in ('getppid', 'mixed'):
            n = write_dat(path, op, os.path.join(outdir, f'latest-profile-{op}.dat'))
            open(os.path.join(outdir, f'latest-profile-{op}.ncols'), 'w').write(f'{n}\n')
    return 0


def self_test():
    """A mechanism that did not run is a row with its reason, never zeros;
    the figures of one that ran are the guest's, unchanged."""
    log = '\n'.join([
        'COUNTER|hypercalls|kvm:kvm_hypercall',
        'PROFILE-BEGIN',
        'MECH|hypercall|1||x', 'count,hypercall,getppid,hypercalls,1.000',
        'MECH|pvm-exec|0||y', 'skip,pvm-exec,kernel without process_vm_exec()',
        'PROFILE-END'])
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, 'log')
        open(p, 'w').write(log)
        sys.stdout = io.StringIO()
        try:
            main(['x', d, f'counts={p}'])
        finally:
            sys.stdout = sys.__stdout__
        md = open(os.path.join(d, 'latest-profile.md')).read()
    checks = [
        ('the skipped mechanism says why',
         '| pvm-exec | not run: kernel without process_vm_exec() |' in md),
        ('no zero is made up for it', '| pvm-exec | 0' not in md),
        ('the figure that ran is there', '| hypercall | 1.00 |' in md),
    ]
    bad = [n for n, ok in checks if not ok]
    for n, ok in checks:
        print(f'profile report: {"ok" if ok else "FAIL"}: {n}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(self_test() if sys.argv[1:] == ['--self-test'] else main(sys.argv))
