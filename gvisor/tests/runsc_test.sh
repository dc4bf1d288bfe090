#!/bin/sh
# gVisor's runsc in the guest (gvisor/README.md): a program under each
# platform prints what it prints natively.  runsc is the one gvisor/build.sh
# built from Debian's source with gvisor/patches; the initramfs carries it
# as /gvisor/runsc, and /init moved the root to a tmpfs first (runsc's
# sandbox pivot_roots, which the initramfs' rootfs cannot).
RUNSC=/gvisor/runsc
STATE=/tmp/runsc-state
LOGS=/tmp/runsc-logs

echo "TAP version 13"
if [ ! -x $RUNSC ]; then
	echo "1..0 # SKIP no /gvisor/runsc in this initramfs"
	exit 4
fi
if grep -q '^rootfs / ' /proc/mounts; then
	echo "1..0 # SKIP / is the initramfs' rootfs: runsc cannot pivot_root from it"
	exit 4
fi
# NAME|PLATFORM|COMMAND...: each runs under runsc and natively.
set -- \
	"echo, ptrace|ptrace|/bin/busybox echo hello from the sandbox" \
	"echo, kvm|kvm|/bin/busybox echo hello from the sandbox" \
	"applets, kvm|kvm|/bin/busybox sh -c 'seq 1 20 | sort -rn | head -3; echo \$((6 * 7)); printf %s:%d\\\\n x 5'"
echo "1..$#"
mkdir -p $STATE $LOGS
i=0 failed=0
for t in "$@"; do
	i=$((i + 1))
	name=${t%%|*}
	rest=${t#*|}
	platform=${rest%%|*}
	cmd=${rest#*|}
	want=$(eval "$cmd" 2>&1)
	rm -rf $LOGS/$i && mkdir -p $LOGS/$i
	# --network=host: the host's stack, as in the posting's UDP_RR runs.
	got=$(eval "timeout -s KILL 300 $RUNSC --root=$STATE --ignore-cgroups \
		--platform=$platform --network=host --debug --debug-log=$LOGS/$i/ \
		do $cmd" 2>$LOGS/$i/stderr)
	rc=$?
	if [ $rc = 0 ] && [ "$got" = "$want" ]; then
		echo "ok $i $name: output identical to native"
		continue
	fi
	failed=$((failed + 1))
	echo "not ok $i $name: exit $rc"
	echo "$want" | sed 's/^/# native: /'
	echo "$got" | sed 's/^/# runsc:  /'
	tail -5 $LOGS/$i/stderr | sed 's/^/# stderr: /'
	# The Sentry's last words: a panic or the fault that stopped it.
	for f in $LOGS/$i/*boot*; do
		[ -f "$f" ] && grep -E 'panic|fault|Unhandled|error|signal' "$f" | tail -15 |
			sed 's/^/# boot: /'
	done
done
[ $failed = 0 ]
