#!/bin/bash
# Boot the test kernel on Bochs' emulated Intel CPU, with VMX, and judge the
# run exactly as common/qemu/run.sh does: TAP on the second serial port,
# the kernel log on the first, tap_summary.py's verdict and closing line.
#   run.sh BZIMAGE INITRAMFS OUTDIR [MODE] [ARGS]
# Environment (as common/qemu/run.sh): TIMEOUT (whole boot, default 1500 s),
# SMP (2), MEM (1024 MB), KVMHC_ENV, ONLY, EXPECTED_SKIPS, TEST_IDS_FACTS;
# IPS: emulated instructions per second of guest time (1e8; the bench: 1e9).
set -uo pipefail
bz=$1 initrd=$2 outdir=$3 mode=${4:-test} args=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
TIMEOUT=${TIMEOUT:-1500}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
tap=$outdir/tap.log console=$outdir/console.log
: > "$tap"
: > "$console"

fail() {
	echo "test-vmx: $*"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
}

command -v bochs >/dev/null ||
	fail "no bochs here (Debian's package bochs: make deps installs it)"

# The bochsrc, with what this run needs; then a check, before any boot,
# that this Bochs has VMX: a build without it rejects the cpuid vmx= option
# while reading the configuration, and its debugger's "q" then quits.
cmdline="console=ttyS0 panic=-1 oops=panic panic_on_warn=0 loglevel=7 reboot=t kvmhc.mode=$mode"
[ -n "$args" ] && cmdline+=" kvmhc.args=$args"
for kv in ${KVMHC_ENV:-}; do cmdline+=" kvmhc.env.$kv"; done
[ -n "${ONLY:-}" ] && cmdline+=" kvmhc.only=$(echo $ONLY | tr ' ' ',')"
image=$outdir/disk.img
rc=$outdir/bochsrc
cyl=$("$here/mkimage.sh" "$bz" "$initrd" "$cmdline" "$image") ||
	fail "could not make the boot image (mkfs.fat, syslinux, mcopy)"
sed -e "s|@MEM@|${MEM:-1024}|" -e "s|@SMP@|${SMP:-2}|" -e "s|@IMAGE@|$image|" \
	-e "s|@IPS@|${IPS:-100000000}|" \
	-e "s|@CYL@|$cyl|" -e "s|@OUT@|$outdir|g" "$here/bochsrc.in" > "$rc"
echo q > "$outdir/quit.rc"
echo c > "$outdir/go.rc"
if ! (cd "$outdir" && timeout 60 bochs -q -f "$rc" -rc quit.rc) > "$outdir/check.out" 2>&1; then
	grep -h 'PANIC\|exiting with' "$outdir/check.out" "$outdir/bochs.log" 2>/dev/null | head -5
	fail "this Bochs cannot emulate the CPU the run needs (VMX: Debian's bochs 2.7 can)"
fi
: > "$tap"
: > "$console"

echo "bochs: Intel CPU with VMX, $((${SMP:-2})) CPUs, ${MEM:-1024} MB ($mode, timeout ${TIMEOUT}s)"
# Debian's Bochs is built with its debugger: "c" in the rc file runs on.
(cd "$outdir" && exec timeout -s KILL "$TIMEOUT" bochs -q -f "$rc" -rc go.rc) \
	> "$outdir/bochs.out" 2>&1 < /dev/null &
bpid=$!
tail -n +1 -f --pid=$bpid "$tap" &
tpid=$!
wait $bpid
brc=$?
wait $tpid 2>/dev/null
rm -f "$image.lock"
# reboot=t: the guest ends the run with a triple fault, which ends Bochs
# (panic: action=fatal), so its exit status says nothing; the log does.
echo "bochs: exit status $brc"
if ! grep -q '^# kvm-hc: end of run' "$tap"; then
	echo "test-vmx: the run did not reach its end; Bochs' last words:"
	grep -v 'lt_dlhandle\|loaded plugin\|^ALSA' "$outdir/bochs.out" | tail -8 | sed 's/^/  /'
	tail -5 "$outdir/bochs.log" 2>/dev/null | sed 's/^/  /'
	echo "test-vmx: the kernel's last words:"
	tail -8 "$console" | sed 's/^/  /'
fi
rm -f "$image"
[ "$mode" = test ] || exec python3 "$here/../qemu/tap_summary.py" --boot "$mode" "$tap" "$console"
python3 "$here/../qemu/tap_summary.py" "$tap" "$console" ${EXPECTED_SKIPS:+"$EXPECTED_SKIPS"}
