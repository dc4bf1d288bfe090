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
mkdir -p "$tmp/results" "$tmp/top/s1/patches"
cat > "$tmp/results/latest.json" <<'EOF'
{"meta": {"date": "fixture"},
 "summary": {"wall": {"native/getppid": {"median_ns": 100}, "hypercall/getppid": {"median_ns": 1000},
                      "native/mixed": {"median_ns": 200}, "hypercall/mixed": {"median_ns": 2000}}},
 "above_floor_ns": {},
 "props": ["prop A", "prop B", "prop C"],
 "mechanisms": [
  {"name": "native", "vm": false, "icount_na": "", "summary": "",
   "facts": [{"answer": "yes", "test": "t_test|native: passes", "design": ""},
             {"answer": "yes", "test": "", "design": "a reason"},
             {"answer": "yes", "test": "t_test|native: is not in the log", "design": ""}]},
  {"name": "hypercall", "vm": true, "icount_na": "", "summary": "",
   "facts": [{"answer": "yes", "test": "t_test|%m: fails", "design": ""},
             {"answer": "no", "test": "", "design": "another reason"},
             {"answer": "yes", "test": "t_test|hypercall: skips", "design": ""}]}]}
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
	--top "$tmp/top" --out "$tmp/R.md" > "$tmp/out" 2>&1; }

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
expect has "$tmp/R.md" 'Not run: no latest-profile.csv'
expect has "$tmp/R.md" 'hypercall KVM_HC_FIXTURE 99 |'		# comment dropped
expect has "$tmp/R.md" 'kvm_fixture'
expect has "$tmp/R.md" '| s1 | 1 | 2 | +2 -1 |'
expect has "$tmp/R.md" '3 not backed by a passing test'
expect lacks "$tmp/R.md" 'nan'

# No test log: every tested cell says not run, none says ok.
run "$tmp/none.log"
status "no test log" 0 $?
expect has "$tmp/R.md" 'no test log'
expect lacks "$tmp/R.md" 'yes [1] |'

# A fact with neither a test nor a reason: refused, the cell says so.
sed -i 's/"test": "", "design": "a reason"/"test": "", "design": ""/' "$tmp/results/latest.json"
run "$tmp/tap.log"
status "fact with no source" 1 $?
expect has "$tmp/R.md" '**no source**'
expect has "$tmp/out" 'no source for native: prop B'

# No bench at all: nothing is made up.
rm "$tmp/results/latest.json"
run "$tmp/tap.log"
status "no bench" 0 $?
expect has "$tmp/R.md" 'Not run: no bench/results/latest.json'
expect has "$tmp/R.md" 'nothing: the bench did not run'

echo "report-check: $ok passed, $bad failed"
[ "$bad" = 0 ]
