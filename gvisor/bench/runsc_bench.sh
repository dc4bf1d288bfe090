#!/bin/sh
# /bench/runsc, the guest side of gvisor/run-bench.sh: the posting's UDP_RR
# experiment, a loop of send()s and a real server (Debian's redis-server,
# gvisor/bench/runsc_redis.sh), natively and under runsc --network=host on
# each platform and host system call mode, as records (common/py/
# guestlog.py) that gvisor/runsc_report.py reads.
#   runsc [-n N] [-s SAMPLES] [-m MODE+MODE...] [-o OP+OP...] [-d] [-c]
# OP: rr, send, redis (all three by default); N: UDP_RR transactions,
# send()s, or redis SETs and as many GETs per sample.
# MODE: native, ptrace, hlt, exit, ptregs, regs (kvm with that
# --kvm-host-syscall).  -d: an -icount boot, the unit is instructions.
# -c: then count, for each kvm mode, what KVM saw per operation (its
# tracepoints: host syscall hypercalls, HLT and hypercall exits to runsc)
# from two untimed runs of different lengths, so that the sandbox's start
# and end cancel out.
RUNSC=/gvisor/runsc
UDP_RR=/gvisor/udp_rr
STATE=/tmp/runsc-state
LOGS=/tmp/runsc-logs
PORT=7007
n=2000 samples=3 modes=native+ptrace+hlt+exit+ptregs+regs ops=rr+send+redis unit=ns count=0
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift ;;
	-s) samples=$2; shift ;;
	-m) modes=$2; shift ;;
	-o) ops=$2; shift ;;
	-d) unit=insns ;;
	-c) count=1 ;;
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
. /gvisor/runsc_redis.sh
case +$ops+ in
*+redis+*)
	[ -x $REDIS/redis-server ] ||
		{ note "no $REDIS/redis-server in this initramfs: no redis rows"; ops=$(echo "$ops" | sed 's/+*redis//'); } ;;
esac
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
# runsc run of a bundle in the guest's network namespace
# (gvisor/tests/runsc_bundle.sh), so that 127.0.0.1 is the echo server's.
. /gvisor/runsc_bundle.sh
bundle=/tmp/runsc-bundle
mkdir -p $STATE $LOGS
# try_op MODE OP TRY: one try of OP under MODE (runsc flags in $flags);
# sets out (the program's "sample OP N T" lines), rc (its exit status;
# redis: 1 when the server did not start, 3 when a sample is missing, 137
# when it did not stop and was killed) and logs (the Sentry's debug log folder; logs.err, logs.out).
try_op() {
	local mode=$1 op=$2 try=$3 args
	logs=$LOGS/$mode-$op
	out='' rc=0
	rm -rf $logs
	if [ $op = redis ]; then
		logs=$LOGS/redis-$mode-$try
		if redis_start $mode "$flags" redis-$mode-$try; then
			out=$(redis_samples $n $samples redis-$mode-$try)
			[ "$(echo "$out" | grep -c '^sample')" = $((2 * samples)) ] || rc=3
		else
			rc=1
		fi
		redis_stop redis-$mode-$try || rc=137
		return
	fi
	args="$op $PORT $n $samples"
	[ $op = send ] && args="send $n $samples"
	if [ $mode = native ]; then
		out=$($UDP_RR $args 2>$logs.err)
		rc=$?
		return
	fi
	runsc_bundle $bundle $UDP_RR $args || { rc=1; return; }
	mkdir -p $logs
	# shellcheck disable=SC2086
	out=$(timeout -s KILL 600 $RUNSC --root=$STATE --ignore-cgroups --network=host $flags \
		--debug-log=$logs/ run --bundle $bundle bench-$mode-$op-$try 2>$logs.err)
	rc=$?
}

# last_words N: the last N lines the run printed on its stderr or stdout.
last_words() {
	cat $logs.err $logs.out 2>/dev/null | tail -"$1"
}

# expected OP: how many sample lines a try of OP prints.
expected() {
	case $1 in redis) echo $((2 * samples)) ;; *) echo $samples ;; esac
}

