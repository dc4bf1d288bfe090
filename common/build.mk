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

# The common workload, checked under every mechanism.
WORKLOAD_OBJS := $(OBJ)/common/workload/workload.o $(OBJ)/common/workload/workload_pvm.o \
	$(OBJ)/common/workload/workload.guest.o $(VMM_OBJS)

$(TESTS_OUT)/workload_test: $(OBJ)/common/tests/workload_test.o $(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS)
GUEST_TESTS += $(TESTS_OUT)/workload_test
