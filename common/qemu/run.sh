#!/bin/bash
# Boot the test kernel in QEMU and judge the run.
#   run.sh BZIMAGE INITRAMFS OUTDIR [MODE] [ARGS]
# MODE: test (default) or bench.  Environment:
#   ACCEL=tcg|kvm   tcg (default): -cpu max, AMD SVM emulated, nested KVM works;
#                   kvm: real VT-x/AMD-V host, -cpu host.
#   ICOUNT=1        deterministic guest time: -icount shift=0,sleep=off
#   TIMEOUT=secs    hard limit for the whole boot (default 1500)
#   SMP, MEM        guest CPUs (2) and memory (1G)
#   KVMHC_ENV="A=1 B=2"  exported to the guest's programs (kvmhc.env.*)
#   ONLY="t1 t2"    run only these tests
#   KERNEL_ARGS="a=1"  more kernel parameters (kvm_amd.bench_vmmcall_skip=1)
# The TAP stream (ttyS1) is saved as OUTDIR/tap.log and shown live (less
# the raw samples of a bench boot: VERBOSE=1 for those), the
# kernel log (ttyS0) as OUTDIR/console.log.  The verdict comes from
# tap_summary.py, which also fails the run on kernel splats or a missing
# end marker (guest crash or hang).
set -uo pipefail
bz=$1 initrd=$2 outdir=$3 mode=${4:-test} args=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
ACCEL=${ACCEL:-tcg}
TIMEOUT=${TIMEOUT:-1500}
mkdir -p "$outdir"
tap=$outdir/tap.log console=$outdir/console.log
: > "$tap"
: > "$console"

case "$ACCEL" in
kvm) accel=(-accel kvm -cpu host) ;;
tcg) accel=(-accel tcg -cpu max) ;;
*) echo "run.sh: ACCEL must be tcg or kvm" >&2; exit 2 ;;
esac
[ "${ICOUNT:-0}" = 1 ] && accel+=(-icount shift=0,sleep=off)

cmdline="console=ttyS0 panic=-1 oops=panic panic_on_warn=0 loglevel=7 kvmhc.mode=$mode"
[ -n "$args" ] && cmdline+=" kvmhc.args=$args"
for kv in ${KVMHC_ENV:-}; do cmdline+=" kvmhc.env.$kv"; done
[ -n "${ONLY:-}" ] && cmdline+=" kvmhc.only=$(echo $ONLY | tr ' ' ',')"
[ -n "${KERNEL_ARGS:-}" ] && cmdline+=" $KERNEL_ARGS"

echo "qemu: ${accel[*]} -smp ${SMP:-2} -m ${MEM:-1G} ($mode, timeout ${TIMEOUT}s)"
timeout -s KILL "$TIMEOUT" qemu-system-x86_64 "${accel[@]}" \
	-smp "${SMP:-2}" -m "${MEM:-1G}" -kernel "$bz" -initrd "$initrd" \
	-append "$cmdline" -display none -monitor none -no-reboot \
	-serial "file:$console" -serial "file:$tap" &
qpid=$!
# A test boot's TAP is shown as it comes; a bench, profile or programs boot
# shows only its comments and verdicts, not its raw samples (they are in
# tap.log, and the report made from them is printed after).  VERBOSE=1
# shows everything.
if [ "$mode" = test ] || [ "${VERBOSE:-0}" = 1 ]; then
	tail -n +1 -f --pid=$qpid "$tap" &
else
	tail -n +1 -f --pid=$qpid "$tap" | grep --line-buffered -E '^(#|ok |not ok |Bail out)' &
fi
tpid=$!
wait $qpid
qrc=$?
wait $tpid 2>/dev/null
echo "qemu: exit status $qrc"
# A bench, profile or programs boot is judged as a test boot is: its
# program's exit status, the end marker and the kernel log.
[ "$mode" = test ] || exec python3 "$here/tap_summary.py" --boot "$mode" "$tap" "$console"
python3 "$here/tap_summary.py" "$tap" "$console" ${EXPECTED_SKIPS:+"$EXPECTED_SKIPS"}
