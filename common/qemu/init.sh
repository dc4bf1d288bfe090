#!/bin/busybox sh
# /init of the test initramfs.  Runs every program in /tests in name order
# and reports TAP on /dev/ttyS1, leaving ttyS0 to the kernel log, so the
# host can read results and kernel splats separately.
#
# Kernel command line: kvmhc.mode=test (default), bench, profile, programs,
# scaling or runsc, kvmhc.args="..." passed to /bench/run, /bench/profile,
# /bench/programs, /bench/scaling or /bench/runsc,
# kvmhc.env.NAME=VALUE exported to every program (FUZZ_SEED=...),
# kvmhc.only=a,b runs only those tests.
/bin/busybox --install -s /bin
export PATH=/bin
# runsc (gvisor/) pivot_roots its sandbox, which the initramfs' rootfs
# cannot do: a test boot whose initramfs carries runsc first moves its
# files to a tmpfs and starts again from there (switch_root frees the
# rootfs copy).  So does a runsc bench boot; the other bench boots stay on
# the rootfs, as before.
if [ "$$" = 1 ] && [ "$1" != moved ] && [ -x /gvisor/runsc ]; then
	mount -t proc proc /proc
	m=test
	for w in $(cat /proc/cmdline); do
		case "$w" in kvmhc.mode=*) m=${w#kvmhc.mode=} ;; esac
	done
	case "$m" in
	test|runsc)
		mkdir -p /newroot
		mount -t tmpfs -o mode=755 root /newroot
		for d in bin tests bench gvisor init; do
			[ -e /$d ] && cp -a /$d /newroot/
		done
		mkdir -p /newroot/dev /newroot/proc /newroot/sys /newroot/tmp
		chmod 1777 /newroot/tmp
		umount /proc
		exec switch_root /newroot /init moved ;;
	esac
	umount /proc
fi
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
ln -s /proc/self/fd /dev/fd

mode=test
args=
only=
for w in $(cat /proc/cmdline); do
	case "$w" in
	kvmhc.mode=*) mode=${w#kvmhc.mode=} ;;
	kvmhc.args=*) args=$(echo "${w#kvmhc.args=}" | tr ',' ' ') ;;
	kvmhc.env.*=*) export "${w#kvmhc.env.}" ;;
	kvmhc.only=*) only=$(echo "${w#kvmhc.only=}" | tr ',' ' ') ;;
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

# The last result of every test run: kmemleak finds nothing unreferenced
# once every test has ended (the kernel's auto scan is off, see
# common/kernel/debug.config; objects younger than 5 s are not judged).
kmemleak_check() {
	f=/sys/kernel/debug/kmemleak
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	if [ ! -w $f ]; then
		echo "not ok $1 kmemleak # $f missing (CONFIG_DEBUG_KMEMLEAK)" >&3
		return
	fi
	sleep 6
	echo scan > $f
	echo scan > $f
	leaks=$(grep -c '^unreferenced object' $f)
	if [ "$leaks" = 0 ]; then
		echo "ok $1 kmemleak: no unreferenced object after the run" >&3
	else
		sed 's/^/    # /' $f | head -300 >&3
		echo "not ok $1 kmemleak: $leaks unreferenced objects" >&3
	fi
}

run_tests() {
	cd /tests
	list=$(ls | grep -v '^skips$')
	[ -n "$only" ] && list=$(for t in $list; do
		case " $only " in *" $t "*) echo $t ;; esac; done)
	n=$(echo "$list" | wc -w)
	echo "TAP version 13" >&3
	echo "1..$((n + 1))" >&3
	i=0
	for t in $list; do
		i=$((i + 1))
		if reason=$(skip_reason "$t"); then
			echo "ok $i $t # SKIP $reason" >&3
			continue
		fi
		echo "# running $t" >&3
		{ cd /tmp; timeout -s KILL ${TEST_TIMEOUT:-600} /tests/$t 2>&1; echo $? > /tmp/rc; } |
			sed 's/^/    /' >&3
		rc=$(cat /tmp/rc)
		case $rc in
		0) echo "ok $i $t" >&3 ;;
		4) echo "ok $i $t # SKIP (exit 4)" >&3 ;;
		*) echo "not ok $i $t # exit=$rc" >&3 ;;
		esac
	done
	kmemleak_check $((i + 1))
}

case "$mode" in
bench|profile|programs|scaling|runsc)
	prog=$mode
	[ "$mode" = bench ] && prog=run
	/bench/$prog $args >&3 2>&1
	# The host judges a bench boot by this as well as by the kernel log.
	echo "# kvm-hc: $mode exit=$?" >&3 ;;
shell) setsid sh -c 'exec sh </dev/ttyS0 >/dev/ttyS0 2>&1' ;;
*) run_tests ;;
esac
echo "# kvm-hc: end of run" >&3
# ttyS1 sends what is queued at its baud rate (9600): reboot -f would drop
# the last of it (a bench's records come at its end).  Wait until the
# port's transmit count stops moving.
tx_count() { sed -n 's/^1: .* tx:\([0-9]*\).*/\1/p' /proc/tty/driver/serial; }
last=-1 now=$(tx_count)
while [ -n "$now" ] && [ "$now" != "$last" ]; do
	last=$now
	sleep 1
	now=$(tx_count)
done
sync
reboot -f	# with -no-reboot QEMU exits; poweroff needs ACPI sleep