failed=0
for mode in $(echo $modes | tr '+' ' '); do
	case $mode in
	native)	flags= ;;
	ptrace)	flags="--platform=ptrace" ;;
	hlt|exit|ptregs|regs) flags="--platform=kvm --kvm-host-syscall=$mode" ;;
	*)	skip $mode missing "no such mode"; continue ;;
	esac
	printf '{"type":"mech","tool":"runsc","name":"%s"}\n' $mode
	for op in $(echo $ops | tr '+' ' '); do
		# Up to five tries: a failed one is recorded with the Sentry's
		# last words, and the samples are those of the try that ran.
		try=0 why=
		while [ $try -lt 5 ]; do
			try=$((try + 1))
			try_op $mode $op $try
			got=$(echo "$out" | grep -c "^sample $op")
			[ $rc = 0 ] && [ "$got" = "$(expected $op)" ] && break
			why=$(cat $logs/*boot* 2>/dev/null | grep -m 1 -E '^fatal error|^panic' | tr -d '\n')
			printf '{"type":"runsc-failure","mode":"%s","op":"%s","try":%d,"rc":%d,"why":"%s"}\n' \
				$mode $op $try $rc "$(json_str "${why:-$(last_words 1)}")"
			# runsc's own account, for the TAP log.
			[ -f $logs.stacks ] && sed "s|^|# stacks: |" $logs.stacks
			for f in $logs/*boot*; do
				[ -f "$f" ] && { grep -E '^[WEF]' "$f" | tail -5
					grep -m 2 -B 4 -A 14 -E '^panic|fatal error|^SIGSEGV|^SIGBUS|^unexpected' "$f"; } |
					sed "s|^|# $(basename $f): |"
			done
			out=
		done
		got=$(echo "$out" | grep -c "^sample $op")
		if [ "$got" != "$(expected $op)" ]; then
			# Triple faults in every try are this emulator's (gvisor/
			# README.md, "Triple faults"): the row says so, the boot
			# goes on.  Any other failure fails the boot.
			if [ "$why" = "fatal error: shutdown" ]; then
				skip $mode n/a "$op: the Sentry's vCPU triple-faulted (KVM_EXIT_SHUTDOWN) in all $try tries"
			else
				failed=$((failed + 1))
				skip $mode failed "$op: $try tries failed: ${why:-$(last_words 2)}"
			fi
			continue
		fi
		echo "$out" | while read -r _ o nn t; do
			printf '{"type":"runsc","mode":"%s","op":"%s","n":%d,"t":%d}\n' $mode $o $nn $t
		done
	done
done
# What KVM saw per operation: events of a run of C1 operations and of one
# of C2, so that the sandbox's start and end cancel out.  UDP_RR and send
# runs warm up with a tenth more: (e2 - e1) / (1.1 (C2 - C1)); redis GETs
# go to one server started before both runs: (e2 - e1) / (C2 - C1).
C1=200 C2=1200
if [ $count = 1 ]; then
	. /gvisor/kvm_trace.sh
	kvm_trace_setup 8192 || { note "count: no kvm:kvm_hypercall tracepoint"; count=0; }
fi
if [ $count = 1 ]; then
	for mode in $(echo $modes | tr '+' ' '); do
		case $mode in hlt|exit|ptregs|regs) ;; *) continue ;; esac
		flags="--platform=kvm --kvm-host-syscall=$mode"
		for op in $(echo $ops | tr '+' ' '); do
			line=
			if [ $op = redis ]; then
				logs=$LOGS/count-redis-$mode
				redis_start $mode "$flags" count-redis-$mode ||
					echo "redis did not start: $(last_words 1)" >> $LOGS/count.err
			fi
			for c in $C1 $C2; do
				if [ $op = redis ]; then
					kvm_trace_start
					redis_count $c || break
				else
					args="$op $PORT $c 1"
					[ $op = send ] && args="send $c 1"
					runsc_bundle $bundle $UDP_RR $args || break
					kvm_trace_start
					# shellcheck disable=SC2086
					timeout -s KILL 600 $RUNSC --root=$STATE --ignore-cgroups \
						--network=host $flags run --bundle $bundle \
						count-$mode-$op-$c > /dev/null 2>>$LOGS/count.err || break
				fi
				kvm_trace_stop
				[ "$kept" = "$written" ] ||
					note "count: $mode $op $c: the trace buffer kept $kept of $written events"
				line="$line $hc13 $hc14 $hlt $hcexit"
			done
			[ $op = redis ] && { redis_stop count-redis-$mode || line=; }
			set -- $line
			if [ $# != 8 ]; then
				skip $mode failed "count: $op: a run failed: $(tail -2 $LOGS/count.err)"
				continue
			fi
			ops_n=$(( (C2 - C1) * 11 / 10 ))
			[ $op = redis ] && ops_n=$((C2 - C1))
			printf '{"type":"runsc-count","mode":"%s","op":"%s","ops":%d,"hc13":%d,"hc14":%d,"hlt":%d,"hcexit":%d}\n' \
				$mode $op $ops_n $(($5 - $1)) $(($6 - $2)) $(($7 - $3)) $(($8 - $4))
		done
	done
	kvm_trace_teardown
fi
kill $echo_pid
[ $failed = 0 ]
