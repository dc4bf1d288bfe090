#!/bin/busybox sh
# /init of the test initramfs.  Runs every program in /tests in name order
# and reports TAP on /dev/ttyS1, leaving ttyS0 to the kernel log, so the
# host can read results and kernel splats separately.
#
# Kernel command line: kvmhc.mode=test (default), bench or profile,
# kvmhc.args="..." passed to /bench/run or /bench/profile.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
ln -s /proc/self/fd /dev/fd

mode=test
args=
for w in $(cat /proc/cmdline); do
	case "$w" in
	kvmhc.mode=*) mode=${w#kvmhc.mode=} ;;
	kvmhc.args=*) args=$(echo "${w#kvmhc.args=}" | tr ',' ' ') ;;
	esac
done

exec 3>/dev/ttyS1

# /tests/skips: "name|condition|reason": skip name when the shell
# condition holds on this machine (platform limits, checked at run time).
skip_reason() {
	[ -f /tests/skips ] || return 1
	while IFS='|' read -r name cond reason; do
		[ "$name" = "$1" ] || continue
		sh -c "$cond" >/dev/null 2>&1 && { echo "$reason"; return 0; }
	done < /tests/skips
	return 1
}

run_tests() {
	cd /tests
	list=$(ls | grep -v '^skips$')
	n=$(echo "$list" | wc -w)
	echo "TAP version 13" >&3
	echo "1..$n" >&3
	i=0
	for t in $list; do
		i=$((i + 1))
		if reason=$(skip_reason "$t"); then
			echo "ok $i $t # SKIP $reason" >&3
			continue
		fi
		echo "# running $t" >&3
		{ cd /tmp; timeout -s KILL 600 /tests/$t 2>&1; echo $? > /tmp/rc; } |
			sed 's/^/    /' >&3
		rc=$(cat /tmp/rc)
		case $rc in
		0) echo "ok $i $t" >&3 ;;
		4) echo "ok $i $t # SKIP (exit 4)" >&3 ;;
		*) echo "not ok $i $t # exit=$rc" >&3 ;;
		esac
	done
}

case "$mode" in
bench) /bench/run $args >&3 2>&1 ;;
profile) /bench/profile $args >&3 2>&1 ;;
shell) setsid sh -c 'exec sh </dev/ttyS0 >/dev/ttyS0 2>&1' ;;
*) run_tests ;;
esac
echo "# kvm-hc: end of run" >&3
sync
reboot -f	# with -no-reboot QEMU exits; poweroff needs ACPI sleep
