#!/bin/bash
# Host-side check of the verdict logic (tap_summary.py), no QEMU needed:
# each case is a TAP log + console log and the exit status the run must get.
# The guest run is only as trustworthy as this: a parser that cannot fail
# would make every test pass.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok=0 bad=0

END='# kvm-hc: end of run'
CLEAN='[    0.000000] Linux version 6.12
ACPI Error: AE_BAD_PARAMETER, During Region initialization (20240827/tbxfload-220)
Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar'

check() {	# name expected-exit tap console
	printf '%s\n' "$3" > "$tmp/tap"
	printf '%s\n' "$4" > "$tmp/console"
	# BOOT=mode: judge it as a bench, profile or programs boot.
	python3 "$here/../tap_summary.py" ${BOOT:+--boot "$BOOT"} "$tmp/tap" "$tmp/console" \
		${5:+"$5"} > "$tmp/out"
	rc=$?
	if [ "$rc" = "$2" ]; then
		ok=$((ok + 1))
	else
		bad=$((bad + 1))
		echo "harness: FAIL $1: exit $rc, expected $2"
		sed 's/^/    /' "$tmp/out"
	fi
}

PASS_TAP="TAP version 13
1..2
    ok 1 a
    ok 2 b
ok 1 prog1
ok 2 prog2
$END"

check "all pass" 0 "$PASS_TAP" "$CLEAN"
check "subtest fails" 1 "1..1
    ok 1 a
    not ok 2 b
not ok 1 prog1 # exit=1
$END" "$CLEAN"
check "program fails after its checks" 1 "1..1
    ok 1 a
not ok 1 prog1 # exit=139
$END" "$CLEAN"
check "no end marker (guest hang)" 1 "1..1
ok 1 prog1" "$CLEAN"
check "WARNING in kernel log" 1 "$PASS_TAP" "$CLEAN
[   12.3] WARNING: CPU: 1 PID: 80 at arch/x86/kvm/x86.c:10000 kvm_foo+0x1/0x2"
check "BUG in kernel log" 1 "$PASS_TAP" "$CLEAN
[   12.3] BUG: sleeping function called from invalid context at mm/memory.c:6000"
check "lockdep report" 1 "$PASS_TAP" "$CLEAN
[   12.3] WARNING: possible circular locking dependency detected"
check "not ok with a comment that is not a directive" 1 "1..1
not ok 1 kmemleak # /sys/kernel/debug/kmemleak missing
$END" "$CLEAN"
check "kmemleak report in kernel log" 1 "$PASS_TAP" "$CLEAN
[   99.1] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)"
check "only skips" 0 "1..1
ok 1 prog1 # SKIP kvm_amd nrips=0
$END" "$CLEAN"
check "no results at all" 1 "$END" "$CLEAN"
echo 'prog1|true|a platform limit' > "$tmp/skips"
check "listed skip" 0 "1..1
ok 1 prog1 # SKIP kvm_amd nrips=0
$END" "$CLEAN" "$tmp/skips"
check "unlisted skip" 1 "1..1
ok 1 prog2 # SKIP no reason to
$END" "$CLEAN" "$tmp/skips"
check "unlisted program with a skipped check" 1 "1..1
    ok 1 a
    ok 2 b # SKIP not available
ok 1 prog2
$END" "$CLEAN" "$tmp/skips"
grep -q 'passed, .* failed, .* skipped' "$tmp/out" || {
	bad=$((bad + 1)); echo "harness: FAIL closing line missing"; }

# Bench, profile and programs boots: judged by their program's exit
# status, the end marker and the kernel log, as test boots are.
check_boot() {	# name expected-exit tap console
	BOOT=bench check "boot $1" "$2" "$3" "$4"
}
BENCH_OK="mechanism|getppid|...
# kvm-hc: bench exit=0
$END"
check_boot "clean bench boot" 0 "$BENCH_OK" "$CLEAN"
check_boot "bench boot with a splat" 1 "$BENCH_OK" "$CLEAN
[   12.3] WARNING: CPU: 1 PID: 80 at arch/x86/kvm/x86.c:10000 kvm_foo+0x1/0x2"
check_boot "bench program failed" 1 "# kvm-hc: bench exit=1
$END" "$CLEAN"
check_boot "bench boot without the program's status" 1 "$END" "$CLEAN"
check_boot "bench boot that hung" 1 "# kvm-hc: bench exit=0" "$CLEAN"
# No word at all (the machine reset or hung before the status): exit 3,
# which gvisor/run-bench.sh makes again; with a splat it is a failure.
check_boot "bench boot the guest did not survive" 3 "mechanism|getppid|..." "$CLEAN"
check_boot "bench boot that died with a splat" 1 "mechanism|getppid|..." "$CLEAN
[   12.3] general protection fault, probably for non-canonical address"

# The facts' test ids (common/tests/test-ids) held to the log: a fact that
# cites a test whose result is not in the log fails the run.
printf '%s\n' '{"type":"run","tool":"facts","schema":1,"kernel":"x"}' \
	'{"type":"mech","tool":"facts","name":"m1","vm":true,"summary":"x"}' \
	'{"type":"fact","mech":"m1","prop":0,"answer":"yes","test":"semantics.common.seccomp","design":null}' \
	> "$tmp/facts"
for id in $(sed -n 's/^\([a-z_]*\.[a-z_]*\.[a-z_]*\) |.*/\1/p' "$here/../../tests/test-ids"); do
	[ "$id" = semantics.common.seccomp ] && continue
	# every other id of the table has a result, so only the cited one decides
	prog=$(sed -n "s/^$id | \([a-z_]*\) | \(.*\)$/\1/p" "$here/../../tests/test-ids")
	start=$(sed -n "s/^$id | [a-z_]* | \(.*\)$/\1/p" "$here/../../tests/test-ids")
	printf '# running %s\n    ok 1 %s\nok 1 %s\n' "$prog" "${start//%m/m1}" "$prog"
done > "$tmp/others"
TEST_IDS_FACTS=$tmp/facts check "a fact's test id with its result" 0 "$(cat "$tmp/others")
# running semantics_test
    ok 1 m1: seccomp: the process's filter judges the call
ok 2 semantics_test
$END" "$CLEAN"
TEST_IDS_FACTS=$tmp/facts check "a fact's test id whose test was reworded" 1 "$(cat "$tmp/others")
# running semantics_test
    ok 1 m1: seccomp filter: the process's filter judges the call
ok 2 semantics_test
$END" "$CLEAN"

echo "harness: verdict logic self-check: $ok ok, $bad wrong"
# The profile report: a mechanism that did not run says why, never zeros.
python3 "$here/../../../bench/profile_report.py" --self-test || bad=$((bad + 1))
python3 "$here/../../../bench/scaling_report.py" --self-test || bad=$((bad + 1))
[ $bad -eq 0 ]
