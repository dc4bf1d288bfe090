#!/bin/bash
# make profile (and the end of make bench), host side: where the cost goes.
# Boots the bench kernel three times in profile mode: once as the wall-clock
# bench boots (two vCPUs, so that a mechanism's threads run side by side) for
# the event counts, once on one vCPU for udp-rr's counts, once with -icount
# shift=0 on one vCPU for the kernel path,
# then writes bench/results/latest-profile.{md,json,csv,dat,svg}.
#   profile.sh BZIMAGE INITRAMFS RUNDIR
# Environment: PROFILE_ITERS (100), ACCEL (tcg|kvm; kvm: counts only),
# MECHS (only these mechanisms, by name, joined by '+'; default all),
# PROFILE_APPEND=1 (make bench): append the report to bench/results/latest.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
bz=$1 initrd=$2 runs=$3
out=$here/results
iters=${PROFILE_ITERS:-100}
sel=${MECHS:+,-m,$MECHS}
mkdir -p "$out" "$runs"

logs=()
echo "profile: event counts ($iters iterations per job, two vCPUs)"
"$top/common/qemu/run.sh" "$bz" "$initrd" "$runs/profile-counts" profile "-c,-i,$iters$sel"
logs+=("counts=$runs/profile-counts/tap.log")
# udp-rr again on one vCPU, as the -icount boots run it: there the client's
# recvfrom has to sleep while the server runs (on two it may find the reply).
echo "profile: udp-rr event counts on one vCPU"
SMP=1 "$top/common/qemu/run.sh" "$bz" "$initrd" "$runs/profile-counts-1cpu" profile \
	"-c,-u,-i,$iters$sel"
logs+=("counts1=$runs/profile-counts-1cpu/tap.log")
if [ "${ACCEL:-tcg}" = tcg ]; then
	echo "profile: kernel path (-icount shift=0, one vCPU)"
	ICOUNT=1 SMP=1 "$top/common/qemu/run.sh" "$bz" "$initrd" \
		"$runs/profile-path" profile "-p,-i,$iters$sel"
	logs+=("path=$runs/profile-path/tap.log")
fi
python3 "$here/profile_report.py" "$out" "${logs[@]}"
if command -v gnuplot >/dev/null && [ -s "$out/latest-profile-getppid.dat" ]; then
	gnuplot -e "dir='$out'; ng=$(cat "$out/latest-profile-getppid.ncols"); nm=$(cat "$out/latest-profile-mixed.ncols")" \
		"$here/plot-profile.gp" &&
		echo "profile: plot in ${out#$top/}/latest-profile.svg"
fi
# make bench: the bench report gets this as its last section.
if [ "${PROFILE_APPEND:-0}" = 1 ] && [ -f "$out/latest.md" ]; then
	{ echo; sed 's/^#/##/' "$out/latest-profile.md"; } >> "$out/latest.md"
fi
echo "profile: report in ${out#$top/}/latest-profile.md"
