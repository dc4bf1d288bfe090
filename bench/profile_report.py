#!/usr/bin/env python3
"""Where the cost goes: turn /bench/profile's output into tables and a plot.

usage: profile_report.py OUTDIR counts=LOG [path=LOG]
       profile_report.py --self-test

counts: the event-count boot (profile -c); path: the -icount boot (profile
-p).  Writes OUTDIR/latest-profile.md (also printed), latest-profile.json
(the counts and buckets, schema 2: common/py/results.py), latest-profile.csv
(every figure), latest-profile-{getppid,mixed}.dat (for plot-profile.gp).
A mechanism the guest could not run is a row saying why, never zeros.
"""
import csv
import io
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common', 'py'))
import guestlog  # noqa: E402
import results  # noqa: E402

OPS = ['bare-exit', 'getppid', 'mixed', 'udp-rr']
# The counts a reader looks at first, in this order; the rest go to the csv.
MAIN_COUNTS = ['vm-exits', 'userspace-exits', 'hypercalls', 'kvm-fpu-swaps', 'syscalls',
               'context-switches', 'cr3-switches+flushes', 'signals', 'task-fpu-saves']
STAT_COUNTS = ['stat:exits', 'stat:io_exits', 'stat:hypercalls', 'stat:host_state_reload',
               'stat:fpu_reload', 'KVM_RUN-returns']
# vcpu_load/vcpu_put and the preempt notifiers (kprobes, machine-wide).
LOAD_COUNTS = ['vcpu-loads', 'vcpu-puts', 'preempt-notifier-outs', 'preempt-notifier-ins']


