#!/usr/bin/env python3
"""REPORT.md: the decision a reviewer has to make, generated from what ran.

usage: decision_report.py [--results DIR] [--tests TAP] [--facts FILE] [--top DIR]
                          [--out FILE]

Inputs, every one optional (what is missing is said, never filled in):
  DIR/latest.json           the workload bench (bench/report.py): medians,
                            what ran (result files: common/py/results.py)
  FILE                      the mechanisms' facts, printed on the host by
                            build/facts (bench/facts.c), no boot needed
  DIR/latest-profile.json   the profile's event counts (bench/profile_report.py;
                            an archived run's latest-profile.csv is converted)
  DIR/latest-programs.json  unmodified programs (bench/programs_report.py)
  TAP                       the last `make test`'s TAP log (build/runs/test/tap.log)
  TOP/series, */patches     the kernel series, for what they change
Exit status 1 if a fact of the semantics matrix has no source (neither a
test nor a reason by design): no cell is filled from nothing.

The generator names no mechanism but the two every figure is set against,
native and the hypercall (the issue's), and the register form in the
conclusion about the register ABI's goal.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common', 'py'))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common', 'tests'))
import check_test_ids  # noqa: E402
import guestlog  # noqa: E402
import results  # noqa: E402
from scaling_report import speedup_cell  # noqa: E402

BASE, HC, HC_REGS = 'native', 'hypercall', 'hypercall-regs'
NEAR = 0.10         # "within 10%": the threshold of every comparison below
GOAL = 1.2          # issue #15: the register form above its floor / native


# ---------------------------------------------------------------- inputs

def load_facts(path):
    """The facts build/facts printed: (property titles, {mech: [fact per
    property]}, mechanisms in order), or None."""
    try:
        boot = guestlog.read_boot(path, 'facts')
    except (OSError, guestlog.LogError):
        return None
    props = [p['title'] for p in sorted(boot.by_type['prop'], key=lambda p: p['index'])]
    facts = {}
    for f in boot.by_type['fact']:
        facts.setdefault(f['mech'], [None] * len(props))[f['prop']] = f
    return props, facts, [m['name'] for m in boot.mechs]


# ---------------------------------------------------------------- 1. performance

median = results.median


def wall_boots(js):
    """The wall-clock boots of the run: wall, wall2, wall3..."""
    return sorted((r for r in (js or {}).get('runs', {}) if re.fullmatch(r'wall\d*', r)),
                  key=lambda r: (len(r), r))


def ratio_span(js, runs, a, b, op):
    """a's median over b's in each of runs: (first, min, max), or None."""
    rs = []
    for run in runs:
        t, u = median(js, run, a, op), median(js, run, b, op)
        if t is not None and u:
            rs.append(t / u)
    return (rs[0], min(rs), max(rs)) if rs else None


def span_text(sp, n):
    """'1.23', or with more than one boot '1.23 [1.10-1.30]' and whether
    the range crosses 1.0."""
    if not sp:
        return '-'
    if n < 2:
        return f'{sp[0]:.2f}'
    return f'{sp[0]:.2f} [{sp[1]:.2f}-{sp[2]:.2f}]' + (' crosses 1' if sp[1] < 1 < sp[2] else '')


def ratio_cells(js, run, mechs, ops):
    """One row per mechanism: per op, its time over native's and over the
    hypercall's (a time ratio: for udp-rr, per transaction); for wall clock,
    with the range over every wall-clock boot."""
    runs = wall_boots(js) if run == 'wall' else [run]
    out = []
    for m in mechs:
        cells = []
        for op in ops:
            if median(js, run, m, op) is None:
                cells += ['-', '-']
                continue
            cells.append(span_text(ratio_span(js, runs, m, BASE, op), len(runs)))
            cells.append(span_text(ratio_span(js, runs, m, HC, op), len(runs)))
        out.append(cells)
    return out


def performance(js, profile, programs, model=None, prof=None, scaling=None):
    md = ['## 1. Performance', '']
    if not js:
        return md + ['Not run: no bench/results/latest.json (`make bench`).', '']
    mechs = [m['name'] for m in js['mechanisms']]
    na = {m['name']: m['icount_na'] for m in js['mechanisms'] if m['icount_na']}
    runs = [r for r in ('wall', 'nonrip', 'vmx', 'icount1') if r in js['runs']]
    ops = ['getppid', 'mixed', 'udp-rr']
    nonrip = 'nonrip' in js['runs']
    titles = {'wall': f'wall clock ({len(wall_boots(js))} boots)',
              'nonrip': 'path length without the NRIP artefact (-icount, '
                        'kvm_amd.bench_vmmcall_skip=1: bench/patches), AMD SVM (QEMU TCG)',
              'icount1': ('path length, raw (-icount, with TCG\'s missing NRIP save: KVM '
                          'decodes every VMMCALL; for reference)' if nonrip else
                          'path length (-icount), AMD SVM (QEMU TCG)'),
              'vmx': 'path length, Intel VMX (Bochs, `make bench-vmx`)'}
    for run in runs:
        icount = run != 'wall'
        md += [f'### Per operation, {titles[run]}', '',
               '| mechanism | ' + ' | '.join(f'{op} / {BASE} | {op} / {HC}' for op in ops) +
               ' | getppid above its floor / native getppid |',
               '|---|' + '---|' * (2 * len(ops) + 1)]
        nat = median(js, run, BASE, 'getppid')
        for m, cells in zip(mechs, ratio_cells(js, run, mechs, ops)):
            if icount and m in na:
                md.append(f'| {m} | n/a: {na[m]} |' + ' |' * (2 * len(ops)))
                continue
            if run in ('vmx', 'nonrip') and median(js, run, m, 'getppid') is None:
                continue        # runs the VM mechanisms (and native) only
            f = results.above_floor(js, run, m, 'getppid')
            fc = f'{f / nat:.2f}' if f is not None and nat else '-'
            md.append(f'| {m} | ' + ' | '.join(cells) + f' | {fc} |')
        md += ['', f'Each cell: this mechanism\'s median time per operation over {BASE}\'s, '
               f'then over {HC}\'s (for udp-rr, per transaction: the inverse of the rate '
               'ratio).  The last column: the paired median of a VM mechanism\'s getppid '
               'minus its own bare exit, over a native getppid.' +
               (' Wall clock: the first boot\'s ratio, [min-max] of the same ratio over '
                'every boot; "crosses 1" where the boots disagree on which is faster.'
                if run == 'wall' and len(wall_boots(js)) > 1 else ''), '']
    if programs and programs.get('runs'):
        progs = [p for p, _ in programs.get('programs', [])]
        for run, data in programs['runs'].items():
            md += [f'### Unmodified programs, {"path length (-icount)" if run != "wall" else "wall clock"}',
                   '', '| mechanism | ' + ' | '.join(p.replace('|', '\\|') for p in progs) + ' |',
                   '|---|' + '---|' * len(progs)]
            for m in programs.get('mechanisms', []):
                if m in programs.get('n/a', {}):
                    md.append(f'| {m} | n/a: {programs["n/a"][m]} |' + ' |' * (len(progs) - 1))
                    continue
                cells = []
                for p in progs:
                    r = data['ratios'].get(m, {}).get(p)
                    cells.append('-' if not r else
                                 f'{r["native"]:.2f} / {r["hypercall"]:.2f}' if r['hypercall']
                                 else f'{r["native"]:.2f} / -')
                if any(c != '-' for c in cells):
                    md.append(f'| {m} | ' + ' | '.join(cells) + ' |')
            md += ['', f'Each cell: the program\'s time over {BASE}\'s / over {HC}\'s. '
                   f'{data["identical"]} of {data["runs"]} runs gave output byte-identical to '
                   'the program run directly.', '']
    else:
        md += ['Unmodified programs: not run (no latest-programs.json).', '']
    keys = [('vm-exits', 'VM exits'), ('userspace-exits', 'returns to the VMM'),
            ('kvm-fpu-swaps', 'KVM FPU swaps'), ('syscalls', 'system calls'),
            ('context-switches', 'context switches'), ('signals', 'signals')]
    md += ['### Events per getppid (the profile\'s counts)', '']
    if not profile:
        md += ['Not run: no latest-profile.json (`make profile`).', '']
    else:
        md += ['| mechanism | ' + ' | '.join(t for _, t in keys) + ' |',
               '|---|' + '---|' * len(keys)]
        for m in mechs:
            if (m, 'getppid', keys[0][0]) not in profile:
                continue
            md.append(f'| {m} | ' + ' | '.join(
                f'{profile.get((m, "getppid", k), float("nan")):.2f}' for k, _ in keys) + ' |')
        md += ['', 'Counted by the kernel\'s tracepoints and KVM\'s stats, per op: a job '
               'of n calls minus an empty job, over n.', '']
    return md + sleeping_call(prof) + scaling_table(scaling) + projection(model)


def scaling_table(scaling):
    """Several workers at once: throughput over one worker's, with its range,
    and CPU per call (bench/scaling.c)."""
    md = ['### Several vCPUs at once (getppid; each worker its own VM with one vCPU)', '']
    if not scaling:
        return md + ['Not run: no latest-scaling.json (`make scaling`).', '']
    mechs = scaling['mechanisms']
    ns = sorted({int(n) for row in mechs.values() if 'not_run' not in row for n in row})
    md += ['| mechanism | ' + ' | '.join(f'{n} x one | {n}: CPU ns/call' for n in ns) + ' |',
           '|---|' + '---|---|' * len(ns)]
    for m, row in mechs.items():
        if 'not_run' in row:
            md.append(f'| {m} | not run: {row["not_run"]} |' + ' |' * (2 * len(ns) - 1))
            continue
        cells = []
        for n in ns:
            d = row.get(str(n))
            cells += [speedup_cell(d), '-' if not d else f'{d["cpu_ns_per_call"]:,.0f}']
        md.append(f'| {m} | ' + ' | '.join(cells) + ' |')
    cpus = scaling.get('run', {}).get('cpus')
    sd = scaling.get('shutdowns', [])
    if sd:
        md += ['', f'{len(sd)} measurement(s) made again after a worker\'s VM ended in a triple '
               'fault or a measurement did not end (' + ', '.join(sorted({r["mech"] for r in sd})) + '): the emulator\'s '
               'nested-SVM defect (hypercall/README.md, "Stuck calls").']
    return md + ['', f'n x one: the calls per second of n workers at once over one worker\'s '
                 f'(median of {scaling.get("run", {}).get("repeats")} repeats, [range]); '
                 f'CPU ns/call: every task of the guest.  The guest has {cpus} CPUs: past '
                 f'{cpus} workers the throughput cannot grow, and a mechanism whose threads '
                 'spin (hc-queue: the guest waits on its server) needs a CPU per spinning '
                 'thread.  hc-queue-shared is hc-queue with one server thread for every vCPU\'s '
                 'ring (the workers are threads of one process, each its own VM): its '
                 'throughput is bounded by the one thread.', '']


def sleeping_call(prof):
    """udp-rr as a call that sleeps: the vcpu_put/vcpu_load pairs a VM
    mechanism pays per transaction, on two vCPUs and on one, beside the
    path a transaction costs beyond its two calls (the profile's -icount
    boot, one vCPU)."""
    md = ['### A call that sleeps (udp-rr: the client\'s recvfrom waits for the server)', '']
    c2 = (prof or {}).get('counts', {})
    c1 = (prof or {}).get('counts_1cpu', {})
    path = (prof or {}).get('path', {})
    rows = [m for m in dict.fromkeys(list(c2) + list(c1))
            if 'stat:host_state_reload' in c2.get(m, {}).get('udp-rr', {}) or
            'stat:host_state_reload' in c1.get(m, {}).get('udp-rr', {})]
    if not rows:
        return md + ['Not run: the profile counted no udp-rr (`make profile`).', '']

    def ins(m, op):
        return path.get(m, {}).get(op, {}).get('insns_per_op')

    def excess(m):
        v = [ins(m, 'udp-rr'), ins('native', 'udp-rr'), ins(m, 'getppid'), ins('native', 'getppid')]
        if None in v:
            return '-'
        return f'{(v[0] - v[1] - 2 * (v[2] - v[3])) / 1000:+.2f}'

    def cnt(c, m, k):
        v = c.get(m, {}).get('udp-rr', {}).get(k)
        return '-' if v is None else f'{v:.2f}'

    def puts(c, m):
        return ' / '.join(cnt(c, m, k) for k in
                          ('stat:host_state_reload', 'vcpu-loads', 'preempt-notifier-outs'))
    md += ['| mechanism | vcpu_put / vcpu_load / notifier runs, 2 vCPUs | '
           'context switches, 2 vCPUs | vcpu_put / vcpu_load / notifier runs, 1 vCPU | '
           'context switches, 1 vCPU | path beyond two calls (k insns, 1 vCPU) |',
           '|---|---|---|---|---|---|']
    for m in rows:
        md.append(f'| {m} | {puts(c2, m)} | {cnt(c2, m, "context-switches")} | '
                  f'{puts(c1, m)} | {cnt(c1, m, "context-switches")} | {excess(m)} |')
    return md + ['', 'Per transaction (a sendto and a recvfrom).  vcpu_put is KVM\'s '
                 'host_state_reload stat; vcpu_load counts kvm_arch_vcpu_load (a kprobe): a '
                 'KVM_RUN\'s own and the preempt notifier\'s; notifier runs count kvm_sched_out '
                 '(a kprobe), the vCPU task switched out inside KVM_RUN, i.e. a call that '
                 'slept there.  An exit form pays its vcpu_put/vcpu_load per KVM_RUN and never '
                 'sleeps inside one; an in-kernel form pays them only when a call sleeps.  '
                 'Context switches are machine-wide (the echo server\'s too).  The last '
                 'column: a transaction\'s path minus native\'s, minus twice the getppid path '
                 'above native\'s (with the NRIP artefact in both: it cancels), from the '
                 'profile\'s -icount boot; what the call that sleeps costs beyond the two '
                 'calls.', '']


def projection(model):
    """The cost model's projection (bench/model) and its checks against
    published figures."""
    md = ['### Projected on a named CPU (bench/model: path length x CPI + counted events x '
          'published costs)', '']
    if not model:
        return md + ['Not run: no latest-model.json (bench/model/run.sh, the end of '
                     '`make bench`).', '']
    p = model['projection']
    md += [f'CPI {p["cpi"]:.2f} (a published native getpid over this run\'s native path), '
           f'{p["ghz"]} GHz; constants and sources: bench/model/constants.json.', '',
           '| mechanism | getppid ns | mixed ns | udp-rr ns |', '|---|---|---|---|']
    for m, ops in p['rows'].items():
        cells = [f'{ops[o]["ns"]:,.0f}' if o in ops else '-'
                 for o in ('getppid', 'mixed', 'udp-rr')]
        md.append(f'| {m} | ' + ' | '.join(cells) + ' |')
    md += ['', '| published figure | CPU | published | projected | error |',
           '|---|---|---|---|---|']
    for c in model['checks']:
        if c['projected'] is None:
            continue
        md.append(f'| {c["what"]} | {c["cpu"]} | {c["value"]:,.0f} {c["unit"]} | '
                  f'{c["projected"]:,.0f} | {c["error_pct"]:+.0f}% |')
    return md + ['', 'The published rows set no constant; the errors are what they are '
                 '(bench/README.md, "The cost model").', '']


# ---------------------------------------------------------------- 2. intrusiveness

SUBSYSTEMS = [
    ('KVM', r'^(arch/x86/kvm/|virt/kvm/|include/linux/kvm|arch/x86/include/asm/kvm)'),
    ('x86 entry', r'^(arch/x86/entry/|kernel/entry/|include/linux/entry-common\.h)'),
    ('seccomp', r'^(kernel/seccomp\.c|include/linux/seccomp)'),
    ('BPF', r'^(kernel/bpf/|include/linux/bpf)'),
    ('mm', r'^mm/'),
    ('signal', r'^(kernel/signal\.c|include/linux/signal)'),
    ('uapi headers', r'^(include/uapi/|arch/x86/include/uapi/)'),
    ('Documentation', r'^Documentation/'),
    ('selftests', r'^tools/testing/selftests/'),
    ('other kernel', r'.'),
]

# What a uapi line adds: (kind, regex); a define's kind comes from its prefix.
UAPI = [
    ('syscall', r'^(\d+)\s+(?:common|64)\s+(\w+)'),
    ('struct', r'^struct\s+(\w+)\s*\{'),
    ('define', r'^#define\s+(\w+)\s+(\S.*)$'),
]
DEFINE_KINDS = [('KVM_CAP_', 'capability'), ('KVM_HC_', 'hypercall'),
                ('KVM_FEATURE_', 'CPUID feature bit'), ('KVM_EXIT_', 'exit reason')]


def uapi_item(body):
    for kind, rx in UAPI:
        m = re.search(rx, body)
        if m:
            if kind == 'define':
                kind = next((k for p, k in DEFINE_KINDS if m.group(1).startswith(p)),
                            'define')
            return f'{kind} {" ".join(m.groups())}'.strip()
    return None


def read_series(top):
    """[(folder, [patch paths])] in the order of TOP/series."""
    out = []
    try:
        folders = [l.strip() for l in open(os.path.join(top, 'series'))
                   if l.strip() and not l.startswith('#')]
    except OSError:
        return out
    for d in folders:
        try:
            names = [l.strip() for l in open(os.path.join(top, d, 'patches', 'series'))
                     if l.strip() and not l.startswith('#')]
        except OSError:
            continue
        out.append((d, [os.path.join(top, d, 'patches', n) for n in names]))
    return out


def scan_patch(path, acc):
    cur = None
    for line in open(path, errors='replace'):
        m = re.match(r'diff --git a/(\S+) b/(\S+)', line)
        if m:
            cur = m.group(2)
            acc['files'].add(cur)
            continue
        if cur is None or line.startswith(('+++', '---')):
            continue
        sub = next(n for n, rx in SUBSYSTEMS if re.search(rx, cur))
        if line.startswith('+'):
            acc['lines'].setdefault(sub, [0, 0])[0] += 1
            body = re.sub(r'/\*.*?(\*/|$)', '', line[1:]).strip()	# no comments
            uapi_file = '/uapi/' in cur or cur.endswith('syscall_64.tbl')
            item = uapi_item(body) if uapi_file else None
            if item:
                acc['uapi'].append(item)
            mm = re.search(r'EXPORT_SYMBOL(?:_GPL)?\((\w+)\)', body)
            if mm:
                acc['exports'].append(mm.group(1))
            mm = re.search(r'BTF_ID_FLAGS\(func,\s*(\w+)', body)
            if mm:
                acc['bpf'].append(mm.group(1))
            mm = re.match(r'config\s+(\w+)', body)
            if mm and os.path.basename(cur).startswith('Kconfig'):
                acc['kconfig'].append(mm.group(1))
        elif line.startswith('-'):
            acc['lines'].setdefault(sub, [0, 0])[1] += 1


def intrusiveness(top):
    md = ['## 2. Intrusiveness (computed from the patches)', '']
    series = read_series(top)
    if not series:
        return md + ['Not run: no `series` file.', '']
    subs = [n for n, _ in SUBSYSTEMS]
    md += ['Lines added / removed, per series and subsystem:', '',
           '| series | patches | files | ' + ' | '.join(subs) + ' |',
           '|---|---|---|' + '---|' * len(subs)]
    details = []
    for folder, patches in series:
        acc = {'files': set(), 'lines': {}, 'uapi': [], 'exports': [], 'bpf': [],
               'kconfig': []}
        for p in patches:
            scan_patch(p, acc)
        md.append(f'| {folder} | {len(patches)} | {len(acc["files"])} | ' + ' | '.join(
            f'+{acc["lines"][s][0]} -{acc["lines"][s][1]}' if s in acc['lines'] else ''
            for s in subs) + ' |')
        details.append((folder, acc))
    md += ['', '| series | new uapi | exported symbols | BPF attach points and kfuncs | '
           'Kconfig options |', '|---|---|---|---|---|']
    for folder, acc in details:
        md.append(f'| {folder} | ' + ' | '.join(
            '; '.join(dict.fromkeys(x)) or 'none' for x in
            (acc['uapi'], acc['exports'], acc['bpf'], acc['kconfig'])) + ' |')
    md += ['', 'From every added line of every patch of `series`: uapi items are the '
           'defines, struct layouts and syscall table entries added under a uapi '
           'directory; exports are EXPORT_SYMBOL*() lines; BPF attach points and kfuncs '
           'are BTF_ID_FLAGS(func, ...) lines.  The mechanisms that need no patch '
           '(native, ptrace, seccomp, SUD, exit-pio, hc-queue) use what 6.12 ships.', '']
    return md


# ---------------------------------------------------------------- 3. semantics

def semantics(facts, tap, tap_name, ids_path):
    """The matrix, the mechanisms with a fact without source, and each
    cell's status (ok, FAILED, skipped, not run, or design)."""
    md = ['## 3. Semantics', '']
    unsourced, statuses = [], []
    if not facts:
        return md + ['Not run: no facts (build/facts, `make report` builds it).', ''], [], []
    props, by_mech, mechs = facts
    ids = check_test_ids.load_table(ids_path)
    notes, index = [], {}

    def note(text):
        if text not in index:
            index[text] = len(notes) + 1
            notes.append(text)
        return index[text]

    md += ['| mechanism | ' + ' | '.join(props) + ' |', '|---|' + '---|' * len(props)]
    for m in mechs:
        cells = []
        for i, f in enumerate(by_mech.get(m) or [None] * len(props)):
            if not f or not f.get('answer') or not (f.get('test') or f.get('design')):
                cells.append('**no source**')
                unsourced.append(f'{m}: {props[i]}')
                continue
            if f.get('test'):
                st = check_test_ids.status(tap, ids, f['test'], m)
                statuses.append(st)
                prog, start = ids.get(f['test'], ('?', '?'))
                n = note(f'tested: {prog}, "{start.replace("%m", m)}..." ({f["test"]})')
                mark = '' if st == 'ok' else f' **{st}**'
                cells.append(f'{f["answer"]} [{n}]{mark}')
            else:
                statuses.append('design')
                n = note(f'by design: {f["design"]}')
                cells.append(f'{f["answer"]} [{n}]')
        md.append(f'| {m} | ' + ' | '.join(cells) + ' |')
    src = (f'`{tap_name}`'
           if tap is not None else 'no test log (`make test` has not run): every tested cell says not run')
    md += ['', f'Test results from {src}.  A cell marked **FAILED**, **skipped** or **not run** '
           'is not backed by a passing test in that log.', '']
    md += [f'{i + 1}. {t}' for i, t in enumerate(notes)] + ['']
    return md, unsourced, statuses


