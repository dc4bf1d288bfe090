# gVisor's runsc, built from Debian's source (golang-gvisor-gvisor-dev)
# with gvisor/patches by gvisor/build.sh; the initramfs carries it as
# /gvisor/runsc and runsc_test runs programs under it in the guest.
GVISOR_OUT := $(BUILD)/gvisor
RUNSC := $(GVISOR_OUT)/bin/runsc

$(RUNSC): gvisor/build.sh gvisor/patches/series $(wildcard gvisor/patches/*.patch)
	@gvisor/build.sh $(GVISOR_OUT)

# Static helpers in /gvisor (not /tests: they are not tests):
# hide_host_syscall, runsc under a seccomp filter that hides
# KVM_CAP_PV_HOST_SYSCALL (runsc_test's fallback case); audited, runsc with
# syscall auditing on, for which KVM refuses every call (its refusal case);
# sockio, socket reads and writes compared with native (its hostinet case);
# udp_rr, the posting's UDP_RR client and echo server (gvisor/run-bench.sh),
# run natively and under runsc.  The guest driver is /bench/runsc.
HIDE_HOST_SYSCALL := $(GVISOR_OUT)/bin/hide_host_syscall
AUDITED := $(GVISOR_OUT)/bin/audited
SOCKIO := $(GVISOR_OUT)/bin/sockio
UDP_RR := $(GVISOR_OUT)/bin/udp_rr
$(GVISOR_OUT)/bin/%: gvisor/tests/%.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<
$(GVISOR_OUT)/bin/%: gvisor/bench/%.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<
# Sourced shell in /gvisor: the tracepoint counting and the bundle
# runsc_test and /bench/runsc share, and /bench/runsc's redis part.
KVM_TRACE_SH := $(GVISOR_OUT)/bin/kvm_trace.sh
RUNSC_BUNDLE_SH := $(GVISOR_OUT)/bin/runsc_bundle.sh
RUNSC_REDIS_SH := $(GVISOR_OUT)/bin/runsc_redis.sh
$(GVISOR_OUT)/bin/%.sh: gvisor/tests/%.sh
	@mkdir -p $(dir $@)
	install -m 644 $< $@
$(GVISOR_OUT)/bin/%.sh: gvisor/bench/%.sh
	@mkdir -p $(dir $@)
	install -m 644 $< $@
# Debian's redis-server and redis-benchmark with their libraries
# (gvisor/redis-bundle.sh), as /gvisor/redis: the real server of the runsc
# bench.
REDIS_DIR := $(GVISOR_OUT)/bin/redis
$(REDIS_DIR)/redis-server: gvisor/redis-bundle.sh /usr/bin/redis-check-rdb /usr/bin/redis-benchmark
	@gvisor/redis-bundle.sh $(REDIS_DIR)
GVISOR_BINS := $(RUNSC) $(HIDE_HOST_SYSCALL) $(UDP_RR) $(AUDITED) $(SOCKIO) \
	$(KVM_TRACE_SH) $(RUNSC_BUNDLE_SH) $(RUNSC_REDIS_SH) $(REDIS_DIR)/redis-server

$(BENCH_OUT)/runsc: gvisor/bench/runsc_bench.sh $(GVISOR_BINS)
	@mkdir -p $(dir $@)
	install -m 755 $< $@
GUEST_TESTS += $(BENCH_OUT)/runsc

$(TESTS_OUT)/runsc_test: gvisor/tests/runsc_test.sh $(GVISOR_BINS)
	@mkdir -p $(dir $@)
	install -m 755 $< $@
GUEST_TESTS += $(TESTS_OUT)/runsc_test
