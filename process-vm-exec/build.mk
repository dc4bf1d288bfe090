# process-vm-exec/: the series' selftest, built from the patched tree
# against its headers (kselftest TAP, like the KVM selftests), the two
# mechanisms that use the call (process-vm-exec/mech), and a test of both
# series together.
PVM_SELFTEST_DIR := $(KSRC)/tools/testing/selftests/process_vm_exec

$(TESTS_OUT)/process_vm_exec_test: $(PVM_SELFTEST_DIR)/process_vm_exec_test.c \
		$(KHDR)/asm/process_vm_exec.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -fno-stack-protector -isystem $(KHDR) \
		-I$(KSRC)/tools/testing/selftests -o $@ $< $(LDFLAGS)
GUEST_TESTS += $(TESTS_OUT)/process_vm_exec_test

MECHS += process-vm-exec/mech/pvm_exec.c process-vm-exec/mech/pvm_syscall.c

# process_vm_exec() refused when KVM_HC_HOST_SYSCALL runs it (both series):
# the workload's core and the two mechanisms it names, no list, no libbpf.
$(OBJ)/process-vm-exec/tests/pvm_nested_test.o: HOST_CFLAGS += -I$(TOP)/process-vm-exec/tests
$(OBJ)/process-vm-exec/tests/pvm_nested.guest.o: GUEST_CFLAGS += -I$(TOP)/process-vm-exec/tests
$(TESTS_OUT)/pvm_nested_test: $(OBJ)/process-vm-exec/tests/pvm_nested_test.o \
		$(OBJ)/process-vm-exec/tests/pvm_nested.guest.o $(WL_CORE_OBJS) \
		$(call mech_objs,hypercall/mech/hypercall.c process-vm-exec/mech/pvm_syscall.c)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS)
GUEST_TESTS += $(TESTS_OUT)/pvm_nested_test
