# What common/ contributes to the guest test set.
VMM_OBJS := $(OBJ)/common/vmm/vmm.o

$(TESTS_OUT)/kvm_smoke_test: $(OBJ)/common/tests/kvm_smoke_test.o \
		$(OBJ)/common/tests/kvm_smoke.guest.o $(VMM_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS)
GUEST_TESTS += $(TESTS_OUT)/kvm_smoke_test

# Upstream KVM selftests that guard the paths every variant touches.
KVM_SELFTESTS += x86_64/fix_hypercall_test x86_64/kvm_pv_test \
	x86_64/userspace_io_test x86_64/sync_regs_test x86_64/set_sregs_test \
	x86_64/svm_vmcall_test x86_64/svm_nested_soft_inject_test \
	x86_64/cpuid_test x86_64/userspace_msr_exit_test

SKIP_FILES += common/tests.skips

# The common workload, checked under every mechanism: the common code, and
# one file per mechanism in common/workload/mech/ (a *.guest.c beside it
# holds a VM mechanism's guest-side hook), each registered in mechs.c.
WORKLOAD_SRCS := $(wildcard common/workload/*.c common/workload/mech/*.c)
WORKLOAD_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(WORKLOAD_SRCS)) $(VMM_OBJS) \
	$(OBJ)/bpf-variant/src/hc_policy.o
# The bpf mechanism loads its program with libbpf.
WORKLOAD_LIBS = $(BPF_LIBS)
$(OBJ)/common/workload/mech/bpf.o $(OBJ)/common/workload/mech/bpf_regs.o: \
	HOST_CFLAGS += -I$(TOP)/bpf-variant/src

$(TESTS_OUT)/workload_test: $(OBJ)/common/tests/workload_test.o $(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)
GUEST_TESTS += $(TESTS_OUT)/workload_test

# The profile's counting against known counts (common/workload/profile.c).
$(TESTS_OUT)/counters_test: $(OBJ)/common/tests/counters_test.o $(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS) -lm
GUEST_TESTS += $(TESTS_OUT)/counters_test

# The bounded hypercall fuzzer (FUZZ_SEED, FUZZ_CALLS, FUZZ_SECONDS).
$(OBJ)/common/tests/hc_fuzz_test.o: HOST_CFLAGS += -I$(TOP)/bpf-variant/src
$(TESTS_OUT)/hc_fuzz_test: $(OBJ)/common/tests/hc_fuzz_test.o \
		$(OBJ)/common/tests/hc_fuzz.guest.o $(VMM_OBJS) \
		$(OBJ)/bpf-variant/src/hc_policy.o
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(BPF_LIBS)
GUEST_TESTS += $(TESTS_OUT)/hc_fuzz_test

# The sandbox (common/sandbox/README.md): /bench/sandbox in the guest.  It
# is linked at 1 GiB, clear of 0x400000 where static programs want to be.
SANDBOX_OBJS := $(OBJ)/common/sandbox/sandbox.o $(OBJ)/common/sandbox/loader.o \
	$(OBJ)/common/sandbox/supervisor.guest.o $(OBJ)/common/sandbox/enter.guest.o
$(OBJ)/common/sandbox/syscall_names.h: $(KHDR)/asm/unistd_64.h
	@mkdir -p $(dir $@)
	sed -n 's/^#define __NR_\([a-z0-9_]*\) \([0-9]*\)$$/\t[\2] = "\1",/p' $< > $@
$(OBJ)/common/sandbox/sandbox.o: $(OBJ)/common/sandbox/syscall_names.h
$(OBJ)/common/sandbox/sandbox.o: HOST_CFLAGS += -I$(OBJ)/common/sandbox
$(OBJ)/common/sandbox/%.o: HOST_CFLAGS += -I$(TOP)/common/sandbox
$(BENCH_OUT)/sandbox: $(SANDBOX_OBJS) $(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) -Wl,-Ttext-segment=0x40000000 $(WORKLOAD_LIBS)
GUEST_TESTS += $(BENCH_OUT)/sandbox

# Busybox applets through every mechanism that can run a program, and what
# the sandbox does with bad input (common/sandbox/README.md).
$(OBJ)/common/tests/sandbox_test.o: HOST_CFLAGS += -I$(TOP)/common/sandbox
$(TESTS_OUT)/sandbox_test: $(OBJ)/common/tests/sandbox_test.o $(OBJ)/common/sandbox/testdata.o
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS)
GUEST_TESTS += $(TESTS_OUT)/sandbox_test

# What the report's semantics matrix cites (REPORT.md): seccomp through
# every mechanism, the FS/GS base case through every VM mechanism.
$(TESTS_OUT)/semantics_test: $(OBJ)/common/tests/semantics_test.o \
		$(OBJ)/common/tests/semantics.guest.o $(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)
GUEST_TESTS += $(TESTS_OUT)/semantics_test