# Kernel functions by name, first match wins: exact names, or patterns
# with '*' at the start and/or end.  Where a name says little (copy_*,
# fput...), it goes with what most of the workload's syscalls do with it:
# the syscall body.  (The guest reports samples per function; the buckets
# are the reader's choice, so they live here.)
BUCKETS = [
    ('VM entry and exit', [
        'svm_vcpu_run', 'svm_vcpu_enter_exit', '__svm_vcpu_run',
        'vmx_vcpu_run', 'vmx_vcpu_enter_exit', '__vmx_vcpu_run',
        'svm_prepare_switch_to_guest', 'vmx_prepare_switch_to_guest',
        'svm_prepare_host_switch', 'svm_vcpu_load', 'svm_vcpu_put', 'vcpu_load',
        'vcpu_put', 'kvm_arch_vcpu_load', 'kvm_arch_vcpu_put', 'fpu_swap_kvm_fpstate',
        'kvm_load_guest_fpu', 'kvm_put_guest_fpu', 'kvm_load_host_xsave_state',
        'kvm_load_guest_xsave_state', 'save_fpregs_to_fpstate', 'restore_fpregs_from_fpstate',
        'os_xsave', 'os_xrstor*', 'xsave*', 'xrstor*', 'vcpu_enter_guest']),
    ('seccomp', ['seccomp*', '__secure_computing*', '__seccomp*', 'populate_seccomp_data',
                 'bpf_prog_run*']),
    # JIT-compiled code lies past the kernel image, so its nearest symbol is
    # the image's last: the BPF verdict program and its trampoline, and the
    # seccomp filters (classic BPF, JIT-compiled too).
    ('BPF programs (verdict, or JIT seccomp filter)', [
        'bpf_*', '__bpf_*', 'kvm_hc_host_syscall_bpf', '_einittext', '_etext']),
    ('process_vm_exec', ['*process_vm_exec*', 'pvm_*', 'x86_gsbase*', 'x86_fsbase*',
                         'do_arch_prctl_64', '__ptrace_may_access', 'mm_access']),
    ('ptrace', ['ptrace*', '__x64_sys_ptrace', '__x64_sys_wait4', 'do_wait*',
                'wait_consider_task', 'wait_task*', 'kernel_wait4', 'arch_ptrace',
                'do_notify_parent_cldstop', 'genregs_*', 'getreg', 'putreg', '*regset*',
                '__ptrace*']),
    ('signals', ['*signal*', 'setup_rt_frame', 'x64_setup_rt_frame', 'restore_sigcontext',
                 '__x64_sys_rt_sigreturn', 'copy_fpstate_to_sigframe', 'fpu__restore_sig',
                 '__fpu_restore_sig*', '__fpu_restore_sig', 'get_sigframe', 'force_sig*',
                 'send_sig*', '__send_signal*', 'complete_signal', 'dequeue_signal',
                 'collect_signal', 'copy_siginfo*']),
    ('futex and wake-ups', ['futex*', '__futex*', 'get_futex_key', 'gup_fast*',
                            'get_user_pages*', 'try_to_wake_up', 'ttwu*', 'wake_up*',
                            '__wake_up*', 'autoremove_wake_function']),
    ('scheduler and context switch', [
        '__schedule', 'schedule*', 'finish_task_switch*', '__switch_to*', 'switch_mm*',
        'pick_next*', 'dequeue_*', 'enqueue_*', 'update_curr*', 'put_prev*', 'set_next*',
        'check_preempt*', 'resched_curr', 'select_task_rq*', 'update_load*', 'update_cfs*',
        '__update_load*', 'reweight*', 'sched_*', 'psi_*', 'load_new_mm_cr3',
        'native_write_cr3', 'cpuacct*', 'rcu_note*']),
    ('the hypercall\'s runner', ['kvm_pv_host_syscall*', 'kvm_host_syscall*', 'kvm_hc_*']),
    ('KVM exit handling', [
        'kvm*', '__kvm*', 'svm_*', 'vmx_*', 'nested_*', 'x86_emulate*', 'x86_decode*', 'em_*',
        'emulator_*', 'decode_*', 'complete_*pio*', 'kernel_pio', 'pio_*', 'handle_exit',
        'io_interception', 'vmmcall_interception', 'kvm_emulate*', 'init_emulate_ctxt',
        'writeback', 'x86_*insn*', '__x86_*insn*', 'paging64_*', 'mmu_*', '__get_user*',
        'copy_from_user*', '_copy_from_user', 'kvm_read_guest*', '*memslot*', '*gfn_to_*',
        '__gfn*', 'trace_kvm*', 'hva_*', '*_interception']),
    ('VMM\'s syscalls (ioctl / poll)', [
        '__x64_sys_ioctl', '__x64_sys_poll', 'do_sys_poll', 'do_poll*', 'seccomp_notify*',
        '__fdget', '__fget*', 'fdget*', 'security_file_ioctl']),
    ('syscall entry and exit', [
        'entry_SYSCALL*', 'do_syscall_64', 'x64_sys_call', 'syscall_*', 'exit_to_user_mode*',
        'arch_exit_to_user_mode*', 'syscall_exit_to_user_mode*', 'fpregs_restore_userregs',
        'switch_fpu_return', '__rseq_handle_notify_resume', 'rseq*', 'irqentry*',
        'error_entry']),
    ('syscall body', [
        '__x64_sys_*', 'ksys_*', 'vfs_*', 'pipe_*', 'anon_pipe*', 'filemap_*', 'copy_page_*',
        '_copy_to_iter', 'copy_to_user*', 'rep_movs_alternative', '__task_pid_nr_ns',
        'do_sys_*', 'do_filp_open', 'path_*', 'link_path_walk', 'walk_component', 'lookup_*',
        'd_*', '__d_*', 'dput', 'mntput*', 'open_last_lookups', 'do_open', 'do_dentry_open',
        'alloc_fd', 'fd_install', 'file_close_fd*', 'filp_close', 'fput*', '__fput*',
        'task_work_run', 'getname*', 'putname', 'kmem_cache_*', 'kfree', '__kmalloc*',
        'inode_*', 'generic_*', 'security_*', 'shmem_*', 'touch_atime', 'atime_needs_update',
        'cp_new_stat', 'vfs_fstat', '__do_sys_*', 'fsnotify*', '__fsnotify*',
        'rw_verify_area', 'strncpy_from_user', 'memcpy*', 'memset*', 'alloc_empty_file',
        'init_file', 'file_*', '__alloc_file', 'fdget_pos', 'mutex_*', '__mutex*',
        '_raw_spin*', 'rcu_read*', '__rcu_read*', 'xas_*']),
    ('interrupts and timers', [
        '*irq*', '*hrtimer*', 'tick_*', '__sysvec*', 'sysvec*', 'timekeeping*',
        'update_process_times', 'scheduler_tick', 'account_*', 'native_apic*', 'lapic_*',
        'clockevents*']),
]
# Where a sample fell that is not a kernel function ("where" records).
WHERE = {'user': 'user mode (VMM / stub / the code)',
         'guest': 'guest and KVM\'s interrupts-off world switch'}
