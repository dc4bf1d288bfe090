# process-vm-exec/: the series' selftest, built from the patched tree
# against its headers (kselftest TAP, like the KVM selftests).
PVM_SELFTEST_DIR := $(KSRC)/tools/testing/selftests/process_vm_exec

$(TESTS_OUT)/process_vm_exec_test: $(PVM_SELFTEST_DIR)/process_vm_exec_test.c \
		$(KHDR)/asm/process_vm_exec.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -fno-stack-protector -isystem $(KHDR) \
		-I$(KSRC)/tools/testing/selftests -o $@ $< $(LDFLAGS)
GUEST_TESTS += $(TESTS_OUT)/process_vm_exec_test
