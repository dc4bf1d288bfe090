#!/bin/sh
# gVisor's runsc in the guest (gvisor/README.md): a program under each
# platform and each way the KVM platform's Sentry makes its host system
# calls (--kvm-host-syscall) prints what it prints natively, and the
# hypercalls KVM saw say which way the calls went.  runsc is the one
# gvisor/build.sh built from Debian's source with gvisor/patches; the
# initramfs carries it as /gvisor/runsc, and /init moved the root to a
# tmpfs first (runsc's sandbox pivot_roots, which the initramfs' rootfs
# cannot).
RUNSC=/gvisor/runsc
HIDE=/gvisor/hide_host_syscall
AUDITED=/gvisor/audited
SOCKIO=/gvisor/sockio
STATE=/tmp/runsc-state
LOGS=/tmp/runsc-logs

echo "TAP version 13"
if [ ! -x $RUNSC ] || [ ! -x $HIDE ] || [ ! -x $AUDITED ] || [ ! -x $SOCKIO ] ||
   [ ! -f /gvisor/kvm_trace.sh ] || [ ! -f /gvisor/runsc_bundle.sh ]; then
	echo "1..0 # SKIP no /gvisor/runsc, $HIDE, $AUDITED, $SOCKIO, kvm_trace.sh or runsc_bundle.sh in this initramfs"
	exit 4
fi
if grep -q '^rootfs / ' /proc/mounts; then
	echo "1..0 # SKIP / is the initramfs' rootfs: runsc cannot pivot_root from it"
	exit 4
fi
# KVM's own account of each run (gvisor/tests/kvm_trace.sh), and the
# bundle of a "run:" case (gvisor/tests/runsc_bundle.sh).
. /gvisor/kvm_trace.sh
. /gvisor/runsc_bundle.sh
if ! kvm_trace_setup 4096; then
	echo "1..0 # SKIP no kvm:kvm_hypercall tracepoint (CONFIG_TRACING)"
	exit 4
fi

applets="/bin/busybox sh -c 'seq 1 20 | sort -rn | head -3; echo \$((6 * 7)); printf %s:%d\\\\n x 5; cat /proc/self/status | head -1; ls /gvisor'"
# NAME|PLATFORM|HOST SYSCALL MODE|EXPECT|COMMAND...: each runs under runsc
# and natively.  EXPECT, checked against the trace: none (no host
# syscall hypercall), regs (form 14 only), ptregs (form 13 only), exit
# (form 13, each a KVM_EXIT_HYPERCALL to runsc), hidden (runsc under
# hide_host_syscall: none, and the Sentry says it falls back), refused
# (runsc audited: KVM refuses each call, the Sentry makes it by HLT and
# stops asking for that number), sockio (the register form, and the
# program's socket reads and writes among its calls as recvmsg and
# sendmsg: gvisor/patches 0006).  A COMMAND "run:PROGRAM" runs as a bundle
# in the guest's own network namespace (runsc do would give the sandbox a
# namespace of its own, whose loopback is down, when there is no default
# route).
set -- \
	"echo, ptrace|ptrace|auto|none|/bin/busybox echo hello from the sandbox" \
	"applets, kvm, HLT exits|kvm|hlt|none|$applets" \
	"applets, kvm, KVM_HC_HOST_SYSCALL_REGS|kvm|regs|regs|$applets" \
	"applets, kvm, KVM_HC_HOST_SYSCALL (pt_regs)|kvm|ptregs|ptregs|$applets" \
	"applets, kvm, KVM_HC_HOST_SYSCALL exits to runsc|kvm|exit|exit|$applets" \
	"echo, kvm, the default (auto) takes the register form|kvm|auto|regs|/bin/busybox echo hello from the sandbox" \
	"applets, kvm, regs asked, the kernel hides the capability: HLT exits|kvm|regs|hidden|$applets" \
	"applets, kvm, regs, every call refused (audited Sentry): HLT exits|kvm|regs|refused|$applets" \
	"socket read/write/readv/writev, kvm, regs, --network=host|kvm|regs|sockio|run:$SOCKIO"
