#!/usr/bin/env python3
"""Turn the guest's bench output into the comparison tables.

usage: report.py OUTDIR META.json RUN=LOG [RUN=LOG ...]
RUN is 'wall' or 'icount1', 'icount2', ..., 'nonrip' (-icount with
kvm_amd.bench_vmmcall_skip=1) or 'vmx'; LOG the guest's ttyS1 output.
Writes OUTDIR/latest.md (also printed), latest-samples.csv (every raw
sample), latest.json (metadata + summary) and latest.dat/.gp for gnuplot.
"""
import collections
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common', 'py'))
import guestlog  # noqa: E402
import results  # noqa: E402

OPS = ['bare-exit', 'getppid', 'pipe-64B', 'pread-4K', 'open-fstat-close', 'mixed',
       'udp-rr', 'udp-rr-1K']
UDP_OPS = ['udp-rr', 'udp-rr-1K']


class Mech:
    """One mechanism as the guest's "mech" record describes it (the list
    from the MECHS lines of every build.mk): the report never names a
    mechanism itself, except to set the posting's figures beside the ones
    they concern."""

    def __init__(self, rec):
        self.name, self.vm, self.summary = rec['name'], rec['vm'], rec['summary']
        self.icount_na = rec.get('icount_na') or ''


Run = collections.namedtuple('Run', 'samples notes by_round mechs server unit cpu')


def parse(path):
    """One bench boot (guestlog.py): samples per (mech, op), the run's notes,
    samples per round, the mechanisms, the echo server's samples, the unit."""
    boot = guestlog.read_boot(path, 'bench')
    unit = guestlog.unit(boot)
    key = f'{unit}_per_op'
    samples, by_round, server = {}, {}, {}
    for r in boot.by_type['sample']:
        k = (r['mech'], r['op'])
        samples.setdefault(k, []).append(r[key])
        by_round.setdefault(k, {})[r['round']] = r[key]
    for r in boot.by_type['server_sample']:
        server.setdefault((r['mech'], r['op']), []).append(r[key])
    cpu = {}
    for r in boot.by_type.get('cpu_sample', []):
        cpu.setdefault((r['mech'], r['op']), []).append(
            (r['self_ns_per_op'], r['others_ns_per_op']))
    return Run(samples, boot.notes, by_round, [Mech(m) for m in boot.mechs], server, unit,
               cpu)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def stats(samples):
    return {k: (statistics.median(v), pct(v, 90), len(v)) for k, v in samples.items()}


def us(ns):
    return f'{ns / 1000:.2f}'


def na_note(mechs, icount):
    """Footnotes for the mechanisms whose figure is not applicable here."""
    return [f'- {m.name}: n/a: {m.icount_na}.' for m in mechs if icount and m.icount_na]


def cell(st, key, icount, m, fmt):
    if icount and m.icount_na:
        return 'n/a'
    s = st.get(key)
    return fmt(s) if s else '-'


def table(st, mechs, icount, unit_note):
    """One row per mechanism of the run, one column per op."""
    mechs = [m for m in mechs if any((m.name, o) in st for o in OPS) or
             (icount and m.icount_na)]
    out = ['| mechanism | ' + ' | '.join(OPS) + ' |', '|---|' + '---|' * len(OPS)]
    for m in mechs:
        cells = [cell(st, (m.name, op), icount, m, lambda s: f'{us(s[0])} ({us(s[1])})')
                 for op in OPS]
        out.append(f'| {m.name} | ' + ' | '.join(cells) + ' |')
    out += ['', f'Median (p90) per op, {unit_note}; - where the op does not apply '
            '(no VM, no bare exit).']
    return out + [''] + na_note(mechs, icount)


def paired(by_round, a, b):
    """Per-round differences of samples a and b (keys (mech, op)) taken in the
    same round: (median, p10, p90), or None."""
    x, y = by_round.get(a), by_round.get(b)
    d = [x[r] - y[r] for r in x if r in y] if x and y else []
    return (statistics.median(d), pct(d, 10), pct(d, 90)) if d else None


