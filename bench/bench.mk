# make bench: pomp's overhead, measured (docs/performance.md). Included by the
# Makefile; not part of make test. Programs built here go to $(BUILD)/bench/.
BENCH := $(BUILD)/bench
BENCH_CFLAGS = -std=c11 -D_GNU_SOURCE -O2 -g $(WARN)

.PHONY: bench bench-deps bench-programs

# Debian packages only make bench needs: OPARI2 and its POMP2 headers for the side-by-side comparison,
# valgrind for instruction counts (docs/dependencies.md).
BENCH_DEB_PACKAGES := opari2 libpomp2-dev valgrind

bench-deps:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(BENCH_DEB_PACKAGES)"

bench: deps bench-deps
	$(MAKE) all bench-programs
	@BUILD=$(abspath $(BUILD)) bash bench/run.sh

bench-programs: $(BENCH)/event_cost $(BENCH)/summarize $(BENCH)/runstat $(BENCH)/alloc_count.so

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