OTHER = 'other kernel'
TOP = 12
# A skip's reason as the tables show it, by kind.
SKIP_PREFIX = {'missing': '', 'n/a': 'n/a under -icount: ', 'failed': 'set-up failed: '}


def name_matches(pat, name):
    if pat.startswith('*') and pat.endswith('*') and len(pat) > 1:
        return pat[1:-1] in name
    if pat.endswith('*'):
        return name.startswith(pat[:-1])
    return pat == name


def classify(name):
    """The first bucket whose pattern matches, or other kernel."""
    return next((b for b, pats in BUCKETS if any(name_matches(p, name) for p in pats)),
                OTHER)


def parse(path):
    """Everything one profile boot printed (guestlog.py), its kernel path
    put in buckets here."""
    boot = guestlog.read_boot(path, 'profile')
    r = {'mechs': [m['name'] for m in boot.mechs], 'notes': boot.notes,
         'skip': {m: SKIP_PREFIX.get(s['kind'], '') + s['reason'] for m, s in boot.skips.items()},
         'sources': {c['name']: c['source'] for c in boot.by_type['counter']},
         'count': {}, 'path': {}, 'bucket': {}, 'top': {}, 'named': {},
         'buckets': [b for b, _ in BUCKETS], 'where': list(WHERE.values())}
    for c in boot.by_type['count']:
        r['count'].setdefault((c['mech'], c['op']), {})[c['counter']] = c['per_op']
    scale = {}
    for p in boot.by_type['path']:
        key = (p['mech'], p['op'])
        r['path'][key] = {'total': p['insns_per_op'], 'samples': p['samples'],
                          'sampled-iterations': p['sampled_iterations']}
        scale[key] = p['insns_per_sample']
    raw = {}
    for w in boot.by_type['where']:
        key = (w['mech'], w['op'])
        b = raw.setdefault(key, {})
        name = WHERE.get(w['where'], OTHER)
        b[name] = b.get(name, 0) + w['samples']
    syms = {}
    for s in boot.by_type['symbol']:
        key = (s['mech'], s['op'])
        syms.setdefault(key, []).append(s)
        if s['samples'] is not None:
            b = raw.setdefault(key, {})
            name = classify(s['name'])
            b[name] = b.get(name, 0) + s['samples']
    for key, sc in scale.items():
        if sc <= 0:
            continue        # nothing sampled: no row, as the guest printed none
        # Every bucket, in the guest's former order, as instructions per op.
        order = r['where'] + [OTHER] + r['buckets']
        r['bucket'][key] = {n: float(f'{raw.get(key, {}).get(n, 0) * sc:.1f}') for n in order}
        ranked = sorted((s for s in syms.get(key, []) if s['samples'] and s['samples'] > 0),
                        key=lambda s: (-s['samples'], s['rank']))[:TOP]
        r['top'][key] = {s['name']: (float(f'{s["samples"] * sc:.1f}'), classify(s['name']))
                         for s in ranked}
        named = {}
        for s in syms.get(key, []):
            if s.get('named'):
                named[s['name']] = (None if s['samples'] is None
                                    else float(f'{s["samples"] * sc:.1f}'))
        r['named'][key] = named
    return r

