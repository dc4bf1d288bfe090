# gVisor's runsc, built from Debian's source (golang-gvisor-gvisor-dev)
# with gvisor/patches by gvisor/build.sh; the initramfs carries it as
# /gvisor/runsc and runsc_test runs programs under it in the guest.
GVISOR_OUT := $(BUILD)/gvisor
RUNSC := $(GVISOR_OUT)/bin/runsc

$(RUNSC): gvisor/build.sh gvisor/patches/series $(wildcard gvisor/patches/*.patch)
	@gvisor/build.sh $(GVISOR_OUT)

# runsc_test's fallback case: runsc under a seccomp filter that hides
# KVM_CAP_PV_HOST_SYSCALL.  In /gvisor, not /tests: it is not a test.
HIDE_HOST_SYSCALL := $(GVISOR_OUT)/bin/hide_host_syscall
$(HIDE_HOST_SYSCALL): gvisor/tests/hide_host_syscall.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<
# The posting's UDP_RR experiment (gvisor/run-bench.sh): the client and
# echo server, run natively and under runsc, in /gvisor; the guest driver
# as /bench/runsc.
UDP_RR := $(GVISOR_OUT)/bin/udp_rr
$(UDP_RR): gvisor/bench/udp_rr.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<
# And its refusal case: runsc with syscall auditing on, which KVM's runner
# refuses every call for.
AUDITED := $(GVISOR_OUT)/bin/audited
$(AUDITED): gvisor/tests/audited.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -Wall -static -o $@ $<
GVISOR_BINS := $(RUNSC) $(HIDE_HOST_SYSCALL) $(UDP_RR) $(AUDITED)

$(BENCH_OUT)/runsc: gvisor/bench/runsc_bench.sh $(GVISOR_BINS)
	@mkdir -p $(dir $@)
	install -m 755 $< $@
GUEST_TESTS += $(BENCH_OUT)/runsc

$(TESTS_OUT)/runsc_test: gvisor/tests/runsc_test.sh $(GVISOR_BINS)
	@mkdir -p $(dir $@)
	install -m 755 $< $@
GUEST_TESTS += $(TESTS_OUT)/runsc_test
