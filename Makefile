# SPDX-License-Identifier: GPL-2.0
# The only entry point.  `make` builds everything and runs the benchmark;
# `make test` builds everything and runs every test booted in QEMU.
# See README.md.

TOP	:= $(CURDIR)
BUILD	?= $(TOP)/build
KSRC	:= $(BUILD)/linux
KOUT	:= $(BUILD)/kbuild
KHDR	:= $(KOUT)/usr/include
BZIMAGE	:= $(KOUT)/arch/x86/boot/bzImage
# The bench boots the same tree built without common/kernel/debug.config.
BENCH_BZIMAGE := $(BUILD)/kbuild-bench/arch/x86/boot/bzImage
OBJ	:= $(BUILD)/obj
TESTS_OUT := $(BUILD)/tests
BENCH_OUT := $(BUILD)/bench
KSFT_OUT := $(BUILD)/kselftest/kvm
GEN_INIT_CPIO := $(BUILD)/gen_init_cpio
INITRAMFS := $(BUILD)/initramfs.cpio
RUNS	:= $(BUILD)/runs

CC	:= gcc
INCLUDES := -isystem $(KHDR) -I$(TOP)/common/include -I$(TOP)/common/vmm \
	    -I$(TOP)/common/workload \
	    -I$(KSRC)/tools/testing/selftests
HOST_CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE $(INCLUDES)
# Code that runs in the guest, at ring 0 (or 3), on its own stack, with no
# libc, no FS base, no FPU state and interrupts that may hit any stack.
GUEST_CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -ffreestanding \
	-fno-builtin -fno-stack-protector -fcf-protection=none -mgeneral-regs-only \
	-mno-red-zone -fno-pic -fno-asynchronous-unwind-tables $(INCLUDES)
LDFLAGS	:= -static -no-pie -pthread

# Filled in by the folders' build.mk files.
GUEST_TESTS :=
KVM_SELFTESTS :=
SKIP_FILES :=
# The mechanisms, one *.c each, in table order (each folder's `MECHS +=`
# line), and what they need linked beside them (objects, libraries).
MECHS :=
MECH_OBJS :=
MECH_LIBS :=

.PHONY: test-vmx bench-vmx ksft-bins check-test-ids facts all deps kernel tests initramfs test test-kasan fuzz bench runsc-bench profile scaling report clean \
	distclean check-harness check-series

all:
	@$(MAKE) -s deps
	@$(MAKE) -s bench	# builds the test kernel, then the bench kernel
	@$(MAKE) -s report

deps:
	@common/scripts/deps.sh

kernel:
	@common/scripts/kernel.sh all

# common/ first, then each variant in the order of the `series` file (which
# is also the order of the mechanisms in the tables), then the bench.
# Prerequisites are expanded a second time (`$$(...)`) once every folder
# has added its mechanisms.
VARIANTS := $(shell sed -e '/^[[:space:]]*\#/d' -e '/^[[:space:]]*$$/d' series)
.SECONDEXPANSION:
include common/build.mk
include $(wildcard $(addsuffix /build.mk,$(VARIANTS)))
include bench/build.mk
include gvisor/build.mk

$(OBJ)/%.guest.o: %.guest.c
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -MMD -c -o $@ $<

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -MMD -c -o $@ $<

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

$(GEN_INIT_CPIO): $(KSRC)/usr/gen_init_cpio.c
	$(CC) -O2 -o $@ $<

# Upstream KVM selftests, built from the patched tree against its headers,
# all in one sub-make (its own dependencies decide what to rebuild).
KSFT_BINS := $(addprefix $(KSFT_OUT)/,$(KVM_SELFTESTS))
ksft-bins: FORCE
	@$(MAKE) -s -C $(KSRC)/tools/testing/selftests/kvm OUTPUT=$(KSFT_OUT) \
		LINUX_HDR_PATH=$(KHDR)/ KHDR_INCLUDES="-isystem $(KHDR)" \
		LDFLAGS="-pthread -no-pie -static" $(KSFT_BINS) >/dev/null
$(KSFT_BINS): ksft-bins ;
.PHONY: FORCE
FORCE:

$(TESTS_OUT)/skips: $(SKIP_FILES)
	@mkdir -p $(dir $@)
	@cat $^ | grep -v '^#' > $@ || true

tests: $(GUEST_TESTS) $(KSFT_BINS) $(TESTS_OUT)/skips
	@for t in $(KSFT_BINS); do \
		cmp -s $$t $(TESTS_OUT)/$$(basename $$t) || \
		cp $$t $(TESTS_OUT)/; done
	@rm -f $(TESTS_OUT)/zz_injected_failure
ifneq ($(INJECT_FAILURE),)
	@printf '#!/bin/sh\necho "not ok 1 deliberately injected failure"\nexit 1\n' \
		> $(TESTS_OUT)/zz_injected_failure
	@chmod +x $(TESTS_OUT)/zz_injected_failure
endif

initramfs: tests $(GEN_INIT_CPIO) $(GVISOR_BINS)
	@common/qemu/mkinitramfs.sh $(INITRAMFS) $(GEN_INIT_CPIO) $(TESTS_OUT) $(BENCH_OUT) \
		$(dir $(RUNSC))

