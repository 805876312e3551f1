# make bench: pomp's overhead, measured (docs/performance.md). Included by the
# Makefile; not part of make test. Programs built here go to $(BUILD)/bench/.
BENCH := $(BUILD)/bench
BENCH_CFLAGS = -std=c11 -D_GNU_SOURCE -O2 -g $(WARN)

.PHONY: bench bench-deps bench-programs bench-compiles

# Debian packages only make bench needs: OPARI2 and its POMP2 headers for the side-by-side comparison,
# valgrind for instruction counts (docs/dependencies.md).
BENCH_DEB_PACKAGES := opari2 libpomp2-dev valgrind

bench-deps:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(BENCH_DEB_PACKAGES)"

bench: deps bench-deps
	$(MAKE) all bench-programs
	@BUILD=$(abspath $(BUILD)) bash bench/run.sh

BENCH_TOOLS := $(BENCH)/event_cost $(BENCH)/summarize $(BENCH)/runstat $(BENCH)/alloc_count.so \
               $(BENCH)/libompt_null.so
bench-programs: $(BENCH_TOOLS) $(BENCH)/libpomp2min.so

# make test builds the bench programs too (the POMP2 library where OPARI2's
# header is installed, as make bench-deps does), so that a change of libpomp's
# internal interfaces cannot break make bench unseen: it did once, for a day.
bench-compiles: $(BENCH_TOOLS) $(if $(wildcard /usr/include/opari2/pomp2_lib.h),$(BENCH)/libpomp2min.so)

$(BENCH):
	mkdir -p $@
$(BENCH)/event_cost: bench/event_cost.c $(LIB)/libpomp.so $(INC)/pomplib.h | $(BENCH)
	$(CC) $(BENCH_CFLAGS) -I$(INC) -o $@ $< -L$(LIB) -lpomp -Wl,-rpath,$(abspath $(LIB)) -lpthread
$(BENCH)/summarize: bench/summarize.c | $(BENCH)
	$(CC) $(BENCH_CFLAGS) -o $@ $<
$(BENCH)/runstat: bench/runstat.c | $(BENCH)
	$(CC) $(BENCH_CFLAGS) -o $@ $<
$(BENCH)/alloc_count.so: bench/memory/alloc_count.c | $(BENCH)
	$(CC) $(BENCH_CFLAGS) -fPIC -shared -o $@ $<
# An OMPT tool without callbacks: libomp's own cost of an active tool (the construct suite's floor).
$(BENCH)/libompt_null.so: bench/ompt_null/ompt_null.c $(OMPT_INC)/omp-tools.h | $(BENCH)
	$(CC) $(BENCH_CFLAGS) $(OMPT_INCLUDE) -fPIC -shared -o $@ $<
# The POMP2 library for OPARI2-instrumented programs, with libpomp's profile code.
# pomp2_lib.h declares the event routines only under _OPENMP: compiled with
# -fopenmp, linked (like pompcc's programs) with LLVM libomp.
LIBOMP_DIR := $(LLVM_DIR)/lib
$(BENCH)/pomp2_min.o: bench/pomp2_min/pomp2_min.c $(POMPLIB_HDR) | $(BENCH)
	$(CC) $(BENCH_CFLAGS) -fopenmp -fPIC -fvisibility=hidden $(addprefix -I,$(LAYER_INCLUDE_core)) -c -o $@ $<
$(BENCH)/pomp2_min_%.o: pomplib/core/pomp_%.c $(POMPLIB_HDR) | $(BENCH)
	$(CC) $(BENCH_CFLAGS) -fPIC -fvisibility=hidden $(addprefix -I,$(LAYER_INCLUDE_core)) -c -o $@ $<
$(BENCH)/pomp2_min_clock.o: pomplib/common/pomp_clock.c $(POMPLIB_HDR) | $(BENCH)
	$(CC) $(BENCH_CFLAGS) -fPIC -fvisibility=hidden $(addprefix -I,$(LAYER_INCLUDE_core)) -c -o $@ $<
$(BENCH)/libpomp2min.so: $(BENCH)/pomp2_min.o $(BENCH)/pomp2_min_profile.o $(BENCH)/pomp2_min_values.o \
                         $(BENCH)/pomp2_min_clock.o
	$(CC) -shared -Wl,--no-undefined -o $@ $^ -L$(LIBOMP_DIR) -Wl,-rpath,$(LIBOMP_DIR) -lomp -lpthread