# What the udp-rr counts are for (issue #29, item 4).
UDP_NOTE = ['A call that sleeps: per transaction, a sendto and a recvfrom that blocks until '
            'the echo server (another guest process, counted too: the counts are '
            'machine-wide) replies.  stat:host_state_reload counts vcpu_put '
            '(svm_vcpu_put), run by the preempt notifier when a call sleeps inside KVM_RUN '
            'and by the return to the VMM; stat:fpu_reload counts the guest FPU put back '
            'when KVM_RUN ends.  vcpu-loads and vcpu-puts count every kvm_arch_vcpu_load/put '
            '(a vCPU ioctl\'s and the notifier\'s), preempt-notifier-outs/ins the notifier\'s '
            'own runs: a vCPU task switched out and back inside KVM_RUN.  '
            'A form that keeps the vCPU in KVM_RUN still pays a vcpu_put '
            'and a vcpu_load for every call that sleeps; an exit form pays them on every '
            'call.  On two vCPUs the reply may already be queued when recvfrom runs (the '
            'exit is slow under emulation), and then nothing sleeps but the server.', '']


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


def report(counts, path, counts1=None):
    md = ['# Where the cost goes: one profile run', '']
    for name, r in (('counts', counts), ('counts on one vCPU', counts1), ('path', path)):
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
                md += [f'### {op}', ''] + UDP_NOTE * (op == 'udp-rr') + t + ['']
                s = count_table(counts, op, STAT_COUNTS)
                if s:
                    md += ['KVM binary stats of the vCPU (KVM_GET_STATS_FD) and the VMM\'s '
                           'count of KVM_RUN returns:', ''] + s + ['']
                s = count_table(counts, op, LOAD_COUNTS)
                if s:
                    md += ['vcpu_load/vcpu_put and the preempt notifier\'s runs (kprobes on '
                           'kvm_arch_vcpu_load/put and kvm_sched_out/in, machine-wide):',
                           ''] + s + ['']
            t1 = count_table(counts1, op, MAIN_COUNTS) if op == 'udp-rr' and counts1 else []
            if t1:
                md += ['The same on one vCPU, as the -icount boots run it (the client has to '
                       'sleep while the server runs):', '']
                md += t1 + ['']
                md += count_table(counts1, op, STAT_COUNTS) + ['']
                s = count_table(counts1, op, LOAD_COUNTS)
                if s:
                    md += s + ['']
    if path:
        md += ['## The kernel path per op (sampled, -icount)', '',
               'Thousands of guest instructions per op, by where a cpu-clock sample found '
               'the CPU (one sample per 10-20k instructions, a period drawn per chunk so '
               'that the samples do not lock onto the loop; about 2000 samples per cell, so '
               'a bucket under 2% of its total is within the noise, and a small negative '
               'value is noise of the empty-job subtraction).  Code that runs with interrupts '
               'off is counted where they come back on; KVM\'s entry and exit around VMRUN '
               'is such code and is counted with the guest.  Buckets are by function '
               'name (bench/profile_report.py, `BUCKETS`).', '']
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
    counts1 = parse(logs['counts1']) if 'counts1' in logs else None
    md = report(counts, path, counts1)
    text = '\n'.join(md)
    print(text)
    open(os.path.join(outdir, 'latest-profile.md'), 'w').write(text + '\n')
    with open(os.path.join(outdir, 'latest-profile.csv'), 'w') as f:
        w = csv.writer(f)
        w.writerow(['run', 'kind', 'mech', 'op', 'key', 'value'])
        for name, r in (('counts', counts), ('counts1', counts1), ('path', path)):
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
    js = {'counts': {}, 'counts_1cpu': {}, 'path': {}}
    for (m, op), d in (counts or {}).get('count', {}).items():
        js['counts'].setdefault(m, {})[op] = d
    for (m, op), d in (counts1 or {}).get('count', {}).items():
        js['counts_1cpu'].setdefault(m, {})[op] = d
    for (m, op), d in (path or {}).get('path', {}).items():
        js['path'].setdefault(m, {})[op] = {
            'insns_per_op': d.get('total'),
            'buckets_insns': path['bucket'].get((m, op), {})}
    results.write(os.path.join(outdir, 'latest-profile.json'), 'profile', js)
    if path:
        for op in ('getppid', 'mixed'):
            n = write_dat(path, op, os.path.join(outdir, f'latest-profile-{op}.dat'))
            open(os.path.join(outdir, f'latest-profile-{op}.ncols'), 'w').write(f'{n}\n')
    return 0


