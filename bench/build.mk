# The benchmark's guest program, packed into the initramfs as /bench/run.
$(BENCH_OUT)/run: $(OBJ)/bench/bench.o $(OBJ)/bench/cpu_time.o $$(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)
GUEST_TESTS += $(BENCH_OUT)/run

# Where the cost goes: /bench/profile (make profile, and the end of make bench).
$(BENCH_OUT)/profile: $(OBJ)/bench/profile.o $$(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)
GUEST_TESTS += $(BENCH_OUT)/profile

# Unmodified programs under every mechanism (common/sandbox): /bench/programs.
$(OBJ)/bench/programs.o: HOST_CFLAGS += -I$(TOP)/common/sandbox
$(BENCH_OUT)/programs: $(OBJ)/bench/programs.o $(OBJ)/common/sandbox/testdata.o \
		$$(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)
GUEST_TESTS += $(BENCH_OUT)/programs

# The mechanisms' facts, printed on the host (bench/facts.c): no boot, no
# hook called, /dev/kvm never opened.  Read by make report and
# common/tests/check_test_ids.py.
FACTS := $(BUILD)/facts
$(FACTS): $(OBJ)/bench/facts.o $$(WORKLOAD_OBJS)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)

# vCPU scaling: 1, 2 and 4 workers at once per VM mechanism (/bench/scaling).
# It runs hc-queue a second time with one shared server (hc_queue.h).
$(OBJ)/bench/scaling.o: HOST_CFLAGS += -I$(TOP)/exit-variant/mech
$(BENCH_OUT)/scaling: $(OBJ)/bench/scaling.o $(OBJ)/bench/cpu_time.o $$(WORKLOAD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(LDFLAGS) $(WORKLOAD_LIBS)
GUEST_TESTS += $(BENCH_OUT)/scaling