def delta_table(st, by_round, mechs, icount, base, label, note):
    """One row per mechanism: each op minus base(m, op), paired per round,
    with the spread of the differences; native's own figures first."""
    ops = OPS[1:]
    out = [f'| mechanism - {label} | ' + ' | '.join(ops) + ' |', '|---|' + '---|' * len(ops)]
    out.append('| native (itself) | ' + ' | '.join(
        us(st[('native', op)][0]) if ('native', op) in st else '-' for op in ops) + ' |')
    for m in mechs:
        cells = []
        for op in ops:
            d = None if icount and m.icount_na else paired(by_round, (m.name, op), base(m, op))
            cells.append('n/a' if icount and m.icount_na else
                         f'{us(d[0])} [{us(d[1])}, {us(d[2])}]' if d else '-')
        out.append(f'| {m.name} | ' + ' | '.join(cells) + ' |')
    return out + ['', note + '  Median of the per-round differences [p10, p90].']


def above_floor(st, by_round, mechs, icount, unit_note):
    mechs = [m for m in mechs if m.vm and ((m.name, 'bare-exit') in st or
                                           (icount and m.icount_na))]
    return delta_table(st, by_round, mechs, icount, lambda m, op: (m.name, 'bare-exit'),
                       'floor',
                       'What each VM mechanism adds above its own floor, its bare exit '
                       'in the same VM and round: the same instruction with nothing to '
                       'run (for a PIO exit, a port the VMM answers at once; for a '
                       'hypercall, an unknown one that KVM answers -KVM_ENOSYS in the '
                       'kernel; for a queue, a round trip through the ring with nothing '
                       'in it).  A floor that stays in the kernel leaves out the return '
                       'to the VMM that a floor in userspace includes: across such '
                       f'mechanisms compare the whole round trips (table above); {unit_note}.')


def above_native(st, by_round, mechs, icount, unit_note):
    mechs = [m for m in mechs if not m.vm and m.name != 'native' and
             any((m.name, o) in st for o in OPS)]
    if not mechs or not any(('native', o) in st for o in OPS):
        return []
    return delta_table(st, by_round, mechs, icount, lambda m, op: ('native', op), 'native',
                       'What each mechanism without a VM adds to the native system '
                       f'call; {unit_note}.') + ['']


CPU_OPS = ['getppid', 'mixed', 'udp-rr']


def cpu_section(st, cpu, mechs):
    """CPU time per op, every task summed, beside the latency (one
    wall-clock boot): above 1.0, more than one CPU worked for the op."""
    if not cpu:
        return []
    out = ['### CPU time per op, every thread (wall clock, first boot)', '',
           '| mechanism | ' + ' | '.join(f'{op}: latency, CPU (own + others), CPU / latency'
                                         for op in CPU_OPS) + ' |',
           '|---|' + '---|' * len(CPU_OPS)]
    for m in mechs:
        cells = []
        for op in CPU_OPS:
            lat, c = st.get((m.name, op)), cpu.get((m.name, op))
            if not lat or not c:
                cells.append('-')
                continue
            own = statistics.median(x[0] for x in c)
            oth = statistics.median(x[1] for x in c)
            tot = statistics.median(x[0] + x[1] for x in c)
            cells.append(f'{us(lat[0])}, {us(tot)} ({us(own)} + {us(oth)}), '
                         f'{tot / lat[0]:.2f}' if lat[0] else '-')
        if any(c != '-' for c in cells):
            out.append(f'| {m.name} | ' + ' | '.join(cells) + ' |')
    return out + ['', 'Microseconds per op, medians over rounds.  CPU: the process clocks of '
                  'every task of the guest over the sample (bench/cpu_time.c): "own" is the '
                  'bench process (its vCPU thread, and any thread a mechanism runs in it, '
                  'such as hc-queue\'s server), "others" every other process (stubs, '
                  'tracers, supervisors, the echo server, kernel threads).  The guest has '
                  'two CPUs: CPU / latency near 2 means a second CPU was busy for the op '
                  'throughout (a spinning server).', '']


def ratio_cell(sts, a, b, op):
    """The ratio of a's median to b's in the first boot, and with more than
    one boot its [min, max] over them (each boot's own ratio); a range that
    crosses 1.0 says so."""
    rs = [r for r in (ratio(st, a, b, op) for st in sts) if r]
    if not rs:
        return '-'
    if len(sts) < 2:
        return f'{rs[0]:.2f}'
    lo, hi = min(rs), max(rs)
    return f'{rs[0]:.2f} [{lo:.2f}, {hi:.2f}]' + (' crosses 1' if lo < 1 < hi else '')


