#!/bin/bash
# make bench-vmx: the bench's VMX column.  Boots the bench kernel on Bochs'
# Intel CPU (common/bochs/) in bench mode, deterministic (-d: one CPU,
# IPS=1e9, so a nanosecond of guest time is one instruction, as under
# QEMU's -icount shift=0), for the VM mechanisms and native, then remakes
# the bench report from the last make bench's logs plus this one.
#   vmx.sh BZIMAGE INITRAMFS RUNDIR
# Environment: VMX_MECHS (default below), VMX_ROUNDS (3), VMX_ITERS (100),
# VMX_LOG (no boot: remake the report with this earlier VMX boot's log, for
# a bench run whose code on the VMX path did not change; the report's VMX
# section then comes from that log, and the README must say which).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
bz=$1 initrd=$2 runs=$3
mechs=${VMX_MECHS:-native+hypercall+hypercall-regs+exit-pio+exit-hypercall+bpf+bpf-regs}
args="-r,${VMX_ROUNDS:-3},-i,${VMX_ITERS:-100},-m,$mechs,-d"
vmx_log=${VMX_LOG:-$runs/bench-vmx/tap.log}
if [ -z "${VMX_LOG:-}" ]; then
	echo "bench: VMX (Bochs), ${VMX_ROUNDS:-3} rounds x ${VMX_ITERS:-100} iterations: $mechs"
	IPS=1000000000 SMP=1 TIMEOUT=${TIMEOUT:-3000} \
		"$top/common/bochs/run.sh" "$bz" "$initrd" "$runs/bench-vmx" bench "$args"
else
	echo "bench: VMX column from $vmx_log (no boot)"
fi
logs=()
for r in wall wall2 wall3 wall4 wall5 icount1 icount2 icount3 nonrip; do
	[ -s "$runs/bench-$r/tap.log" ] && logs+=("$r=$runs/bench-$r/tap.log")
done
[ -s "$runs/meta.json" ] || echo '{"date": "unknown: no make bench before"}' > "$runs/meta.json"
python3 "$here/report.py" "$here/results" "$runs/meta.json" "${logs[@]}" \
	"vmx=$vmx_log" > /dev/null
# report.py wrote latest.md anew: the programs', the profile's, the
# scaling's and the model's parts again, in make bench's order.
[ -f "$here/results/latest-programs.md" ] &&
	{ echo; sed 's/^#/##/' "$here/results/latest-programs.md"; } >> "$here/results/latest.md"
[ -f "$here/results/latest-profile.md" ] &&
	{ echo; sed 's/^#/##/' "$here/results/latest-profile.md"; } >> "$here/results/latest.md"
[ -f "$here/results/latest-scaling.md" ] &&
	{ echo; sed 's/^#/##/' "$here/results/latest-scaling.md"; } >> "$here/results/latest.md"
"$here/model/run.sh" "$here/results" > /dev/null
sed -n '/^## Intel VMX/,/^## Headline/p' "$here/results/latest.md" | sed '$d'
echo "bench: report in bench/results/latest.md (VMX section), latest.json (runs.vmx)"
