#!/bin/sh
# /bench/runsc, the guest side of gvisor/run-bench.sh: the posting's UDP_RR
# experiment and a loop of send()s, natively and under runsc --network=host
# on each platform and host system call mode, as records (common/py/
# guestlog.py) that gvisor/runsc_report.py reads.
#   runsc [-n N] [-s SAMPLES] [-m MODE+MODE...] [-d]
# MODE: native, ptrace, hlt, exit, ptregs, regs (kvm with that
# --kvm-host-syscall).  -d: an -icount boot, the unit is instructions.
RUNSC=/gvisor/runsc
UDP_RR=/gvisor/udp_rr
STATE=/tmp/runsc-state
LOGS=/tmp/runsc-logs
PORT=7007
n=2000 samples=3 modes=native+ptrace+hlt+exit+ptregs+regs unit=ns
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift ;;
	-s) samples=$2; shift ;;
	-m) modes=$2; shift ;;
	-d) unit=insns ;;
	*) echo "runsc bench: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
json_str() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr -d '\n'; }
note() { printf '{"type":"note","tool":"runsc","text":"%s"}\n' "$(json_str "$*")"; }
skip() {	# MODE KIND REASON
	printf '{"type":"skip","tool":"runsc","mech":"%s","kind":"%s","reason":"%s"}\n' \
		"$1" "$2" "$(json_str "$3")"
}

version=$($RUNSC --version 2>/dev/null | head -1)
printf '{"type":"run","tool":"runsc","schema":1,"kernel":"%s","unit":"%s","runsc":"%s","n":%d,"samples":%d}\n' \
	"$(uname -r)" $unit "$(json_str "$version")" "$n" "$samples"
if [ ! -x $RUNSC ] || [ ! -x $UDP_RR ]; then
	note "no $RUNSC or $UDP_RR in this initramfs"
	exit 1
fi
if grep -q '^rootfs / ' /proc/mounts; then
	note "/ is the initramfs' rootfs: runsc cannot pivot_root from it"
	exit 1
fi
# The echo server runs natively; with --network=host the sandbox reaches
# it over the guest's loopback, as netperf's netserver in the posting.
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
$UDP_RR echo $PORT &
echo_pid=$!
sleep 1
# runsc run of a bundle whose root is / and whose network namespace is the
# guest's own: `runsc do` would make a namespace and a veth pair of its
# own, where 127.0.0.1 is not the echo server's loopback.
bundle=/tmp/runsc-bundle
mkdir -p $STATE $LOGS $bundle
# spec_for PROGRAM ARGS...: the bundle's config.json runs that.
spec_for() {
	rm -f $bundle/config.json
	(cd $bundle && $RUNSC spec --netns /proc/1/ns/net -- "$@") &&
		sed -i 's|"path": "rootfs"|"path": "/"|' $bundle/config.json
}
failed=0
for mode in $(echo $modes | tr '+' ' '); do
	case $mode in
	native)	;;
	ptrace)	flags="--platform=ptrace" ;;
	hlt|exit|ptregs|regs) flags="--platform=kvm --kvm-host-syscall=$mode" ;;
	*)	skip $mode missing "no such mode"; continue ;;
	esac
	printf '{"type":"mech","tool":"runsc","name":"%s"}\n' $mode
	for op in rr send; do
		args="$op $PORT $n $samples"
		[ $op = send ] && args="send $n $samples"
		cmd="$UDP_RR $args"
		if [ $mode != native ]; then
			spec_for $UDP_RR $args || { skip $mode failed "runsc spec failed"; continue; }
			cmd="$RUNSC --root=$STATE --ignore-cgroups --network=host $flags run --bundle $bundle bench-$mode-$op"
		fi
		out=$(timeout -s KILL 600 $cmd 2>$LOGS/$mode-$op.err)
		rc=$?
		got=$(echo "$out" | grep -c "^sample $op ")
		if [ $rc != 0 ] || [ "$got" != "$samples" ]; then
			failed=$((failed + 1))
			skip $mode failed "$op: exit $rc, $got of $samples samples: $(tail -2 $LOGS/$mode-$op.err)"
			continue
		fi
		echo "$out" | while read -r _ o nn t; do
			printf '{"type":"runsc","mode":"%s","op":"%s","n":%d,"t":%d}\n' $mode $o $nn $t
		done
	done
done
kill $echo_pid
[ $failed = 0 ]