# ---------------------------------------------------------------- 4. conclusions

def compare(a, b):
    """'within 10% of' or 'N.NNx', for a over b."""
    r = a / b
    return f'within {int(NEAR * 100)}% of' if abs(r - 1) <= NEAR else f'{r:.2f}x'


def conclusions(js, programs, cells, model=None):
    out = ['## 4. What the numbers say', '',
           f'Generated from the tables above with fixed thresholds ({int(NEAR * 100)}%, '
           f'and issue #15\'s {GOAL}x); a statement whose inputs did not run is left out.', '']
    if not js:
        return out + ['- nothing: the bench did not run.', '']
    ic = 'nonrip' if 'nonrip' in js['runs'] else 'icount1' if 'icount1' in js['runs'] else None
    vmx = 'vmx' if 'vmx' in js['runs'] else None
    ic_label = ('Path length without the NRIP artefact' if ic == 'nonrip' else 'Path length')
    for run, where in ((ic, ic_label), (vmx, 'Path length on Intel VMX (Bochs)')):
        nat = median(js, run, BASE, 'getppid') if run else None
        for m in (HC_REGS, HC):
            f = results.above_floor(js, run, m, 'getppid') if run else None
            if f is not None and nat:
                r = f / nat
                out.append(f'- {where}: above its own bare hypercall, a getppid through {m} '
                           f'costs {f / 1000:.2f}k guest instructions, {r:.2f}x a native getppid '
                           f'({nat / 1000:.2f}k): {"within" if r <= GOAL else "outside"} the '
                           f'{GOAL}x goal of issue #15.')
    walls = wall_boots(js)
    for run, label in (('wall', f'wall clock ({len(walls)} boots)'), (ic, ic_label.lower()),
                       (vmx, 'path length on Intel VMX (Bochs)')):
        if not run:
            continue
        hc = median(js, run, HC, 'getppid')
        if not hc:
            continue
        vm = [m['name'] for m in js['mechanisms'] if m['vm'] and m['name'] != HC and
              not (run != 'wall' and m['icount_na']) and median(js, run, m['name'], 'getppid')]
        parts = []
        for m in vm:
            part = f'{m} is {compare(median(js, run, m, "getppid"), hc)} it'
            sp = ratio_span(js, walls, m, HC, 'getppid') if run == 'wall' else None
            if sp and len(walls) > 1:
                part += (f' ({sp[1]:.2f}-{sp[2]:.2f}x over the boots'
                         + (', a range that crosses 1' if sp[1] < 1 < sp[2] else '') + ')')
            parts.append(part)
        if parts:
            out.append(f'- {label[0].upper() + label[1:]}, a whole getppid round trip against the '
                       f'hypercall\'s: ' + '; '.join(parts) + '.')
    if model:
        rows = model['projection']['rows']
        hc = rows.get(HC, {}).get('getppid')
        if hc:
            parts = [f'{m} {r["getppid"]["ns"]:,.0f} ns' for m, r in rows.items()
                     if 'getppid' in r and m != HC and r['getppid']['terms']['vm_roundtrip']]
            out.append(f'- Projected on {model["projection"]["ghz"]} GHz (bench/model): a getppid '
                       f'through {HC} {hc["ns"]:,.0f} ns; ' + '; '.join(parts) +
                       '.  The published figures beside them, with the errors: section 1.')
    if programs and programs.get('runs'):
        for run, data in programs['runs'].items():
            rs = data['ratios'].get(HC, {})
            if not rs:
                continue
            near = sorted(p for p, v in rs.items() if abs(v['native'] - 1) <= NEAR)
            far = max(rs.items(), key=lambda kv: kv[1]['native'])
            out.append(f'- Unmodified programs ({"path length" if run != "wall" else "wall clock"}): '
                       f'under the hypercall, {", ".join(near) or "no program"} '
                       f'{"are" if len(near) > 1 else "is"} within {int(NEAR * 100)}% of native; '
                       f'the most call-bound, {far[0]}, costs '
                       f'{far[1]["native"]:.2f}x native.  '
                       f'{data["identical"]} of {data["runs"]} runs gave identical output.')
    if cells:
        tested = [c for c in cells if c != 'design']
        bad = [c for c in tested if c != 'ok']
        out.append(f'- Semantics: {len(cells)} cells, {len(tested)} of them backed by a test; '
                   + (f'all {len(tested)} tests passed in the log.' if not bad else
                      f'{len(bad)} not backed by a passing test in the log '
                      f'({", ".join(f"{bad.count(x)} {x}" for x in sorted(set(bad)))}).'))
    return out + ['']


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(here)
    ap.add_argument('--results', default=os.path.join(here, 'results'))
    ap.add_argument('--tests', default=os.path.join(top, 'build', 'runs', 'test', 'tap.log'))
    ap.add_argument('--facts', default=os.path.join(top, 'build', 'facts.jsonl'))
    ap.add_argument('--ids', default=check_test_ids.TABLE)
    ap.add_argument('--top', default=top)
    ap.add_argument('--out', default=os.path.join(top, 'REPORT.md'))
    a = ap.parse_args()
    js = results.load(os.path.join(a.results, 'latest.json'), 'bench')
    prof = results.load_profile(a.results)
    profile = None if prof is None else {
        (m, op, k): v for m, ops in prof['counts'].items()
        for op, d in ops.items() for k, v in d.items()}
    programs = results.load(os.path.join(a.results, 'latest-programs.json'), 'programs')
    facts = load_facts(a.facts)
    tap = guestlog.tap_programs(a.tests)
    try:
        commit = subprocess.run(['git', '-C', a.top, 'rev-parse', '--short', 'HEAD'],
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ''
    md = ['# KVM_HC_HOST_SYSCALL and its alternatives: the report', '',
          'Generated by `bench/decision_report.py` (`make report`, and the end of `make`) '
          f'at commit {commit or "unknown"} from what ran; nothing in it is typed by hand.', '']
    if js:
        md += [f'- bench run: {js["meta"].get("date")}, measured commit '
               f'{js["meta"].get("commit", "not recorded (a run before the bench recorded it)")}, '
               f'{js["meta"].get("accel")}, '
               f'{js["meta"].get("kernel config")}, guest kernel {js["meta"].get("guest kernel")}, '
               f'{js["meta"].get("qemu")}, host {js["meta"].get("host cpu")} '
               f'({js["meta"].get("host cores")} cores)']
    else:
        md.append('- bench run: none (bench/results/latest.json missing)')
    rel = os.path.relpath(a.tests, a.top)
    md += [f'- tests: `{rel}`' + ('' if tap is not None else ' (missing: not run)'), '',
           'On this platform (QEMU TCG, nested SVM) absolute times are emulation; compare '
           'within a table.  Path lengths (-icount) are exact and repeatable; only a '
           'VT-x/AMD-V host (`ACCEL=kvm make bench`) gives times worth quoting.', '']
    model = results.load(os.path.join(a.results, 'latest-model.json'), 'model')
    scaling = results.load(os.path.join(a.results, 'latest-scaling.json'), 'scaling')
    md += performance(js, profile, programs, model, prof, scaling)
    md += intrusiveness(a.top)
    sem, unsourced, statuses = semantics(facts, tap, rel, a.ids)
    md += sem
    md += conclusions(js, programs, statuses, model)
    open(a.out, 'w').write('\n'.join(md) + '\n')
    print(f'report: {a.out}' + (f' ({len(unsourced)} facts with no source)' if unsourced else ''))
    for u in unsourced:
        print(f'report: no source for {u}', file=sys.stderr)
    return 1 if unsourced else 0


if __name__ == '__main__':
    sys.exit(main())
