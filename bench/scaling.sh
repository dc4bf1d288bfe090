#!/bin/bash
# make scaling (and the end of make bench), host side: 1, 2 and 4 workers
# making calls at once per VM mechanism (bench/scaling.c), in one boot of
# the bench kernel with two vCPUs as the wall-clock boots; writes
# bench/results/latest-scaling.{md,json}.
#   scaling.sh BZIMAGE INITRAMFS RUNDIR
# Environment: SCALING_ARGS (guest arguments joined by ',', default -r,3),
# MECHS (only these mechanisms, joined by '+'), APPEND=1 (make bench):
# append the report to bench/results/latest.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
bz=$1 initrd=$2 runs=$3
out=$here/results
args=${SCALING_ARGS:--r,3}${MECHS:+,-m,$MECHS}
mkdir -p "$out" "$runs"

echo "scaling: 1, 2 and 4 workers at once ($args)"
"$top/common/qemu/run.sh" "$bz" "$initrd" "$runs/scaling" scaling "$args"
python3 "$here/scaling_report.py" "$out" "$runs/scaling/tap.log"
if [ "${APPEND:-0}" = 1 ] && [ -f "$out/latest.md" ]; then
	{ echo; sed 's/^#/##/' "$out/latest-scaling.md"; } >> "$out/latest.md"
fi
echo "scaling: report in ${out#$top/}/latest-scaling.md"