echo "1..$#"
mkdir -p $STATE $LOGS
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
bundle=/tmp/runsc-test-bundle
i=0 failed=0
for t in "$@"; do
	i=$((i + 1))
	IFS='|' read -r name platform mode expect cmd <<-EOT
	$t
	EOT
	how="do $cmd"
	case $cmd in
	run:*)	cmd=${cmd#run:}
		runsc_bundle $bundle $cmd
		how="run --bundle $bundle test-$i" ;;
	esac
	want=$(eval "$cmd" 2>&1)
	wrap=
	[ $expect = hidden ] && wrap=$HIDE
	[ $expect = refused ] && wrap=$AUDITED
	# --network=host: the host's stack, as in the posting's UDP_RR runs.
	# One more try only after the one failure this emulator is known for
	# (gvisor/README.md, "Triple faults"), said in a diagnostic line.
	for try in 1 2; do
		# A container's id is used once: a bundle's run is named per try.
		id=
		[ "${how#run}" != "$how" ] && id=-$try
		rm -rf $LOGS/$i && mkdir -p $LOGS/$i
		kvm_trace_start
		got=$(eval "timeout -s KILL 300 $wrap $RUNSC --root=$STATE --ignore-cgroups \
			--platform=$platform --kvm-host-syscall=$mode --network=host \
			--debug --debug-log=$LOGS/$i/ $how$id" 2>$LOGS/$i/stderr)
		rc=$?
		kvm_trace_stop
		[ $rc != 0 ] && [ $try = 1 ] &&
			grep -qs '^fatal error: shutdown' $LOGS/$i/*boot* || break
		echo "# $name: the Sentry's vCPU triple-faulted (KVM_EXIT_SHUTDOWN); trying again"
	done
	why=
	[ $rc = 0 ] || why="exit $rc"
	[ -z "$why" ] && [ "$got" != "$want" ] && why="output differs from native"
	if [ -z "$why" ]; then
		case $expect in
		none)	[ $hc13 = 0 ] && [ $hc14 = 0 ] ||
				why="host syscall hypercalls where none was asked for" ;;
		regs)	[ $hc14 -gt 0 ] && [ $hc13 = 0 ] ||
				why="not the register form only" ;;
		ptregs)	[ $hc13 -gt 0 ] && [ $hc14 = 0 ] && [ $hcexit = 0 ] ||
				why="not the pt_regs form only, in KVM" ;;
		exit)	[ $hc13 -gt 0 ] && [ $hc14 = 0 ] && [ $hcexit -gt 0 ] ||
				why="no KVM_EXIT_HYPERCALL to runsc" ;;
		hidden)	[ $hc13 = 0 ] && [ $hc14 = 0 ] ||
				why="hypercalls although the kernel did not offer them"
			[ -z "$why" ] && ! grep -qs 'offers forms 0x0, not regs' $LOGS/$i/*boot* &&
				why="the Sentry did not say it falls back" ;;
		sockio)	recvmsg=$(kvm_trace_nr 14 47) sendmsg=$(kvm_trace_nr 14 46)
			[ $hc14 -gt 0 ] && [ $hc13 = 0 ] && [ $recvmsg -gt 0 ] && [ $sendmsg -gt 0 ] ||
				why="not the register form only, or no recvmsg ($recvmsg) and sendmsg ($sendmsg) in it" ;;
		refused) # A refused number is not asked again on that vCPU, and
			# the Sentry has at most 3 vCPUs per CPU (getMaxVCPU).
			[ $hc14 -gt 0 ] && [ $hc13 = 0 ] && [ $rep -le $((3 * $(nproc))) ] ||
				why="no refused hypercall, or a refused number asked again ($rep times)" ;;
		esac
	fi
	detail="KVM saw $hc14 register-form (one number at most $rep times) and $hc13 pt_regs-form hypercalls, $hlt HLT and $hcexit hypercall exits"
	if [ -z "$why" ]; then
		echo "ok $i $name: output identical to native"
		echo "# $detail"
		continue
	fi
	failed=$((failed + 1))
	echo "not ok $i $name: $why"
	echo "# $detail"
	echo "$want" | sed 's/^/# native: /'
	echo "$got" | sed 's/^/# runsc:  /'
	tail -5 $LOGS/$i/stderr | sed 's/^/# stderr: /'
	# The Sentry's last words: a panic or the fault that stopped it.
	for f in $LOGS/$i/*boot*; do
		[ -f "$f" ] && grep -E 'panic|fault|Unhandled|error|signal|HOST_SYSCALL' "$f" | tail -15 |
			sed 's/^/# boot: /'
	done
done
kvm_trace_teardown
[ $failed = 0 ]