def ratios(st, mechs, icount, boots=None):
    """getppid and mixed of each mechanism as ratios to native and to the
    hypercall, from the medians of one run; with boots (the stats of every
    wall-clock boot, the first being st), each ratio's range over them."""
    sts = boots or [st]
    out = ['| mechanism | getppid / native | getppid / hypercall | mixed / native | mixed / hypercall |',
           '|---|---|---|---|---|']
    for m in mechs:
        cells = []
        for op in ('getppid', 'mixed'):
            for base in ('native', 'hypercall'):
                cells.append('n/a' if icount and m.icount_na else
                             ratio_cell(sts, m.name, base, op))
        if any(c not in ('-',) for c in cells):
            out.append(f'| {m.name} | ' + ' | '.join(cells) + ' |')
    note = 'Ratios of the medians in the table above (same run).'
    if len(sts) > 1:
        note = (f'Ratios of the medians of the first boot, [min, max] of the same ratio over '
                f'the {len(sts)} wall-clock boots of this run (each boot its own ratio); '
                '"crosses 1" where the boots disagree on which is faster.')
    return out + ['', note, '']


def ratio(st, a, b, op='getppid'):
    if (a, op) in st and (b, op) in st and st[(b, op)][0] > 0:
        return st[(a, op)][0] / st[(b, op)][0]
    return None


def udp_section(st, server, mechs, icount, boots=None):
    """netperf -t UDP_RR, as the posting measured it: transactions per second
    per mechanism (wall clock), or instructions per transaction with the echo
    server's own share apart (icount).  With boots (every wall-clock boot's
    stats, the first being st), each rate and ratio has its [min, max]."""
    sts = boots or [st]
    rows = [m for m in mechs if any((m.name, o) in st for o in UDP_OPS) or
            (icount and m.icount_na)]
    if not rows:
        return []
    if not icount:
        out = ['| mechanism | udp-rr trans/s | / native | udp-rr-1K trans/s | / native |',
               '|---|---|---|---|---|']
        for m in rows:
            cells = []
            for op in UDP_OPS:
                v, n = st.get((m.name, op)), st.get(('native', op))
                rates = [1e9 / b[(m.name, op)][0] for b in sts if b.get((m.name, op))]
                rate = '-' if not v else f'{1e9 / v[0]:.0f}' + (
                    f' [{min(rates):.0f}, {max(rates):.0f}]' if len(sts) > 1 else '')
                cells += [rate, ratio_cell(sts, 'native', m.name, op) if v and n else '-']
            out.append(f'| {m.name} | ' + ' | '.join(cells) + ' |')
        out += ['', 'Transactions per second from the median time per transaction '
                '(one request and one reply through the mechanism, the echo server a '
                'separate process on the same two vCPUs)' +
                (f'; the first boot\'s, [min, max] over the {len(sts)} wall-clock boots.'
                 if len(sts) > 1 else '.')]
        for a, b, pub in (('hypercall', 'exit-pio', '95965 / 58709 = 1.63x'),
                          ('hypercall', 'native', '95965 / 146461 = 0.66x')):
            x, y = st.get((a, 'udp-rr')), st.get((b, 'udp-rr'))
            if x and y:
                out.append(f'- udp-rr, {a} / {b} in transactions per second: '
                           f'**{ratio_cell(sts, b, a, "udp-rr")}x** (the posting, gVisor on '
                           f'a Xeon Gold 6268CL: {pub})')
        return out + ['']
    out = ['| mechanism | udp-rr total | echo server | client path | udp-rr-1K total | echo server | client path |',
           '|---|---|---|---|---|---|---|']
    for m in rows:
        if m.icount_na:
            out.append(f'| {m.name} | n/a |' + ' |' * 5)
            continue
        cells = []
        for op in UDP_OPS:
            v = st.get((m.name, op))
            sv = server.get((m.name, op))
            srv = statistics.median(sv) if sv else None
            cells += [us(v[0]) if v else '-', us(srv) if srv is not None else '-',
                      us(v[0] - srv) if v and srv is not None else '-']
        out.append(f'| {m.name} | ' + ' | '.join(cells) + ' |')
    return out + ['', 'Thousands of guest instructions per transaction (median); the echo '
                  "server's own CPU time (its process clock, which under -icount is its "
                  'instructions) apart from the rest: the client side, the mechanism, the '
                  'loopback and the switches between the two processes.', '']


