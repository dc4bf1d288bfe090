# What hypercall/ contributes: the series' selftest, its mechanisms, and
# the hypercall fuzzer (hypercall/tests).
KVM_SELFTESTS += x86_64/kvm_pv_syscall_test

MECHS += hypercall/mech/hypercall.c hypercall/mech/hypercall_regs.c

# The bounded hypercall fuzzer (FUZZ_SEED, FUZZ_CALLS, FUZZ_SECONDS).  Its
# fourth path fuzzes the ABI behind bpf-variant's verdict, so it links
# that variant's loader (HC_POLICY_OBJS, BPF_LIBS: bpf-variant/build.mk).
$(OBJ)/hypercall/tests/hc_fuzz_test.o: HOST_CFLAGS += $(HC_POLICY_CFLAGS)
$(TESTS_OUT)/hc_fuzz_test: $(OBJ)/hypercall/tests/hc_fuzz_test.o \
		$(OBJ)/hypercall/tests/hc_fuzz.guest.o $(VMM_OBJS) $$(HC_POLICY_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(BPF_LIBS)
GUEST_TESTS += $(TESTS_OUT)/hc_fuzz_test
