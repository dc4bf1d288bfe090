#!/bin/bash
# The posting's experiment with the real Sentry (gvisor/README.md): boot the
# bench kernel in runsc mode RUNSC_WALL_RUNS times (default 3) with wall-clock
# time and once with QEMU -icount (guest time counts guest instructions);
# each boot runs /bench/runsc (gvisor/bench/runsc_bench.sh): UDP_RR and a
# send() loop natively, under runsc ptrace and under runsc kvm in each host
# system call mode; the first wall-clock boot also counts KVM's exits and
# hypercalls per operation.  Then gvisor/runsc_report.py writes
# bench/results/latest-runsc.md and prints it.
#   run-bench.sh BZIMAGE INITRAMFS RUNDIR
# Environment: RUNSC_N (transactions per sample, 2000), RUNSC_SAMPLES (3),
# RUNSC_WALL_RUNS (3), RUNSC_MODES (native+ptrace+hlt+exit+ptregs+regs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
bz=$1 initrd=$2 runs=$3
n=${RUNSC_N:-2000} samples=${RUNSC_SAMPLES:-3} wall=${RUNSC_WALL_RUNS:-3}
args="-n,$n,-s,$samples${RUNSC_MODES:+,-m,$RUNSC_MODES}"
mkdir -p "$runs" "$top/bench/results"
logs=() crashed=()
# boot DIR ARGS: one bench boot.  A boot the whole guest did not survive
# (run.sh's exit 3, common/qemu/tap_summary.py: no exit status, no end
# marker, no splat; QEMU's emulated machine reset, as it does when the
# nested guest's triple fault is not delivered to KVM: README.md, "Triple
# faults") is kept as DIR-crashed and made once more; the report lists it.
# A second crash, or any other failure, fails the bench.
boot() {
	local dir=$1 rc=0
	shift
	"$top/common/qemu/run.sh" "$bz" "$initrd" "$dir" runsc "$@" || rc=$?
	[ $rc = 3 ] || return $rc
	echo "runsc bench: $(basename "$dir"): the guest ended without a word; once more"
	rm -rf "$dir-crashed"
	mv "$dir" "$dir-crashed"
	crashed+=("$(basename "$dir")")
	"$top/common/qemu/run.sh" "$bz" "$initrd" "$dir" runsc "$@"
}
for i in $(seq 1 "$wall"); do
	echo "runsc bench: wall-clock run $i/$wall ($samples samples x $n per mode)"
	# The first also counts KVM's events per operation (untimed runs).
	extra=; [ "$i" = 1 ] && extra=,-c
	boot "$runs/runsc-wall$i" "$args$extra"
	logs+=("$runs/runsc-wall$i/tap.log")
done
if [ "${ACCEL:-tcg}" = tcg ]; then
	echo "runsc bench: deterministic run (-icount shift=0, one CPU)"
	ICOUNT=1 SMP=1 boot "$runs/runsc-icount" "$args,-d"
	logs+=("$runs/runsc-icount/tap.log")
fi
# The code measured: HEAD, and whether tracked files differed from it.
commit=$("$top/common/scripts/measured-commit.sh" "$top")
# runsc says VERSION_MISSING (Bazel stamps it): name its source instead.
src=$(dpkg-query -W -f '${Version}' golang-gvisor-gvisor-dev 2>/dev/null || echo unknown)
patches=$(grep -c . "$here/patches/series")
python3 "$here/runsc_report.py" --commit "$commit" ${crashed[@]/#/--crashed } \
	--runsc "runsc from Debian's golang-gvisor-gvisor-dev $src + gvisor/patches ($patches)" "${logs[@]}" \
	> "$top/bench/results/latest-runsc.md"
cat "$top/bench/results/latest-runsc.md"