# The committed test log REPORT.md cites (its "- tests:" line).
CITED_TAP = $(shell sed -n 's/^- tests: `\([^`]*\)`.*/\1/p' REPORT.md)
check-harness:
	@common/qemu/selftest/run.sh
	@bench/report_check.sh
	@python3 bench/model/model_check.py
	@$(MAKE) -s check-test-ids

# The facts' test ids against the table and the committed log (needs the
# kernel's headers to build build/facts; said so when they are not there).
check-test-ids:
	@if [ ! -d $(KHDR) ]; then \
		echo "test ids: not checked: no kernel headers yet (make kernel)"; \
	elif [ ! -f "$(CITED_TAP)" ]; then \
		echo "test ids: not checked: REPORT.md cites no test log here ($(CITED_TAP))"; \
	else \
		$(MAKE) -s facts || exit 1; \
		common/tests/check_test_ids.py $(BUILD)/facts.jsonl $(CITED_TAP) \
			> $(BUILD)/test-ids.tap; rc=$$?; \
		grep -v -e '^ok ' -e '^1\.\.' $(BUILD)/test-ids.tap; exit $$rc; \
	fi

# The mechanisms' facts as records (bench/facts.c), printed on the host.
facts: $(FACTS)
	@$(FACTS) > $(BUILD)/facts.jsonl.tmp && mv $(BUILD)/facts.jsonl.tmp $(BUILD)/facts.jsonl

# checkpatch and build-at-every-patch for every series (after `make kernel`).
check-series:
	@common/scripts/check-series.sh

test:
	@$(MAKE) -s deps
	@$(MAKE) -s kernel
	@$(MAKE) -s check-harness
	@$(MAKE) -s check-series
	@$(MAKE) -s initramfs facts
	@TEST_IDS_FACTS=$(BUILD)/facts.jsonl $(RUN_TESTS) $(BZIMAGE) $(INITRAMFS) $(RUNS)/test test

# Boot a kernel with the test initramfs and judge the run; FUZZ_* on the
# make command line reach the fuzzer, with per-test timeouts to match.
# make fuzz FUZZ_SECONDS=S: each of the fuzzer's 5 paths (kernel, regs,
# exit, bpf, bare) may take S seconds.
FUZZ_PATHS := 5
FUZZ_SLACK = $(if $(FUZZ_SECONDS),$(shell echo $$(($(FUZZ_PATHS) * $(FUZZ_SECONDS) + $(1)))),$(2))
FUZZ_VARS := FUZZ_SEED FUZZ_CALLS FUZZ_SECONDS FUZZ_VM_CALLS FUZZ_SIGNAL_US FUZZ_STUCK_MS FUZZ_ONLY
FUZZ_PASS = $(foreach v,$(FUZZ_VARS),$(if $($(v)),$(v)=$($(v))))
FUZZ_ENV = $(FUZZ_PASS) TEST_TIMEOUT=$(call FUZZ_SLACK,300,600)
RUN_TESTS = EXPECTED_SKIPS=$(TESTS_OUT)/skips KVMHC_ENV="$(FUZZ_ENV)" common/qemu/run.sh

# The fuzzer, the hypercall's selftest and the smoke test on a KASAN build of
# the test kernel (build/kbuild-kasan; a third kernel build, so not part of
# `make test`: see README.md).
KASAN_BZIMAGE := $(BUILD)/kbuild-kasan/arch/x86/boot/bzImage
test-kasan:
	@$(MAKE) -s deps
	@$(MAKE) -s kernel
	@FLAVOR=kasan common/scripts/kernel.sh all
	@$(MAKE) -s initramfs
	@ONLY="kvm_smoke_test hc_fuzz_test kvm_pv_syscall_test" \
		$(RUN_TESTS) $(KASAN_BZIMAGE) $(INITRAMFS) $(RUNS)/test-kasan test

# The same judgement on Intel VMX: the test kernel and initramfs booted on
# Bochs' emulated Intel CPU (common/bochs/), kvm_intel inside.  A short list
# by default, under 15 minutes on 2 cores (Bochs runs ordinary code about
# 12x slower than TCG); VMX_FULL=1 runs every test (26 minutes here).
# Not part of make test (CI stays on QEMU); run before resolving a change
# to a series, and commit its log (common/bochs/README.md).
VMX_TESTS ?= kvm_smoke_test fix_hypercall_test kvm_pv_test kvm_pv_syscall_test \
	kvm_pv_syscall_exit_test bpf_hc_test semantics_test hc_fuzz_test
