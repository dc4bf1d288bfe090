#!/bin/bash
# make bench, host side: boot the bench kernel in bench mode WALL_RUNS times
# (default 3) with wall-clock time and ICOUNT_RUNS times (default 2) with QEMU
# -icount shift=0,sleep=off, where guest time counts guest instructions,
# once more so with kvm_amd.bench_vmmcall_skip=1 (no NRIP artefact, the VM
# mechanisms only), then write the report (bench/results/latest.*) and print it.
#   run.sh BZIMAGE INITRAMFS RUNDIR
# Then two boots run unmodified busybox applets under every mechanism
# (bench/programs.c): wall clock, PROGRAM_ROUNDS rounds, and one -icount.
# Environment: ROUNDS (15), ITERS (200), WALL_RUNS (3), ICOUNT_RUNS (2), ACCEL (tcg|kvm),
# PROGRAM_ROUNDS (3), MECHS (only these mechanisms, by name, joined by
# '+'; default all).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
bz=$1 initrd=$2 runs=$3
out=$here/results
ROUNDS=${ROUNDS:-15} ITERS=${ITERS:-200} ICOUNT_RUNS=${ICOUNT_RUNS:-2} WALL_RUNS=${WALL_RUNS:-3}
PROGRAM_ROUNDS=${PROGRAM_ROUNDS:-3}
NRIP_MECHS=native+hypercall+hypercall-regs+exit-pio+exit-hypercall+bpf+bpf-regs
args="-r,$ROUNDS,-i,$ITERS${MECHS:+,-m,$MECHS}"
mkdir -p "$out" "$runs"

logs=()
# WALL_RUNS boots (3): the tables are the first's, each wall-clock ratio
# comes with its range over all of them.
for i in $(seq 1 "$WALL_RUNS"); do
	n=wall; [ "$i" = 1 ] || n=wall$i
	echo "bench: wall-clock run $i/$WALL_RUNS ($ROUNDS rounds x $ITERS iterations per sample)"
	"$top/common/qemu/run.sh" "$bz" "$initrd" "$runs/bench-$n" bench "$args"
	logs+=("$n=$runs/bench-$n/tap.log")
done
if [ "${ACCEL:-tcg}" = tcg ]; then
	for i in $(seq 1 "$ICOUNT_RUNS"); do
		echo "bench: deterministic run $i/$ICOUNT_RUNS (-icount shift=0)"
		# One CPU: with two, which vCPU takes a timer tick first varies
		# between runs and so do a few samples.
		ICOUNT=1 SMP=1 "$top/common/qemu/run.sh" "$bz" "$initrd" \
			"$runs/bench-icount$i" bench "$args,-d"
		logs+=("icount$i=$runs/bench-icount$i/tap.log")
	done
	# The same without the NRIP artefact (bench/patches): L1 KVM skips a
	# VMMCALL by its length instead of decoding it, as NRIP save would.
	# The VM mechanisms and native only: nothing else takes a VMMCALL.
	echo "bench: deterministic run without the NRIP artefact (kvm_amd.bench_vmmcall_skip=1)"
	KERNEL_ARGS="kvm_amd.bench_vmmcall_skip=1" ICOUNT=1 SMP=1 \
		"$top/common/qemu/run.sh" "$bz" "$initrd" "$runs/bench-nonrip" bench \
		"-r,$ROUNDS,-i,$ITERS,-m,${MECHS:-$NRIP_MECHS},-d"
	logs+=("nonrip=$runs/bench-nonrip/tap.log")
fi

release=$(cat "$(dirname "$bz")/../../../include/config/kernel.release" 2>/dev/null || echo unknown)
kconfig=$(dirname "$bz")/../../../.config
# The code measured: HEAD, and whether tracked files differed from it.
commit=$("$top/common/scripts/measured-commit.sh" "$top")
python3 - "$runs/meta.json" "$release" "$kconfig" "$commit" <<'PY'
import json, platform, subprocess, sys, time
qemu = subprocess.run(['qemu-system-x86_64', '--version'], capture_output=True,
                      text=True).stdout.splitlines()[0]
cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo')
            if l.startswith('model name')), platform.processor())
import os
accel = os.environ.get('ACCEL', 'tcg')
try:
    cfg = open(sys.argv[3]).read()
except OSError:
    cfg = ''
debug = 'CONFIG_PROVE_LOCKING=y' in cfg
kernel_cfg = ('debug: lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_LIST (the test kernel)'
              if debug else 'no debug options (common/kernel/debug.config left out)')
json.dump({'date': time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
           'commit': sys.argv[4],
           'guest kernel': sys.argv[2] + ' (this repository\'s series)',
           'qemu': qemu, 'accel': accel + (' (-cpu max, nested SVM)' if accel == 'tcg' else ''),
           'kernel config': kernel_cfg,
           'host cpu': cpu, 'host cores': os.cpu_count()},
          open(sys.argv[1], 'w'), indent=1)
PY
echo
python3 "$here/report.py" "$out" "$runs/meta.json" "${logs[@]}"
"$here/plot.sh" "$out"

# Unmodified programs under every mechanism (common/sandbox).
plogs=()
pargs="-r,$PROGRAM_ROUNDS${MECHS:+,-m,$MECHS}"
echo "bench: programs, wall clock ($PROGRAM_ROUNDS rounds)"
"$top/common/qemu/run.sh" "$bz" "$initrd" "$runs/programs-wall" programs "$pargs"
plogs+=("wall=$runs/programs-wall/tap.log")
if [ "${ACCEL:-tcg}" = tcg ]; then
	echo "bench: programs, deterministic run (-icount shift=0)"
	ICOUNT=1 SMP=1 "$top/common/qemu/run.sh" "$bz" "$initrd" "$runs/programs-icount" \
		programs "-r,1${MECHS:+,-m,$MECHS},-d"
	plogs+=("icount=$runs/programs-icount/tap.log")
fi
echo
programs_ok=0
python3 "$here/programs_report.py" "$out" "${plogs[@]}" || programs_ok=$?
{ echo; sed 's/^#/##/' "$out/latest-programs.md"; } >> "$out/latest.md"
echo "bench: report in ${out#$top/}/latest.md, raw samples in latest-samples.csv"
# A program whose output differs from the applet run directly is a bug.
[ "$programs_ok" = 0 ] || { echo "bench: a program's output differed (see above)"; exit 1; }
