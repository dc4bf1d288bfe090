# Sourced, not run: KVM's own account of a runsc run, from its tracepoints,
# for runsc_test and /bench/runsc (both reach /gvisor).
#   kvm_trace_setup BUFFER_KB   (1 if the kernel has no kvm:kvm_hypercall)
#   kvm_trace_start; ...; kvm_trace_stop
# kvm_trace_stop sets hc13, hc14 (KVM_HC_HOST_SYSCALL and _REGS
# hypercalls), hlt, hcexit (KVM_RUN's returns to runsc for HLT, 5, and for
# a hypercall, 3), rep (the most times one number was asked for by the
# register form, whose a0 is the number), and kept, written (the buffer's
# events: fewer kept than written means it overflowed).
KVM_TRACE=/sys/kernel/tracing

kvm_trace_setup() {
	[ -d $KVM_TRACE/events ] || mount -t tracefs nodev $KVM_TRACE
	[ -d $KVM_TRACE/events/kvm/kvm_hypercall ] || return 1
	echo 0 > $KVM_TRACE/tracing_on
	echo "$1" > $KVM_TRACE/buffer_size_kb
	echo 'nr == 13 || nr == 14' > $KVM_TRACE/events/kvm/kvm_hypercall/filter
	echo 1 > $KVM_TRACE/events/kvm/kvm_hypercall/enable
	echo 1 > $KVM_TRACE/events/kvm/kvm_userspace_exit/enable
}

kvm_trace_start() {
	echo > $KVM_TRACE/trace
	echo 1 > $KVM_TRACE/tracing_on
}

kvm_trace_stop() {
	local t=$KVM_TRACE/trace
	echo 0 > $KVM_TRACE/tracing_on
	hc13=$(grep -c 'kvm_hypercall: nr 0xd ' $t)
	hc14=$(grep -c 'kvm_hypercall: nr 0xe ' $t)
	hlt=$(grep -c 'kvm_userspace_exit: reason .* (5)' $t)
	hcexit=$(grep -c 'kvm_userspace_exit: reason .* (3)' $t)
	rep=$(grep 'kvm_hypercall: nr 0xe ' $t | sed 's/.* a0 \(0x[0-9a-f]*\) .*/\1/' |
		sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 } END { if (!NR) print 0 }')
	read -r kept written <<-EOT
	$(sed -n 's|^# entries-in-buffer/entries-written: \([0-9]*\)/\([0-9]*\).*|\1 \2|p' $t)
	EOT
}

# kvm_trace_nr HC NR: after kvm_trace_stop, how many hypercalls HC (13
# or 14) asked for system call NR (a0: 14's call number; for 13, a
# pointer, so only 14 is meaningful).
kvm_trace_nr() {
	grep -c "kvm_hypercall: nr $(printf 0x%x "$1") a0 $(printf 0x%x "$2") " $KVM_TRACE/trace
}

kvm_trace_teardown() {
	echo 0 > $KVM_TRACE/events/kvm/kvm_hypercall/enable
	echo 0 > $KVM_TRACE/events/kvm/kvm_userspace_exit/enable
	echo 0 > $KVM_TRACE/events/kvm/kvm_hypercall/filter
}