VMX_FUZZ_CALLS ?= 1920
test-vmx:
	@$(MAKE) -s deps
	@$(MAKE) -s kernel
	@$(MAKE) -s initramfs facts
	@cat $(TESTS_OUT)/skips common/bochs/vmx.skips > $(BUILD)/vmx.skips
	@$(if $(VMX_FULL),,ONLY="$(VMX_TESTS)") \
		KVMHC_ENV="$(filter-out FUZZ_CALLS=%,$(FUZZ_PASS)) FUZZ_CALLS=$(or $(FUZZ_CALLS),$(VMX_FUZZ_CALLS)) TEST_TIMEOUT=$(or $(VMX_TEST_TIMEOUT),1200)" \
		EXPECTED_SKIPS=$(BUILD)/vmx.skips TEST_IDS_FACTS=$(BUILD)/facts.jsonl \
		TIMEOUT=$(or $(VMX_TIMEOUT),$(if $(VMX_FULL),3600,1500)) \
		common/bochs/run.sh $(BZIMAGE) $(INITRAMFS) $(RUNS)/test-vmx test

# The bench's VMX column (bench/vmx.sh): the deterministic bench of the VM
# mechanisms on Bochs' Intel CPU, then the report again with it.
bench-vmx:
	@$(MAKE) -s kernel
	@FLAVOR=bench common/scripts/kernel.sh all
	@$(MAKE) -s initramfs
	@bench/vmx.sh $(BENCH_BZIMAGE) $(INITRAMFS) $(RUNS)

# The fuzzer (with the hypercall's selftest) alone, for long runs by hand:
#   make fuzz FUZZ_SEED=7 FUZZ_CALLS=200000 FUZZ_SECONDS=1800
# FUZZ_VM_CALLS=N: calls per vCPU per VM (64: a fresh VM every 192 calls),
# FUZZ_SIGNAL_US=N: each vCPU thread's signal period (2000), FUZZ_STUCK_MS=N:
# the watchdog's limit (2000), FUZZ_ONLY=hypercall,regs: those paths only
# (hypercall, exit, bpf, regs, bare).  (FUZZ_* also reach the fuzzer in `make test`
# and `make test-vmx`; hypercall/README.md has the long runs made.)
fuzz:
	@$(MAKE) -s deps
	@$(MAKE) -s kernel
	@$(MAKE) -s initramfs
	@{ cat $(TESTS_OUT)/skips; $(if $(FUZZ_ONLY),echo 'hc_fuzz_test|false|FUZZ_ONLY=$(FUZZ_ONLY): the other paths left out on request';) } \
		> $(BUILD)/fuzz.skips
	@ONLY="hc_fuzz_test kvm_pv_syscall_test" TIMEOUT=$(call FUZZ_SLACK,900,1500) \
		$(RUN_TESTS:$(TESTS_OUT)/skips=$(BUILD)/fuzz.skips) $(BZIMAGE) $(INITRAMFS) $(RUNS)/fuzz test

bench:
	@$(MAKE) -s kernel
	@FLAVOR=bench common/scripts/kernel.sh all
	@$(MAKE) -s initramfs
	@bench/run.sh $(BENCH_BZIMAGE) $(INITRAMFS) $(RUNS)
	@PROFILE_APPEND=1 bench/profile.sh $(BENCH_BZIMAGE) $(INITRAMFS) $(RUNS)
	@APPEND=1 bench/scaling.sh $(BENCH_BZIMAGE) $(INITRAMFS) $(RUNS)
	@gvisor/run-bench.sh $(BENCH_BZIMAGE) $(INITRAMFS) $(RUNS)
	@bench/model/run.sh bench/results

# REPORT.md (also the end of `make`): the decision a reviewer has to make,
# from bench/results (make bench) and the last make test's TAP log.
report: facts
	@python3 bench/decision_report.py --results bench/results \
		--tests $(RUNS)/test/tap.log --facts $(BUILD)/facts.jsonl \
		--top $(TOP) --out $(TOP)/REPORT.md

# Where the cost goes (also the end of `make bench`): event counts and the
# sampled kernel path per op, bench/results/latest-profile.*.
profile:
	@$(MAKE) -s kernel
	@FLAVOR=bench common/scripts/kernel.sh all
	@$(MAKE) -s initramfs
	@bench/profile.sh $(BENCH_BZIMAGE) $(INITRAMFS) $(RUNS)

# gVisor's runsc (also part of `make bench`): the posting's UDP_RR
# experiment with the real Sentry, bench/results/latest-runsc.md.
runsc-bench:
	@$(MAKE) -s kernel
	@FLAVOR=bench common/scripts/kernel.sh all
	@$(MAKE) -s initramfs
	@gvisor/run-bench.sh $(BENCH_BZIMAGE) $(INITRAMFS) $(RUNS)

# vCPU scaling (also the end of `make bench`): bench/results/latest-scaling.*.
scaling:
	@$(MAKE) -s kernel
	@FLAVOR=bench common/scripts/kernel.sh all
	@$(MAKE) -s initramfs
	@bench/scaling.sh $(BENCH_BZIMAGE) $(INITRAMFS) $(RUNS)

clean:
	rm -rf $(OBJ) $(TESTS_OUT) $(BENCH_OUT) $(KSFT_OUT) $(BPF_OUT) $(INITRAMFS) $(RUNS) \
		$(FACTS) $(BUILD)/facts.jsonl $(BUILD)/test-ids.tap

distclean:
	rm -rf $(BUILD)
