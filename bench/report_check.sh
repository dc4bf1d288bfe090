#!/bin/bash
# Host-side check of REPORT.md's generator (bench/decision_report.py) on a
# fixture, no QEMU needed (make check-harness, so make test, runs it): a
# result that is missing says "not run", a failed test "FAILED", a fact
# with neither a test nor a reason is refused, and no cell is filled from
# nothing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
ok=0 bad=0

expect() {	# what file pattern: the report must (not) hold the pattern
	if grep -qF -- "$3" "$2"; then found=1; else found=0; fi
	if { [ "$1" = has ] && [ $found = 1 ]; } || { [ "$1" = lacks ] && [ $found = 0 ]; }; then
		ok=$((ok + 1))
	else
		bad=$((bad + 1))
		echo "report-check: FAIL: $2 should $([ "$1" = has ] || echo 'not ')hold: $3"
	fi
}

status() {	# name expected actual
	if [ "$2" = "$3" ]; then ok=$((ok + 1)); else
		bad=$((bad + 1)); echo "report-check: FAIL $1: exit $3, expected $2"; fi
}

# Two mechanisms; facts tested by a passing, a failing and a missing result.
# latest.json in schema 1 (an archived run): read through the loader.
mkdir -p "$tmp/results" "$tmp/top/s1/patches"
cat > "$tmp/results/latest.json" <<'EOF'
{"meta": {"date": "fixture"},
 "summary": {"wall": {"native/getppid": {"median_ns": 100, "p90_ns": 100, "n": 1},
                      "hypercall/getppid": {"median_ns": 1000, "p90_ns": 1000, "n": 1},
                      "native/mixed": {"median_ns": 200, "p90_ns": 200, "n": 1},
                      "hypercall/mixed": {"median_ns": 2000, "p90_ns": 2000, "n": 1}}},
 "above_floor_ns": {},
 "mechanisms": [{"name": "native", "vm": false, "icount_na": "", "summary": ""},
                {"name": "hypercall", "vm": true, "icount_na": "", "summary": ""}]}
EOF
# The facts as build/facts prints them, citing tests by id.
fact() {	# mech prop answer test design
	printf '{"type":"fact","mech":"%s","prop":%s,"answer":"%s","test":%s,"design":%s}\n' "$@"
}
{
	echo '{"type":"run","tool":"facts","schema":1,"kernel":"x"}'
	for i in 0 1 2; do
		printf '{"type":"prop","index":%d,"title":"prop %s"}\n' $i "$(echo ABC | cut -c$((i + 1)))"
	done
	echo '{"type":"mech","tool":"facts","name":"native","vm":false,"summary":""}'
	fact native 0 yes '"t.c.passes"' null
	fact native 1 yes null '"a reason"'
	fact native 2 yes '"t.c.missing"' null
	echo '{"type":"mech","tool":"facts","name":"hypercall","vm":true,"summary":""}'
	fact hypercall 0 yes '"t.c.fails"' null
	fact hypercall 1 no null '"another reason"'
	fact hypercall 2 yes '"t.c.skips"' null
} > "$tmp/facts"
cat > "$tmp/ids" <<'EOF'
t.c.passes | t_test | native: passes
t.c.missing | t_test | native: is not in the log
t.c.fails | t_test | %m: fails
t.c.skips | t_test | hypercall: skips
EOF
cat > "$tmp/tap.log" <<'EOF'
TAP version 13
1..1
# running t_test
    ok 1 native: passes the check
    not ok 2 hypercall: fails the check
    ok 3 hypercall: skips # SKIP no reason
not ok 1 t_test # exit=1
EOF
printf 's1\n' > "$tmp/top/series"
printf '0001-x.patch\n' > "$tmp/top/s1/patches/series"
cat > "$tmp/top/s1/patches/0001-x.patch" <<'EOF'
diff --git a/arch/x86/kvm/x86.c b/arch/x86/kvm/x86.c
--- a/arch/x86/kvm/x86.c
+++ b/arch/x86/kvm/x86.c
@@ -1,1 +1,2 @@
-old
+new
+EXPORT_SYMBOL_GPL(kvm_fixture);
diff --git a/include/uapi/linux/kvm_para.h b/include/uapi/linux/kvm_para.h
--- a/include/uapi/linux/kvm_para.h
+++ b/include/uapi/linux/kvm_para.h
@@ -1,0 +1,1 @@
+#define KVM_HC_FIXTURE		99	/* a comment */
EOF
run() { python3 "$here/decision_report.py" --results "$tmp/results" --tests "$1" \
	--facts "$tmp/facts" --ids "$tmp/ids" --top "$tmp/top" --out "$tmp/R.md" > "$tmp/out" 2>&1; }

