# What common/ contributes: the VMM, the workload and its driver, the
# mechanisms that need no series, the sandbox, and the tests of all that.
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

# The mechanisms that need no kernel series: the baselines.
MECHS += common/workload/mech/native.c common/workload/mech/ptrace_sysemu.c \
	common/workload/mech/sud.c common/workload/mech/seccomp_trap.c \
	common/workload/mech/seccomp_unotify.c

# The workload's core (no mechanism): the ops, the context, the driver
# (session.c), what VM and stub mechanisms share, the echo server, the
# counters.  A binary that names the mechanisms it uses links this and
# their objects; one that iterates over the list links WORKLOAD_OBJS.
WL_CORE_SRCS := $(filter-out common/workload/mech_list.c,$(wildcard common/workload/*.c))
WL_CORE_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(WL_CORE_SRCS)) $(VMM_OBJS)
# A mechanism's guest-side hook, if any, is the *.guest.c beside it.
mech_objs = $(patsubst %.c,$(OBJ)/%.o,$(1) $(wildcard $(patsubst %.c,%.guest.c,$(1))))
MECH_LIST := $(OBJ)/common/workload/mech_list.gen.c
$(MECH_LIST): FORCE
	@mkdir -p $(dir $@)
	@common/scripts/mech-list.sh $(MECHS) > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
$(OBJ)/common/workload/mech_list.gen.o: $(MECH_LIST)
	$(CC) $(HOST_CFLAGS) -MMD -c -o $@ $<
# Every mechanism with the list (expanded once all folders are read).
WORKLOAD_OBJS = $(WL_CORE_OBJS) $(call mech_objs,$(MECHS)) $(MECH_OBJS) \
	$(OBJ)/common/workload/mech_list.o $(OBJ)/common/workload/mech_list.gen.o
WORKLOAD_LIBS = $(MECH_LIBS)

$(TESTS_OUT)/workload_test: $(OBJ)/common/tests/workload_test.o $$(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)
GUEST_TESTS += $(TESTS_OUT)/workload_test

# The profile's counting against known counts (common/workload/counters.c).
$(TESTS_OUT)/counters_test: $(OBJ)/common/tests/counters_test.o $$(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS) -lm
GUEST_TESTS += $(TESTS_OUT)/counters_test

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
$(BENCH_OUT)/sandbox: $(SANDBOX_OBJS) $$(WORKLOAD_OBJS)
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
		$(OBJ)/common/tests/semantics.guest.o $$(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)
GUEST_TESTS += $(TESTS_OUT)/semantics_test
