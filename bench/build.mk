# The benchmark's guest program, packed into the initramfs as /bench/run.
$(OBJ)/bench/bench.o: HOST_CFLAGS += -I$(TOP)/bpf-variant/src
$(BENCH_OUT)/run: $(OBJ)/bench/bench.o $(OBJ)/bpf-variant/src/hc_policy.o \
		$(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(BPF_LIBS)
GUEST_TESTS += $(BENCH_OUT)/run
