# What exit-variant/ contributes: the series' selftest and the mechanisms
# whose VMM runs the call (exit-variant/mech).
KVM_SELFTESTS += x86_64/kvm_pv_syscall_exit_test

MECHS += exit-variant/mech/exit_pio.c exit-variant/mech/exit_hypercall.c \
	exit-variant/mech/hc_queue.c
