# process-vm-exec/: the series' selftest, built from the patched tree
# against its headers (kselftest TAP, like the KVM selftests).
PVM_SELFTEST_DIR := $(KSRC)/tools/testing/selftests/process_vm_exec

$(TESTS_OUT)/process_vm_exec_test: $(PVM_SELFTEST_DIR)/process_vm_exec_test.c \
		$(KHDR)/asm/process_vm_exec.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -fno-stack-protector -isystem $(KHDR) \
		-I$(KSRC)/tools/testing/selftests -o $@ $< $(LDFLAGS)
GUEST_TESTS += $(TESTS_OUT)/process_vm_exec_test

# process_vm_exec() refused when KVM_HC_HOST_SYSCALL runs it (both series).
$(OBJ)/process-vm-exec/tests/pvm_nested_test.o: HOST_CFLAGS += -I$(TOP)/process-vm-exec/tests
$(OBJ)/process-vm-exec/tests/pvm_nested.guest.o: GUEST_CFLAGS += -I$(TOP)/process-vm-exec/tests
$(TESTS_OUT)/pvm_nested_test: $(OBJ)/process-vm-exec/tests/pvm_nested_test.o \
		$(OBJ)/process-vm-exec/tests/pvm_nested.guest.o $(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)
GUEST_TESTS += $(TESTS_OUT)/pvm_nested_test