# The comparisons a reviewer of the posting looks for first: (a, b, what
# was published about a / b).  Data, not logic: a pair whose mechanisms did
# not run is left out.
PUBLISHED = [
    ('exit-pio', 'hypercall', 'the posting: 2.1 us / 1.0 us = 2.1x on a Xeon Gold 6268CL'),
    ('exit-hypercall', 'hypercall', 'the posting: 2.1 us / 1.0 us = 2.1x on a Xeon Gold 6268CL'),
    ('bpf', 'hypercall', 'the posting: "the same performance numbers"'),
    ('hypercall-regs', 'hypercall', 'issue #15: the call in registers'),
    ('ptrace-sysemu', 'pvm-exec', 'the 2021 process_vm_exec() RFC measured it against ptrace'),
    ('pvm-exec', 'hypercall', ''),
    ('pvm-syscall', 'hypercall', ''),
    ('sud', 'hypercall', 'tglx: SYSCALL_USER_DISPATCH plus a signal'),
    ('seccomp-trap', 'hypercall', "systrap's shape, gVisor's default platform"),
    ('seccomp-unotify', 'hypercall', 'the author: user notification with SYNC_WAKE_UP'),
    ('hc-queue', 'hypercall', 'Sean: an exitless queue served by a host thread'),
]


def vmx_section(st, rounds, mechs, svm_run):
    """The VMX column: path lengths on Bochs' Intel CPU (bench/vmx.sh)
    beside those of QEMU's SVM, for the ops and mechanisms it ran."""
    vmx = st['vmx']
    svm = st.get(svm_run, {}) if svm_run else {}
    ran = [m for m in mechs if any(k[0] == m.name for k in vmx)]
    out = ['## Intel VMX (Bochs, instruction count) beside AMD SVM (QEMU TCG, -icount)', '',
           '| mechanism | op | SVM | VMX | VMX / SVM | above its floor, SVM | VMX |',
           '|---|---|---|---|---|---|---|']
    for m in ran:
        for op in OPS:
            v = vmx.get((m.name, op))
            if not v or op == 'bare-exit':
                continue
            s = svm.get((m.name, op))
            fv = paired(rounds['vmx'], (m.name, op), (m.name, 'bare-exit')) if m.vm else None
            fs = (paired(rounds[svm_run], (m.name, op), (m.name, 'bare-exit'))
                  if m.vm and s else None)
            cells = [us(s[0]) if s else '-', us(v[0]), f'{v[0] / s[0]:.2f}' if s else '-',
                     us(fs[0]) if fs else '-', us(fv[0]) if fv else '-']
            out.append(f'| {m.name} | {op} | ' + ' | '.join(cells) + ' |')
    out += ['', 'Thousands of guest instructions per op (median).  Both emulators count the '
            'L1 host\'s instructions, its kernel, KVM and VMM included, and the L2 guest\'s; '
            'an exit costs them different instruction counts (SVM\'s VMRUN/#VMEXIT under '
            'TCG against VMX\'s VM entry and exit under Bochs), so compare mechanisms within '
            'a column.  On VMX, KVM skips the hypercall instruction by the length the VMCS '
            'reports; TCG\'s SVM has no NRIP save, so KVM decodes it: the floor columns show '
            'that cost apart.', '']
    return out


def nonrip_section(st, notes, mechs, raw_run):
    """Path lengths with L1 KVM skipping VMMCALL by its length (the bench
    kernel's kvm_amd.bench_vmmcall_skip=1, as NRIP save would) beside the
    raw ones (TCG: no NRIP save, KVM decodes each VMMCALL it skips)."""
    nr, raw = st['nonrip'], st.get(raw_run, {}) if raw_run else {}
    on = any('bench_vmmcall_skip=Y' in n for n in notes)
    out = ['## Path length without the NRIP artefact (QEMU -icount, '
           'kvm_amd.bench_vmmcall_skip=1)', '']
    if not on:
        return out + ['The run did not say kvm_amd.bench_vmmcall_skip=Y: its figures are raw, '
                      'not shown (is bench/patches applied and CONFIG_KVM_AMD_BENCH_VMMCALL_SKIP '
                      'on in the bench kernel?).', '']
    ran = [m for m in mechs if any(k[0] == m.name for k in nr)]
    out += ['| mechanism | op | raw | without the artefact | change | '
            '/ hypercall, raw | / hypercall, without |', '|---|---|---|---|---|---|---|']
    for m in ran:
        for op in OPS:
            v, r = nr.get((m.name, op)), raw.get((m.name, op))
            if not v:
                continue
            hr, hn = raw.get(('hypercall', op)), nr.get(('hypercall', op))
            cells = [us(r[0]) if r else '-', us(v[0]),
                     f'{us(v[0] - r[0])}' if r else '-',
                     f'{r[0] / hr[0]:.2f}' if r and hr else '-',
                     f'{v[0] / hn[0]:.2f}' if hn else '-']
            out.append(f'| {m.name} | {op} | ' + ' | '.join(cells) + ' |')
    out += ['', 'Thousands of guest instructions per op (median), both from this bench kernel: '
            f'raw from the {raw_run} boot, the other from a boot with the module parameter on. '
            'A VMMCALL that KVM skips by its length saves the decode (a guest page walk, '
            'x86_decode_insn, memslot lookups) that TCG\'s missing NRIP save costs; a port '
            'I/O exit never paid it (the IOIO exit reports the next RIP), so only the '
            'hypercall forms move.  The conclusions use these artefact-free figures; the raw '
            'ones are in the deterministic tables above.', '']
    return out


