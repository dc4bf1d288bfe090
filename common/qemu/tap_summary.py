#!/usr/bin/env python3
"""Judge one QEMU test run from its TAP log (ttyS1) and kernel log (ttyS0).

Counting: each program in /tests reports a top-level TAP result; a program
that prints its own (indented) TAP results is counted by those, and its
top-level "not ok" adds one failure when none of its own results failed
(it crashed or exited non-zero after its checks).  The run fails on any
failure, on a kernel splat in the console log, or when the end marker is
missing (the guest crashed, panicked or hung).

Skips: with a third argument, the skips file (lines "name|condition|
reason", see common/tests.skips), a program may skip, or have skipped
checks, only if it is named there: any other skip is a failure, since
`make test` runs on a kernel that carries every series and nothing there
may quietly not run.

Prints the closing line "N passed, N failed, N skipped"; exit 1 on failure.

With TEST_IDS_FACTS=FILE in the environment (build/facts' records), the
ids of common/tests/test-ids that REPORT.md's facts cite are held to the
log too (common/tests/check_test_ids.py), each a counted check.

With --boot MODE (a bench, profile or programs boot, which prints no TAP):
the boot fails unless its program's "# kvm-hc: MODE exit=0" line and the
end marker are there and the console log has no splat; exit 3 when the
guest left no word at all (neither line, no splat: it reset or hung), 1
otherwise, so that a caller may make such a boot again
(gvisor/run-bench.sh).

TAP lines are read with common/py/guestlog.py, the one parser of guest logs.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'py'))
sys.path.insert(0, os.path.join(HERE, '..', 'tests'))
from guestlog import RESULT, read_lines  # noqa: E402

END = '# kvm-hc: end of run'
# Kernel messages that fail a run whatever the tests said.  The two ACPI
# errors QEMU always provokes are not here: they are not splats.
SPLATS = re.compile(r'(WARNING:|BUG:|Oops|Kernel panic|general protection fault|'
                    r'KASAN|UBSAN|kernel BUG|Call Trace:|INFO: task .* blocked|'
                    r'possible recursive locking|circular locking|'
                    r'suspicious RCU usage|DEBUG_LOCKS_WARN_ON|INFO: lockdep|watchdog: BUG|rcu_sched self-detected|'
                    r'new suspected memory leaks)')


def splat_lines(console):
    return [l for l in console if SPLATS.search(l)]


def judge_boot(mode, tap_path, console_path):
    """A non-test boot: its program's exit status, the end marker, splats."""
    tap, console = read_lines(tap_path), read_lines(console_path)
    problems = []
    status = [l for l in tap if l.startswith(f'# kvm-hc: {mode} exit=')]
    if not status:
        problems.append(f'no exit status of the {mode} program')
    elif status[-1] != f'# kvm-hc: {mode} exit=0':
        problems.append(f'the {mode} program failed: {status[-1][2:]}')
    if not any(l.startswith(END) for l in tap):
        problems.append('no end marker: the guest crashed, panicked or hung')
    splats = splat_lines(console)
    if splats:
        problems.append('kernel splat in the console log:')
        problems += ['  ' + l for l in splats[:20]]
    for p in problems:
        print(f'# {mode} boot: {p}')
    if problems:
        print(f'# {mode} boot failed; console log: {console_path}')
        return 3 if not status and not splats and len(problems) == 2 else 1
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--boot':
        return judge_boot(sys.argv[2], sys.argv[3], sys.argv[4])
    tap_path, console_path = sys.argv[1], sys.argv[2]
    expected = None
    if len(sys.argv) > 3:
        with open(sys.argv[3]) as f:
            expected = {l.split('|', 1)[0].strip() for l in f
                        if l.strip() and not l.startswith('#')}
    tap, console = read_lines(tap_path), read_lines(console_path)

    passed = failed = skipped = 0
    sub = {'pass': 0, 'fail': 0, 'skip': 0}
    problems = []
    for line in tap:
        m = RESULT.match(line)
        if not m:
            continue
        indent, status, _, name, _, directive, reason = m.groups()
        skip = directive is not None and directive.upper() == 'SKIP'
        if indent:
            kind = 'skip' if skip else ('pass' if status == 'ok' else 'fail')
            sub[kind] += 1
            if kind == 'fail':
                problems.append('failed: ' + line.strip())
            continue
        # top-level result of one program
        name = name.strip()
        if expected is not None and (skip or sub['skip']) and name not in expected:
            failed += 1
            problems.append('unexpected skip (not in the skips file): ' + line.strip())
        if sum(sub.values()):
            passed += sub['pass']
            failed += sub['fail']
            skipped += sub['skip']
            if status == 'not ok' and not sub['fail']:
                failed += 1
                problems.append('failed after its checks: ' + line.strip())
        elif skip:
            skipped += 1
        elif status == 'ok':
            passed += 1
        else:
            failed += 1
            problems.append('failed: ' + line.strip())
        sub = {'pass': 0, 'fail': 0, 'skip': 0}

    if not any(l.startswith(END) for l in tap):
        failed += 1
        problems.append('no end marker: the guest crashed, panicked or hung '
                        '(see the console log)')
    splats = splat_lines(console)
    if splats:
        failed += 1
        problems.append('kernel splat in the console log:')
        problems += ['  ' + l for l in splats[:20]]
    facts = os.environ.get('TEST_IDS_FACTS')
    if facts:
        import check_test_ids
        for ok, desc in check_test_ids.checks(facts, tap_path):
            if ok:
                passed += 1
            else:
                failed += 1
                problems.append('test id: ' + desc)

    for p in problems:
        print('# ' + p)
    if problems:
        print('# console log: ' + console_path)
    print(f'{passed} passed, {failed} failed, {skipped} skipped')
    return 1 if failed or not (passed + skipped) else 0


if __name__ == '__main__':
    sys.exit(main())
