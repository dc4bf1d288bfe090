# What exit-variant/ contributes to the guest test set.
KVM_SELFTESTS += x86_64/kvm_pv_syscall_exit_test
