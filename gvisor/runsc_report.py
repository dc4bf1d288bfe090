#!/usr/bin/env python3
"""The runsc bench's report (gvisor/run-bench.sh): UDP_RR, the send()
loop and redis-server under each runsc mode, beside the figures of the 2022
posting.

    runsc_report.py [--commit C] LOG...

Each LOG is the TAP port log of one runsc bench boot (records of tool
"runsc", common/py/guestlog.py); the first wall-clock boot gives the
tables, every wall-clock boot a ratio's range, the -icount boot (unit
insns) the deterministic columns.  Markdown on stdout.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common', 'py'))
import guestlog  # noqa: E402

# The posting (cover letter and LWN's account of the thread): netperf
# UDP_RR under runsc --platform=kvm --network=host, transactions/s, and the
# cost of one host system call in each mode, in microseconds.
POSTING_RR = {'native': 146461, 'hlt': 58709, 'ptregs': 95965}
POSTING_CALL_US = {'hlt': 3.6, 'exit': 2.1, 'ptregs': 1.0}

MODES = [
    ('native', 'native (no sandbox)'),
    ('ptrace', 'runsc ptrace'),
    ('hlt', 'runsc kvm, HLT exits (gVisor as released)'),
    ('exit', 'runsc kvm, KVM_HC_HOST_SYSCALL exits to runsc'),
    ('ptregs', 'runsc kvm, KVM_HC_HOST_SYSCALL (pt_regs)'),
    ('regs', 'runsc kvm, KVM_HC_HOST_SYSCALL_REGS'),
]


def per_op(boot, op):
    """{mode: median time per operation} of one boot, in its unit."""
    out = {}
    for mode, _ in MODES:
        t = [r['t'] / r['n'] for r in boot.by_type['runsc']
             if r['mode'] == mode and r['op'] == op]
        if t:
            out[mode] = statistics.median(t)
    return out


def fmt_int(x):
    return f'{x:,.0f}'


def ratio(a, b):
    return f'{a / b:.2f}x' if a and b else 'n/a'


def rng(vals):
    vals = [v for v in vals if v]
    if len(vals) < 2:
        return 'one boot'
    return f'{min(vals):.2f}-{max(vals):.2f}x'


def redis_table(w_redis, i_redis):
    """Requests/s of redis-server in each mode, SET and GET."""
    print('\n## A real server: Debian\'s redis-server, requests/s\n')
    print('redis-server 7.0 (Debian\'s, unmodified) natively or under runsc '
          '--network=host; Debian\'s redis-benchmark natively in the guest, one '
          'connection, one request at a time (`-c 1 -t set,get`), so each request '
          'is a round trip like UDP_RR\'s: the Sentry\'s epoll_wait, recvmsg and '
          'sendmsg on the host socket.  The posting has no such figure.\n')
    print('| mode | SET wall | GET wall | GET vs HLT | range | SET -icount | GET -icount | GET vs HLT |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|')
    s0 = w_redis['set'][0] if w_redis['set'] else {}
    g0 = w_redis['get'][0] if w_redis['get'] else {}
    si, gi = i_redis['set'], i_redis['get']

    def rate(d, mode):
        return 1e9 / d[mode] if mode in d else None
    for mode, label in MODES:
        if mode not in g0 and mode not in gi:
            continue
        rr = [(b['hlt'] / b[mode]) if mode in b and 'hlt' in b else None
              for b in w_redis['get']]
        cells = [rate(s0, mode), rate(g0, mode)]
        icells = [rate(si, mode), rate(gi, mode)]
        print(f'| {label} | ' + ' | '.join(fmt_int(c) if c else 'n/a' for c in cells)
              + f' | {ratio(rate(g0, mode), rate(g0, "hlt"))} | {rng(rr)} | '
              + ' | '.join(fmt_int(c) if c else 'n/a' for c in icells)
              + f' | {ratio(rate(gi, mode), rate(gi, "hlt"))} |')
    print('\n-icount columns are requests per 10^9 guest instructions.')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--commit', default='unknown')
    ap.add_argument('--runsc', help='what runsc is (its --version says VERSION_MISSING)')
    ap.add_argument('--crashed', action='append', default=[],
                    help='a boot the guest did not survive, made again')
    ap.add_argument('logs', nargs='+')
    a = ap.parse_args()
    wall, icount, notes, failures = [], None, [], []
    for path in a.logs:
        try:
            boot = guestlog.read_boot(path, tool='runsc')
        except (OSError, guestlog.LogError) as e:
            notes.append(f'{path}: {e}')
            continue
        name = os.path.basename(os.path.dirname(path))
        notes += [f'{name}: {n}' for n in boot.notes]
        for r in boot.by_type['runsc-failure']:
            failures.append(f'{name}: {r["mode"]} {r["op"]}, try {r["try"]}: exit {r["rc"]}, '
                            f'{r["why"] or "no word from the Sentry"}')
        if guestlog.unit(boot) == 'insns':
            icount = boot
        else:
            wall.append(boot)
    if not wall and not icount:
        print('No runsc bench boot could be read:', *notes, sep='\n- ')
        return 1
    first = wall[0] if wall else icount
    run = first.run
    w_rr = [per_op(b, 'rr') for b in wall]
    w_send = [per_op(b, 'send') for b in wall]
    i_rr = per_op(icount, 'rr') if icount else {}
    i_send = per_op(icount, 'send') if icount else {}

    print('# gVisor\'s runsc: UDP_RR and host calls, beside the posting\n')
    print(f'Measured commit: {a.commit}; kernel {run.get("kernel")}; '
          f'{a.runsc or run.get("runsc")}; {run.get("samples")} samples of {run.get("n")} '
          f'operations per mode and boot; {len(wall)} wall-clock boot(s) (QEMU TCG, '
          f'-smp 2) and {1 if icount else 0} -icount boot (one CPU).  The tables '
          'are medians of the first wall-clock boot\'s samples; "range" is a '
          'ratio\'s minimum and maximum over the wall-clock boots; -icount '
          'columns count guest instructions: every instruction costs the same, '
          'so the world switch of an exit or a VMRUN is nearly free there, and for '
          'runsc they are not repeatable (the Go runtime\'s timers: virtual time '
          'jumps while the one CPU idles), so compare runs, not digits.  '
          'Wall clock is emulation: TCG has no NRIP and emulates SVM in '
          'software, so an exit costs what it costs QEMU, not a CPU.\n')

    print('## UDP_RR (1-byte request and response, --network=host), transactions/s\n')
    print('| mode | wall | vs HLT | range | -icount (per 10^9 insns) | vs HLT | the posting | posting vs HLT |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|')
    w0 = w_rr[0] if w_rr else {}
    for mode, label in MODES:
        if mode not in w0 and mode not in i_rr:
            continue
        tw = 1e9 / w0[mode] if mode in w0 else None
        hw = 1e9 / w0['hlt'] if 'hlt' in w0 else None
        ti = 1e9 / i_rr[mode] if mode in i_rr else None
        hi = 1e9 / i_rr['hlt'] if 'hlt' in i_rr else None
        rr = [(b['hlt'] / b[mode]) if mode in b and 'hlt' in b else None for b in w_rr]
        post = POSTING_RR.get(mode)
        print(f'| {label} | {fmt_int(tw) if tw else "n/a"} | {ratio(tw, hw)} | {rng(rr)} '
              f'| {fmt_int(ti) if ti else "n/a"} | {ratio(ti, hi)} '
              f'| {fmt_int(post) if post else ""} '
              f'| {ratio(post, POSTING_RR["hlt"]) if post else ""} |')
    print('\nThe posting\'s hypercall row is its pt_regs form, the only one it had.\n')

    print('## One host call: send() of one byte on a UDP socket, per call\n')
    print('Each send() is one host sendmsg the Sentry makes (none natively: '
          'the program makes it itself).  "Above native" is what the sandbox '
          'adds per call: the application\'s trap into the Sentry, the Sentry\'s '
          'work and the way its host call leaves guest ring 0.  The posting\'s '
          'figures are per host system call on hardware.\n')
    print('| mode | wall ns | above native | -icount insns | above native | the posting, us |')
    print('|---|---:|---:|---:|---:|---:|')
    s0 = w_send[0] if w_send else {}
    for mode, label in MODES:
        if mode not in s0 and mode not in i_send:
            continue
        w = s0.get(mode)
        i = i_send.get(mode)
        wa = w - s0['native'] if w is not None and 'native' in s0 and mode != 'native' else None
        ia = i - i_send['native'] if i is not None and 'native' in i_send and mode != 'native' else None
        post = POSTING_CALL_US.get(mode)
        print(f'| {label} | {fmt_int(w) if w else "n/a"} | {fmt_int(wa) if wa is not None else ""} '
              f'| {fmt_int(i) if i else "n/a"} | {fmt_int(ia) if ia is not None else ""} '
              f'| {post if post else ""} |')
    w_redis = {op: [per_op(b, 'redis-' + op) for b in wall] for op in ('set', 'get')}
    i_redis = {op: per_op(icount, 'redis-' + op) if icount else {} for op in ('set', 'get')}
    if any(w_redis['get']) or i_redis['get']:
        redis_table(w_redis, i_redis)
    counts = [b for b in wall + ([icount] if icount else []) if b.by_type['runsc-count']]
    if counts:
        print('\n## What KVM saw per operation (its tracepoints, first wall-clock boot)\n')
        print('Host system call hypercalls (KVM_HC_HOST_SYSCALL, _REGS) and KVM_RUN\'s '
              'returns to runsc for HLT and for a hypercall, per operation: the '
              'difference between an untimed run of 200 and one of 1,200 operations, '
              'so that starting the sandbox cancels out.  These do not depend on the '
              'emulator\'s speed as times do, though how often a recv() finds no reply '
              'yet (and the Sentry waits) does.\n')
        print('| mode | op | hypercalls | HLT exits | hypercall exits |')
        print('|---|---|---:|---:|---:|')
        for mode, label in MODES:
            for r in counts[0].by_type['runsc-count']:
                if r['mode'] != mode:
                    continue
                ops = r['ops']
                op = {'rr': 'UDP_RR transaction', 'send': 'send()',
                      'redis': 'redis GET'}[r['op']]
                cells = [(r['hc13'] + r['hc14']) / ops, r['hlt'] / ops, r['hcexit'] / ops]
                # A difference of two runs can come out a hair below 0.
                print(f'| {label} | {op} | ' + ' | '.join(f'{max(c, 0):.2f}' for c in cells) + ' |')
    if a.crashed:
        print('\n## Boots the guest did not survive, made again\n')
        print('The whole QEMU guest ended without a kernel message (its machine reset; '
              'gvisor/README.md, "Triple faults"); the boot was made once more, '
              'its first log kept beside it as NAME-crashed:\n')
        for c in a.crashed:
            print(f'- {c}')
    if failures:
        print('\n## Runs that failed and were made again\n')
        print('A run is tried up to five times; each failed try, with the first fatal '
              'error of the Sentry\'s log (gvisor/README.md, "Triple faults"):\n')
        for f in failures:
            print(f'- {f}')
    if notes:
        print('\n## Notes\n')
        for n in notes:
            print(f'- {n}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