def self_test():
    """A mechanism that did not run is a row with its reason, never zeros;
    the figures of one that ran are the guest's, unchanged."""
    log = '\n'.join([
        '{"type":"run","tool":"profile","schema":%d,"kernel":"x","mode":"counts"}'
        % guestlog.REC_SCHEMA,
        '{"type":"counter","name":"hypercalls","source":"kvm:kvm_hypercall"}',
        '{"type":"mech","tool":"profile","name":"hypercall","vm":true,"summary":"x"}',
        '{"type":"count","mech":"hypercall","op":"getppid","counter":"hypercalls","per_op":1.000}',
        '{"type":"mech","tool":"profile","name":"pvm-exec","vm":false,"summary":"y"}',
        '{"type":"skip","tool":"profile","mech":"pvm-exec","op":null,"kind":"missing",'
        '"reason":"kernel without process_vm_exec()"}'])
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, 'log')
        open(p, 'w').write(log)
        sys.stdout = io.StringIO()
        try:
            main(['x', d, f'counts={p}'])
        finally:
            sys.stdout = sys.__stdout__
        md = open(os.path.join(d, 'latest-profile.md')).read()
    # The kernel path: buckets, top and named functions computed here from
    # the guest's per-function samples.
    recs = ['{"type":"run","tool":"profile","schema":%d,"kernel":"x","mode":"path"}'
            % guestlog.REC_SCHEMA,
            '{"type":"mech","tool":"profile","name":"hypercall","vm":true,"summary":"x"}',
            '{"type":"path","mech":"hypercall","op":"getppid","insns_per_op":42.0,'
            '"samples":21,"sampled_iterations":10,"insns_per_sample":2.0}']
    for where, n in (('user', 3), ('guest', 4), ('kernel-no-symbol', 1)):
        recs.append('{"type":"where","mech":"hypercall","op":"getppid","where":"%s",'
                    '"samples":%d}' % (where, n))
    for rank, (name, n, named) in enumerate((('svm_vcpu_run', 10, False),
                                             ('__x64_sys_getppid', 5, False),
                                             ('unknown_fn', 2, False),
                                             ('vcpu_put', 0, True))):
        recs.append('{"type":"symbol","mech":"hypercall","op":"getppid","name":"%s",'
                    '"rank":%d,"samples":%d%s}' % (name, rank, n,
                                                   ',"named":true' if named else ''))
    recs.append('{"type":"symbol","mech":"hypercall","op":"getppid",'
                '"name":"vmx_prepare_switch_to_guest","named":true,"samples":null}')
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, 'log')
        open(p, 'w').write('\n'.join(recs) + '\n')
        r = parse(p)
    b = r['bucket'][('hypercall', 'getppid')]
    top = list(r['top'][('hypercall', 'getppid')].items())
    named = r['named'][('hypercall', 'getppid')]
    checks = [
        ('a bucket is its functions\' samples times insns_per_sample',
         b['VM entry and exit'] == 20.0 and b['syscall body'] == 10.0),
        ('other kernel: unmatched functions and kernel samples with no symbol',
         b['other kernel'] == 6.0),
        ('user mode and the guest from the where records',
         b['user mode (VMM / stub / the code)'] == 6.0 and
         b['guest and KVM\'s interrupts-off world switch'] == 8.0),
        ('the top list, most first, with its bucket',
         top[0] == ('svm_vcpu_run', (20.0, 'VM entry and exit')) and len(top) == 3),
        ('a named function: 0 if no sample, not in this kernel if absent',
         named == {'vcpu_put': 0.0, 'vmx_prepare_switch_to_guest': None}),
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
