# What hypercall/ contributes to the guest test set: the series' selftest.
KVM_SELFTESTS += x86_64/kvm_pv_syscall_test