def headlines(st, by_round, label, na, boots=None):
    unit = 'us' if label == 'wall' else 'k insns'
    out = []
    for a, b, note in PUBLISHED:
        r = None if a in na or b in na else ratio(st, a, b)
        if r:
            span = ''
            if boots and len(boots) > 1:
                span = ' ' + ratio_cell(boots, a, b, 'getppid').split(' ', 1)[1] + \
                    f' over {len(boots)} boots'
            out.append(f'- {label}: getppid via {a} / via {b} = **{r:.2f}x**{span}' +
                       (f' ({note})' if note else ''))
    for hcm in ('hypercall', 'hypercall-regs'):
        if (hcm, 'getppid') not in st or ('native', 'getppid') not in st:
            continue
        hc = paired(by_round, (hcm, 'getppid'), (hcm, 'bare-exit'))
        nat = st[('native', 'getppid')][0]
        if hc:
            out.append(f'- {label}: {hcm} getppid minus its floor (paired per round) = '
                       f'**{us(hc[0])} {unit}**, native getppid = **{us(nat)} {unit}**')
    return out


def main():
    outdir, meta_path = sys.argv[1], sys.argv[2]
    runs = dict(a.split('=', 1) for a in sys.argv[3:])
    meta = json.load(open(meta_path))
    try:
        parsed = {name: parse(path) for name, path in runs.items()}
    except (OSError, guestlog.LogError) as e:
        print(f'report: {e}', file=sys.stderr)
        return 1
    st = {name: stats(run.samples) for name, run in parsed.items()}
    rounds = {name: run.by_round for name, run in parsed.items()}
    # The list as the guest printed it (every run prints the same one).
    mechs = next((run.mechs for run in parsed.values() if run.mechs), [])

    md = ['# KVM_HC_HOST_SYSCALL and its alternatives: one run', '']
    md += [f'- {k}: {v}' for k, v in meta.items()]
    for name, run in parsed.items():
        md += [f'- {name}: {n}' for n in run.notes]
    md += ['', '## The mechanisms', '', '| mechanism | VM | what runs the call |', '|---|---|---|']
    md += [f'| {m.name} | {"yes" if m.vm else "no"} | {m.summary} |' for m in mechs]
    md.append('')
    walls = [st[n] for n in sorted(st, key=lambda n: (len(n), n))
             if n.startswith('wall') and st[n]]
    if 'wall' in st and st['wall']:
        md += ['## Wall clock (absolute times are noise here; compare within the table)', '']
        md += table(st['wall'], mechs, False, 'microseconds')
        md += ['']
        md += ratios(st['wall'], mechs, False, walls)
        md += above_floor(st['wall'], rounds['wall'], mechs, False, 'microseconds')
        md += ['']
        md += above_native(st['wall'], rounds['wall'], mechs, False, 'microseconds')
        udp = udp_section(st['wall'], parsed['wall'].server, mechs, False, walls)
        if udp:
            md += ['### UDP_RR (netperf -t UDP_RR over the loopback)', ''] + udp
        md += cpu_section(st['wall'], parsed['wall'].cpu, mechs)
    icounts = [n for n in st if n.startswith('icount') and st[n]]
    if icounts:
        first = st[icounts[0]]
        md += ['## Deterministic mode (QEMU -icount shift=0: 1 "ns" = 1 guest instruction)', '']
        md += table(first, mechs, True, 'thousands of guest instructions (path length)')
        md += ['']
        md += ratios(first, mechs, True)
        md += above_floor(first, rounds[icounts[0]], mechs, True,
                          'thousands of guest instructions')
        md += ['']
        md += above_native(first, rounds[icounts[0]], mechs, True,
                           'thousands of guest instructions')
        udp = udp_section(first, parsed[icounts[0]].server, mechs, True)
        if udp:
            md += ['### UDP_RR per transaction', ''] + udp
        if len(icounts) > 1:
            na = {m.name for m in mechs if m.icount_na}
            diffs = []
            for k, v in first.items():
                other = st[icounts[1]].get(k)
                if other and v[0] and k[0] not in na:
                    diffs.append(abs(other[0] - v[0]) / v[0])
            a, b = parsed[icounts[0]].samples, parsed[icounts[1]].samples
            pairs = [(x, y) for k in a if k in b and k[0] not in na
                     for x, y in zip(a[k], b[k])]
            same = sum(1 for x, y in pairs if x == y)
            md.append(f'Repeatability: {len(icounts)} icount runs (one vCPU); largest relative '
                      f'difference between their medians: {100 * max(diffs or [0]):.3f}%; '
                      f'{same} of {len(pairs)} individual samples identical to the '
                      'instruction (mechanisms marked n/a left out).')
            md.append('')
    if st.get('nonrip'):
        md += nonrip_section(st, parsed['nonrip'].notes, mechs,
                             icounts[0] if icounts else None)
    if st.get('vmx'):
        md += vmx_section(st, rounds, mechs, icounts[0] if icounts else None)
    md += ['## Headline figures', '']
    for name in ['wall'] + icounts[:1] + (['nonrip'] if st.get('nonrip') else []):
        md += headlines(st.get(name, {}), rounds.get(name, {}), name,
                        {m.name for m in mechs if m.icount_na} if name != 'wall' else set(),
                        walls if name == 'wall' else None)
    md.append('')
    text = '\n'.join(md)
    print(text)
    open(f'{outdir}/latest.md', 'w').write(text + '\n')

    with open(f'{outdir}/latest-samples.csv', 'w') as f:
        f.write('run,mech,op,sample,value_per_op,unit\n')
        for name, run in parsed.items():
            for (m, o), xs in sorted(run.samples.items()):
                for i, x in enumerate(xs):
                    f.write(f'{name},{m},{o},{i},{x},{run.unit}\n')
    js_runs = {}
    for name, s in st.items():
        u = parsed[name].unit
        per_op, floor = {}, {}
        for (m, o), v in s.items():
            per_op.setdefault(m, {})[o] = {f'median_{u}': v[0], f'p90_{u}': v[1], 'n': v[2]}
        # What a VM mechanism adds above its own floor, paired per round.
        for m in mechs:
            for op in OPS[1:]:
                d = paired(rounds[name], (m.name, op), (m.name, 'bare-exit')) if m.vm else None
                if d:
                    floor.setdefault(m.name, {})[op] = d[0]
        js_runs[name] = {'unit': u, 'per_op': per_op, f'above_floor_{u}': floor}
        cpu = {}
        for (m, o), xs in parsed[name].cpu.items():
            cpu.setdefault(m, {})[o] = {
                'own_ns': statistics.median(x[0] for x in xs),
                'others_ns': statistics.median(x[1] for x in xs),
                'total_ns': statistics.median(x[0] + x[1] for x in xs)}
        if cpu:
            js_runs[name]['cpu_per_op'] = cpu
    results.write(f'{outdir}/latest.json', 'bench', {
        'meta': meta, 'runs': js_runs,
        'mechanisms': [{'name': m.name, 'vm': m.vm, 'icount_na': m.icount_na,
                        'summary': m.summary} for m in mechs]})

    # gnuplot: one cluster per op, one bar per mechanism, medians; one file
    # for wall clock, one for path lengths (n/a mechanisms left out there)
    for name, fname in (('wall', 'latest.dat'), (icounts[0] if icounts else '', 'latest-icount.dat')):
        base = st.get(name)
        if not base:
            continue
        cols = [m.name for m in mechs if any((m.name, o) in base for o in OPS) and
                not (name != 'wall' and m.icount_na)]
        with open(f'{outdir}/{fname}', 'w') as f:
            f.write('op ' + ' '.join(cols) + '\n')
            for op in OPS:
                f.write(op + ' ' + ' '.join(
                    us(base[(m, op)][0]) if (m, op) in base else 'NaN' for m in cols) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
