# Sourced by /bench/runsc (gvisor/bench/runsc_bench.sh), not run: one real
# server, Debian's redis-server, natively or under runsc --network=host,
# with Debian's redis-benchmark natively in the guest as its one client
# (one connection, one request at a time: a request/response loop like
# UDP_RR, each request a host recvmsg/sendmsg and epoll_wait the Sentry
# makes).  Both start through the loader /gvisor/redis carries
# (gvisor/redis-bundle.sh).  Uses runsc_bench.sh's RUNSC, STATE, LOGS,
# bundle and runsc_bundle.
REDIS=/gvisor/redis
REDIS_PORT=6380
# Debian's binaries run as "$REDIS_LD $REDIS/PROGRAM ARGS...".
REDIS_LD="$REDIS/lib/ld-linux-x86-64.so.2 --library-path $REDIS/lib"

redis_run() {	# PROGRAM ARGS...
	local prog=$1
	shift
	$REDIS_LD $REDIS/$prog "$@"
}

redis_cli() {
	redis_run redis-cli -h 127.0.0.1 -p $REDIS_PORT "$@"
}

# redis_benchmark ARGS...: one client, one request at a time, stopped
# after 3 minutes (a run takes seconds under TCG).
redis_benchmark() {
	timeout -s KILL 180 $REDIS_LD $REDIS/redis-benchmark -h 127.0.0.1 \
		-p $REDIS_PORT -c 1 "$@"
}

# redis_start MODE RUNSC_FLAGS NAME: the server, natively or in a sandbox
# named NAME; redis_pid is what to wait for.  No snapshots: the bundle's
# root is read-only and a failed save would stop writes.
redis_start() {
	local mode=$1 flags=$2 name=$3 i=0
	set -- --port $REDIS_PORT --bind 127.0.0.1 --save '' \
		--appendonly no --protected-mode no
	if [ "$mode" = native ]; then
		redis_run redis-server "$@" > $LOGS/$name.out 2>&1 &
	else
		runsc_bundle $bundle $REDIS_LD $REDIS/redis-server "$@" || return 1
		rm -rf $LOGS/$name && mkdir -p $LOGS/$name
		# shellcheck disable=SC2086
		$RUNSC --root=$STATE --ignore-cgroups --network=host $flags \
			--debug-log=$LOGS/$name/ run --bundle $bundle $name \
			> $LOGS/$name.out 2>&1 &
	fi
	redis_pid=$!
	# A sandbox takes seconds to start under TCG.
	while [ $i -lt 120 ]; do
		[ "$(redis_cli ping 2>/dev/null)" = PONG ] && return 0
		kill -0 $redis_pid 2>/dev/null || return 1
		sleep 1
		i=$((i + 1))
	done
	return 1
}

# redis_stop NAME: SHUTDOWN, then wait for the server (and sandbox) to end;
# one that does not within a minute is killed and the run counts as failed.
redis_stop() {
	local name=$1 i=0
	redis_cli shutdown nosave > /dev/null 2>&1
	while kill -0 $redis_pid 2>/dev/null && [ $i -lt 60 ]; do
		sleep 1
		i=$((i + 1))
	done
	if kill -0 $redis_pid 2>/dev/null; then
		kill -9 $redis_pid
		$RUNSC --root=$STATE delete -force $name > /dev/null 2>&1
		wait $redis_pid 2>/dev/null
		return 1
	fi
	wait $redis_pid 2>/dev/null
	return 0
}

# redis_samples N SAMPLES NAME: SAMPLES redis-benchmark runs of N SETs
# then N GETs, as "sample redis-set N NS" lines (NS: N requests at the
# rate redis-benchmark measured, its clock being the guest's: instructions
# under -icount).  A run that does not end in 3 minutes (some seconds
# under TCG), or whose server ends (a triple fault: gvisor/README.md), is
# stopped, with the sandbox's stacks in $LOGS/NAME.stacks, and no more are
# made: fewer lines than 2 x SAMPLES, a failed try.
redis_samples() {
	local n=$1 s=0 out watch
	(while redis_alive; do sleep 1; done
	 pkill -f $REDIS/redis-benchmark) &
	watch=$!
	while [ $s -lt "$2" ]; do
		s=$((s + 1))
		out=$(redis_benchmark -n "$n" -t set,get --csv 2>/dev/null |
			awk -F'"' -v n="$n" '$2 == "SET" || $2 == "GET" {
				if ($4 > 0) printf "sample redis-%s %d %.0f\n", tolower($2), n, n * 1e9 / $4 }')
		[ -n "$out" ] && echo "$out"
		[ "$(echo "$out" | grep -c '^sample')" = 2 ] && continue
		redis_stuck "$3"
		break
	done
	kill $watch 2>/dev/null
}

# redis_alive: whether the server (or its sandbox) still runs; a zombie
# does not: the shell that would reap it is waiting for this run.
redis_alive() {
	local st
	st=$(cut -d' ' -f3 /proc/$redis_pid/stat 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ]
}

# redis_stuck NAME: what the sandbox NAME and the guest's processes were
# doing when a redis-benchmark run did not end, to $LOGS/NAME.stacks.
redis_stuck() {
	{
		echo "sample $s of redis $1 did not end"
		ps -o pid,stat,time,args 2>/dev/null || ps
		for p in /proc/[0-9]*; do
			[ -r $p/wchan ] && echo "${p#/proc/} $(cat $p/wchan) $(tr '\0' ' ' < $p/cmdline | cut -c1-60)"
		done
		timeout -s KILL 60 $RUNSC --root=$STATE debug --stacks "$1" 2>&1
	} > $LOGS/"$1".stacks 2>&1
}

# redis_count N: one untimed redis-benchmark run of N GETs (for the
# tracepoint counts: runsc_bench.sh takes two and subtracts).
redis_count() {
	redis_benchmark -n "$1" -t get -q > /dev/null 2>&1
}