run "$tmp/tap.log"
status "fixture" 0 $?
expect has "$tmp/R.md" 'yes [1] |'			# passed: no mark
expect has "$tmp/R.md" '**FAILED**'
expect has "$tmp/R.md" '**not run**'
expect has "$tmp/R.md" '**skipped**'
expect has "$tmp/R.md" 'by design: a reason'
expect has "$tmp/R.md" 'tested: t_test, "hypercall: fails..."'	# %m replaced
expect has "$tmp/R.md" '| 1.00 | 0.10 | 1.00 | 0.10 |'		# native / native, / hypercall
expect has "$tmp/R.md" 'Unmodified programs: not run'		# no programs file
expect has "$tmp/R.md" 'Not run: no latest-profile.json'
expect has "$tmp/R.md" 'hypercall KVM_HC_FIXTURE 99 |'		# comment dropped
expect has "$tmp/R.md" 'kvm_fixture'
expect has "$tmp/R.md" '| s1 | 1 | 2 | +2 -1 |'
expect has "$tmp/R.md" '3 not backed by a passing test'
expect lacks "$tmp/R.md" 'nan'

# The same bench rewritten in schema 2, as bench/report.py writes it: same table.
python3 -c "
import sys; sys.path.insert(0, '$here/../common/py')
import results
js = results.load('$tmp/results/latest.json', 'bench')
results.write('$tmp/results/latest.json', 'bench',
              {k: v for k, v in js.items() if k not in ('schema', 'kind')})"
if grep -q '"schema": 2' "$tmp/results/latest.json"; then ok=$((ok + 1)); else
	bad=$((bad + 1)); echo "report-check: FAIL: latest.json not rewritten in schema 2"; fi
run "$tmp/tap.log"
status "schema 2" 0 $?
expect has "$tmp/R.md" '| 1.00 | 0.10 | 1.00 | 0.10 |'
# A result file of a schema this reader does not know: an error, not "not run".
sed -i 's/"schema": 2/"schema": 9/' "$tmp/results/latest.json"
run "$tmp/tap.log"
status "unknown schema" 1 $?
expect has "$tmp/out" 'result schema 9'
sed -i 's/"schema": 9/"schema": 2/' "$tmp/results/latest.json"

# No test log: every tested cell says not run, none says ok.
run "$tmp/none.log"
status "no test log" 0 $?
expect has "$tmp/R.md" 'no test log'
expect lacks "$tmp/R.md" 'yes [1] |'

# A fact with neither a test nor a reason: refused, the cell says so.
sed -i 's/"test":null,"design":"a reason"/"test":null,"design":null/' "$tmp/facts"
run "$tmp/tap.log"
status "fact with no source" 1 $?
expect has "$tmp/R.md" '**no source**'
expect has "$tmp/out" 'no source for native: prop B'

# No bench at all: nothing is made up (the facts do not need one).
sed -i 's/"test":null,"design":null/"test":null,"design":"a reason"/' "$tmp/facts"
rm "$tmp/results/latest.json"
run "$tmp/tap.log"
status "no bench" 0 $?
expect has "$tmp/R.md" 'Not run: no bench/results/latest.json'
expect has "$tmp/R.md" 'nothing: the bench did not run'
expect has "$tmp/R.md" 'by design: a reason'

# No facts: the matrix says so, nothing is made up.
run "$tmp/tap.log" && mv "$tmp/facts" "$tmp/facts.off"
run "$tmp/tap.log"
status "no facts" 0 $?
expect has "$tmp/R.md" 'Not run: no facts'

# The bench's own generator (bench/report.py) on a records log (guestlog.py):
# medians per run in the run's unit, nested, with a schema version.
mkdir -p "$tmp/bench"
for run in wall icount1; do
	unit=$([ $run = wall ] && echo ns || echo insns)
	{
		printf '{"type":"run","tool":"bench","schema":1,"kernel":"x","unit":"%s"}\n' $unit
		echo '{"type":"mech","tool":"bench","name":"native","vm":false,"icount_na":null,"summary":"n"}'
		echo '{"type":"mech","tool":"bench","name":"hypercall","vm":true,"icount_na":null,"summary":"h"}'
		echo '{"type":"skip","tool":"bench","mech":"hypercall","op":null,"kind":"missing","reason":"no series"}'
		for r in 0 1 2; do
			printf '{"type":"sample","mech":"native","op":"getppid","round":%d,"%s_per_op":%d}\n' \
				$r $unit $((100 + 10 * r))
		done
	} > "$tmp/bench/$run.log"
done
echo '{"date": "fixture"}' > "$tmp/bench/meta.json"
python3 "$here/report.py" "$tmp/bench" "$tmp/bench/meta.json" wall="$tmp/bench/wall.log" \
	icount1="$tmp/bench/icount1.log" > "$tmp/out" 2>&1
status "report.py on records" 0 $?
expect has "$tmp/bench/latest.json" '"schema": 2'
expect has "$tmp/bench/latest.json" '"median_ns": 110'
expect has "$tmp/bench/latest.json" '"median_insns": 110'
expect has "$tmp/bench/latest.md" 'hypercall skipped: no series'
# A log of a record schema the reader does not know: an error, not "not run".
sed -i 's/"schema":1/"schema":7/' "$tmp/bench/wall.log"
python3 "$here/report.py" "$tmp/bench" "$tmp/bench/meta.json" wall="$tmp/bench/wall.log" \
	> "$tmp/out" 2>&1
status "report.py on an unknown record schema" 1 $?
expect has "$tmp/out" 'records of schema 7'

echo "report-check: $ok passed, $bad failed"
[ "$bad" = 0 ]
