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
# udp_rr, the posting's UDP_RR client and echo server (gvisor/run-bench.sh),
# run natively and under runsc.  The guest driver is /bench/runsc.
HIDE_HOST_SYSCALL := $(GVISOR_OUT)/bin/hide_host_syscall
AUDITED := $(GVISOR_OUT)/bin/audited
UDP_RR := $(GVISOR_OUT)/bin/udp_rr
$(GVISOR_OUT)/bin/%: gvisor/tests/%.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<
$(GVISOR_OUT)/bin/%: gvisor/bench/%.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<
# The tracepoint counting runsc_test and /bench/runsc share, sourced.
KVM_TRACE_SH := $(GVISOR_OUT)/bin/kvm_trace.sh
$(KVM_TRACE_SH): gvisor/tests/kvm_trace.sh
	@mkdir -p $(dir $@)
	install -m 644 $< $@
GVISOR_BINS := $(RUNSC) $(HIDE_HOST_SYSCALL) $(UDP_RR) $(AUDITED) $(KVM_TRACE_SH)

$(BENCH_OUT)/runsc: gvisor/bench/runsc_bench.sh $(GVISOR_BINS)
	@mkdir -p $(dir $@)
	install -m 755 $< $@
GUEST_TESTS += $(BENCH_OUT)/runsc

$(TESTS_OUT)/runsc_test: gvisor/tests/runsc_test.sh $(GVISOR_BINS)
	@mkdir -p $(dir $@)
	install -m 755 $< $@
GUEST_TESTS += $(TESTS_OUT)/runsc_test
