# gVisor's runsc, built from Debian's source (golang-gvisor-gvisor-dev)
# with gvisor/patches by gvisor/build.sh; the initramfs carries it as
# /gvisor/runsc and runsc_test runs programs under it in the guest.
GVISOR_OUT := $(BUILD)/gvisor
RUNSC := $(GVISOR_OUT)/bin/runsc

$(RUNSC): gvisor/build.sh gvisor/patches/series $(wildcard gvisor/patches/*.patch)
	@gvisor/build.sh $(GVISOR_OUT)

$(TESTS_OUT)/runsc_test: gvisor/tests/runsc_test.sh $(RUNSC)
	@mkdir -p $(dir $@)
	install -m 755 $< $@
GUEST_TESTS += $(TESTS_OUT)/runsc_test
