# pomp: OpenMP instrumentation and measurement. `make` builds into build/;
# `make demo` and `make test` install the Debian packages pomp needs first.

LLVM_DIR   ?= /usr/lib/llvm-19
BUILD      ?= build
CC         ?= cc
OPT        ?= -O2
SAN        ?=

BIN := $(BUILD)/bin
LIB := $(BUILD)/lib
INC := $(BUILD)/include
OBJ := $(BUILD)/obj
GEN := $(BUILD)/gen

WARN     := -Wall -Wextra -Werror
CFLAGS_ALL = -std=c11 -D_GNU_SOURCE $(OPT) -g $(WARN) $(SAN) -fPIC
LDFLAGS_ALL = $(SAN)

# Debian packages pomp builds and runs with (docs/dependencies.md says why each is there).
DEB_PACKAGES := clang-19 libclang-19-dev libomp-19-dev flex bison libcriterion-dev \
                libotf2-trace-dev otf2-tools libunwind-dev libdw-dev libjansson-dev jq gcc g++ make binutils \
                opari2 libpomp2-dev chromium python3 llvm-19 cmake strace

.PHONY: all deps demo test test-unit test-e2e check-layers sanitize tsan clean
all: $(BIN)/pomp-instrument $(BIN)/pomp-prelink $(BIN)/pompcc $(BIN)/pompc++ $(BIN)/pomp-report $(BIN)/pomprun \
     $(LIB)/libpomp.so $(LIB)/libpomp-gomp.so $(INC)/pomplib.h $(INC)/omp_collector_api.h

# ---- dependencies ----
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# ---- ctc: one library for the instrumenter and libpomp ----
CTC_SRC := ctc/ctc.c
$(OBJ)/ctc/%.o: ctc/%.c ctc/ctc.h | $(OBJ)/ctc
	$(CC) $(CFLAGS_ALL) -Ictc -c $< -o $@

# ---- libpomp (with the OMPT bridge, ompt-bridge/) ----
# omp-tools.h of libomp-19-dev lives in clang's resource directory, whose other
# headers only clang can read: libpomp gets a copy of it alone.
OMPT_HEADER := $(firstword $(wildcard $(LLVM_DIR)/lib/clang/*/include/omp-tools.h))
OMPT_INC    := $(BUILD)/ompt-include
OMPT_INCLUDE = -I$(OMPT_INC)
# libunwind: sampled call stacks (pomplib/pomp_sampling.c)
POMPLIB_LIBS := -lunwind -lotf2 -lpthread
# libpomp's layers (docs/architecture.md): event sources (pomplib/events and the
# bridges) -> core (pomplib/core, sampling, devices) -> writers (pomplib/output),
# all over pomplib/common. Each layer is compiled with the include paths it may
# use, so an include that points up or sideways does not compile; make
# check-layers says which edge it is.
POMPLIB_COMMON := pomplib/include pomplib/common ctc
POMPLIB_CORE   := pomplib/core pomplib/sampling pomplib/devices
LAYER_INCLUDE_common  := $(POMPLIB_COMMON)
LAYER_INCLUDE_output  := pomplib/output $(POMPLIB_COMMON)
LAYER_INCLUDE_core    := $(POMPLIB_CORE) pomplib/output $(POMPLIB_COMMON)
LAYER_INCLUDE_events  := pomplib/events $(POMPLIB_CORE) $(POMPLIB_COMMON)
LAYER_INCLUDE_ompt-bridge := ompt-bridge $(POMPLIB_CORE) $(POMPLIB_COMMON)
# the libgomp bridge is a library of its own that talks to libpomp through
# OMPT only (gomp-bridge/README.md): its own folder and omp-tools.h
LAYER_INCLUDE_gomp-bridge := gomp-bridge
layer_of = $(if $(filter pomplib/core/% pomplib/sampling/% pomplib/devices/%,$(1)),core,$(if $(filter pomplib/output/%,$(1)),output,$(if $(filter pomplib/events/%,$(1)),events,$(if $(filter ompt-bridge/%,$(1)),ompt-bridge,$(if $(filter gomp-bridge/%,$(1)),gomp-bridge,common)))))
layer_flags = $(addprefix -I,$(LAYER_INCLUDE_$(call layer_of,$(1)))) $(OMPT_INCLUDE)
POMPLIB_DIRS := pomplib/common pomplib/core pomplib/events pomplib/sampling pomplib/devices pomplib/output
POMPLIB_SRC := $(foreach d,$(POMPLIB_DIRS),$(wildcard $(d)/*.c))
POMPLIB_HDR := $(foreach d,$(POMPLIB_DIRS),$(wildcard $(d)/*.h)) pomplib/include/pomplib.h ctc/ctc.h
# what the unit tests of libpomp's pieces may include: all of it
POMPLIB_TEST_INCLUDE = $(addprefix -I,$(POMPLIB_DIRS) pomplib/include ctc ompt-bridge) $(OMPT_INCLUDE)
BRIDGE_SRC  := $(wildcard ompt-bridge/*.c)
LIBPOMP_CFLAGS = -fvisibility=hidden -fno-semantic-interposition
POMPLIB_OBJ := $(POMPLIB_SRC:%.c=$(OBJ)/%.o) $(OBJ)/ctc/ctc.o $(BRIDGE_SRC:%.c=$(OBJ)/%.o)
$(OMPT_INC)/omp-tools.h: $(OMPT_HEADER) | $(OMPT_INC)
	cp $< $@
# libpomp's objects: only its API is exported, and its calls to its own API
# (a _slow routine to its plain one) bind inside the library, without the PLT,
# and may be inlined: nothing interposes one POMP routine of a loaded libpomp
$(OBJ)/pomplib/%.o: pomplib/%.c $(POMPLIB_HDR) $(OMPT_INC)/omp-tools.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LIBPOMP_CFLAGS) $(call layer_flags,$<) -c $< -o $@
# the symbolizer libpomp runs after the run (pomp_symbols.c): LLVM's, found where it was built
$(OBJ)/pomplib/common/pomp_symbols.o: CFLAGS_ALL += -DPOMP_LLVM_SYMBOLIZER='"$(LLVM_DIR)/bin/llvm-symbolizer"'
$(OBJ)/ompt-bridge/%.o: ompt-bridge/%.c $(wildcard ompt-bridge/*.h) $(POMPLIB_HDR) $(OMPT_INC)/omp-tools.h | $(OBJ)/ompt-bridge
	$(CC) $(CFLAGS_ALL) $(LIBPOMP_CFLAGS) $(call layer_flags,$<) -c $< -o $@
$(LIB)/libpomp.so: $(POMPLIB_OBJ) pomplib/libpomp.map | $(LIB)
	$(CC) $(LDFLAGS_ALL) -shared -o $@ $(POMPLIB_OBJ) -Wl,--version-script=pomplib/libpomp.map -Wl,-z,nodelete $(POMPLIB_LIBS)
# ---- the libgomp bridge (gomp-bridge/): libpomp-gomp.so, put before libgomp
# by pompcc and pomprun; libgomp's entry points with libgomp's versions. Never
# unloaded, as libpomp.so is not (and so neither is the libgomp it needs): a
# plugin built with pompcc and dlclose'd took it away while libpomp still had
# its functions to call at exit (a crash, the program's buffered output lost) ----
GOMP_BRIDGE_OBJ := $(patsubst %.c,$(OBJ)/%.o,$(wildcard gomp-bridge/*.c))
$(OBJ)/gomp-bridge/%.o: gomp-bridge/%.c $(wildcard gomp-bridge/*.h) $(OMPT_INC)/omp-tools.h | $(OBJ)/gomp-bridge
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden $(call layer_flags,$<) -c $< -o $@
$(LIB)/libpomp-gomp.so: $(GOMP_BRIDGE_OBJ) gomp-bridge/libpomp-gomp.map $(LIB)/libpomp.so
	$(CC) $(LDFLAGS_ALL) -shared -o $@ $(GOMP_BRIDGE_OBJ) -Wl,--version-script=gomp-bridge/libpomp-gomp.map \
	  -Wl,-z,nodelete -L$(LIB) -lpomp -Wl,-rpath,'$$ORIGIN'
$(INC)/pomplib.h: pomplib/include/pomplib.h | $(INC)
	cp $< $@
$(INC)/omp_collector_api.h: ompt-bridge/omp_collector_api.h | $(INC)
	cp $< $@

# ---- instrumenter: generated directive scanner and grammar ----
$(GEN)/directive_parser.c $(GEN)/directive_parser.h: instrumenter/directive_parser.y instrumenter/directive.h | $(GEN)
	bison -d -o $(GEN)/directive_parser.c $<
$(GEN)/directive_lexer.c $(GEN)/directive_lexer.h: instrumenter/directive_lexer.l $(GEN)/directive_parser.h | $(GEN)
	flex --header-file=$(GEN)/directive_lexer.h -o $(GEN)/directive_lexer.c $<
$(OBJ)/gen/%.o: $(GEN)/%.c $(GEN)/directive_parser.h $(GEN)/directive_lexer.h $(wildcard instrumenter/directive*.h) | $(OBJ)/gen
	$(CC) $(CFLAGS_ALL) -Wno-unused-function -Wno-sign-compare -Wno-unused-but-set-variable -Iinstrumenter -I$(GEN) -c $< -o $@

INSTR_CFLAGS = $(CFLAGS_ALL) -Iinstrumenter -Ictc -Iruntime -Ipomplib/include -I$(GEN) -I$(LLVM_DIR)/include \
               -DPOMP_LIBOMP_DIR='"$(LLVM_DIR)/lib"' -DPOMP_LLVM_NM='"$(LLVM_DIR)/bin/llvm-nm"' -DPOMP_EXTRA_LINK_FLAGS='"$(SAN)"'
$(OBJ)/instrumenter/%.o: instrumenter/%.c $(wildcard instrumenter/*.h) $(GEN)/directive_lexer.h | $(OBJ)/instrumenter
	$(CC) $(INSTR_CFLAGS) -c $< -o $@
$(OBJ)/runtime/%.o: runtime/%.c runtime/runtime.h | $(OBJ)/runtime
	$(CC) $(INSTR_CFLAGS) -c $< -o $@
# The OpenMP entry points LLVM libomp defines: pompcc never links libomp for
# objects that call one it lacks (runtime/runtime_select.c).
$(GEN)/libomp_symbols.h: $(LLVM_DIR)/lib/libomp.so | $(GEN)
	{ echo '/* Generated by make from $<: the OpenMP entry points it defines, sorted. */'; \
	  echo 'static const char *const pomp_libomp_symbols[] = {'; \
	  nm -D --defined-only $< | awk '$$2 != "A" { print $$3 }' | sed 's/@.*//' | \
	    grep -E '^(GOMP_|GOACC_|omp_|acc_)' | LC_ALL=C sort -u | sed 's/.*/    "&",/'; \
	  echo '};'; } > $@.tmp && mv $@.tmp $@
$(OBJ)/runtime/runtime_select.o $(OBJ)/runtime/pomprun.o $(OBJ)/instrumenter/pompcc.o: runtime/runtime_select.h $(GEN)/libomp_symbols.h instrumenter/process.h instrumenter/elf_symbols.h

DIRECTIVE_OBJ := $(OBJ)/instrumenter/directive.o $(OBJ)/gen/directive_lexer.o $(OBJ)/gen/directive_parser.o
INSTRUMENT_OBJ := $(OBJ)/instrumenter/pomp_instrument_main.o $(OBJ)/instrumenter/instrument.o \
                  $(OBJ)/instrumenter/constructs.o $(OBJ)/instrumenter/construct_table.o \
                  $(OBJ)/instrumenter/context.o $(OBJ)/instrumenter/combined.o $(OBJ)/instrumenter/loops.o \
                  $(OBJ)/instrumenter/atomic_operand.o $(OBJ)/instrumenter/addressable.o \
                  $(OBJ)/instrumenter/source.o $(OBJ)/instrumenter/source_macros.o $(OBJ)/instrumenter/source_skipped.o $(OBJ)/instrumenter/source_ast.o \
                  $(OBJ)/instrumenter/source_includes.o $(OBJ)/instrumenter/headers.o $(OBJ)/instrumenter/source_scan.o \
                  $(OBJ)/instrumenter/modules.o $(OBJ)/instrumenter/pomp_directives.o \
                  $(OBJ)/instrumenter/inst_levels.o $(OBJ)/instrumenter/api_calls.o \
                  $(OBJ)/instrumenter/functions.o $(OBJ)/instrumenter/function_filter.o $(OBJ)/instrumenter/util.o $(DIRECTIVE_OBJ) $(OBJ)/ctc/ctc.o \
                  $(OBJ)/runtime/runtime.o
PRELINK_OBJ := $(OBJ)/instrumenter/pomp_prelink_main.o $(OBJ)/instrumenter/prelink.o \
               $(OBJ)/instrumenter/lib_search.o $(OBJ)/instrumenter/process.o $(OBJ)/instrumenter/util.o $(OBJ)/instrumenter/elf_symbols.o
POMPCC_OBJ := $(OBJ)/instrumenter/pompcc.o $(OBJ)/instrumenter/compiler_path.o \
              $(OBJ)/instrumenter/process.o $(OBJ)/instrumenter/util.o \
              $(OBJ)/instrumenter/response_files.o $(OBJ)/instrumenter/lib_search.o \
              $(OBJ)/instrumenter/long_options.o \
              $(OBJ)/instrumenter/function_filter.o $(OBJ)/instrumenter/elf_symbols.o \
              $(OBJ)/instrumenter/source_scan.o \
              $(OBJ)/runtime/runtime.o $(OBJ)/runtime/runtime_select.o

$(BIN)/pomp-instrument: $(INSTRUMENT_OBJ) | $(BIN)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ -L$(LLVM_DIR)/lib -lclang -Wl,-rpath,$(LLVM_DIR)/lib
$(BIN)/pomp-prelink: $(PRELINK_OBJ) | $(BIN)
	$(CC) $(LDFLAGS_ALL) -o $@ $^
# pompcc carries a digest of pomp-instrument and pomplib.h, what the objects it
# compiles are made of: a compiler cache knows the compiler by its file only
# (ccache by its mtime and size, or its content with compiler_check=content;
# sccache by its content), and served the objects of an earlier pomp-instrument
# after pomp was rebuilt, while pompcc's own sources had not changed
$(GEN)/pompcc_id.c: $(BIN)/pomp-instrument $(INC)/pomplib.h | $(GEN)
	printf 'const char pompcc_build_id[] __attribute__((used)) = "pomp-instrument and pomplib.h: %s";\n' \
	  "$$(cat $^ | sha256sum | cut -d' ' -f1)" > $@
$(OBJ)/gen/pompcc_id.o: $(GEN)/pompcc_id.c | $(OBJ)/gen
	$(CC) $(CFLAGS_ALL) -c $< -o $@
$(BIN)/pompcc: $(POMPCC_OBJ) $(OBJ)/gen/pompcc_id.o | $(BIN)
	$(CC) $(LDFLAGS_ALL) -o $@ $^
# pompc++ is pompcc called by another name (it then stands in for c++)
$(BIN)/pompc++: | $(BIN)
	ln -sf pompcc $@
# so are the wrappers named after their compiler, for build systems that look
# for "gcc" or "clang" in $(CC)
POMP_WRAPPERS := $(addprefix $(BIN)/pomp-,gcc g++ clang clang++)
$(POMP_WRAPPERS): | $(BIN)
	ln -sf pompcc $@
all: $(POMP_WRAPPERS)
# CMake takes the "pomp-" of pomp-gcc and pomp-clang for a cross toolchain's
# prefix and looks for the archivers of link-time optimization under it
# (pomp-gcc-ar, pomp-llvm-ar): without these, CMAKE_INTERPROCEDURAL_OPTIMIZATION
# archived with "CMAKE_C_COMPILER_AR-NOTFOUND" and the build stopped. They run
# the compilers' own archivers (docs/instrumentation.md, CMake).
POMP_ARCHIVERS := $(addprefix $(BIN)/pomp-,gcc-ar gcc-ranlib llvm-ar llvm-ranlib)
$(BIN)/pomp-gcc-%: | $(BIN)
	printf '#!/bin/sh\nexec gcc-%s "$$@"\n' $* > $@ && chmod +x $@
$(BIN)/pomp-llvm-%: | $(BIN)
	printf '#!/bin/sh\nexec $(LLVM_DIR)/bin/llvm-%s "$$@"\n' $* > $@ && chmod +x $@
all: $(POMP_ARCHIVERS)
POMPRUN_OBJ := $(OBJ)/runtime/pomprun.o $(OBJ)/runtime/runtime_select.o $(OBJ)/instrumenter/process.o \
               $(OBJ)/instrumenter/util.o $(OBJ)/instrumenter/elf_symbols.o
$(BIN)/pomprun: $(POMPRUN_OBJ) | $(BIN)
	$(CC) $(LDFLAGS_ALL) -o $@ $^

# ---- pomp-report: its own files, the trace model and writers of libpomp, and
# the HTML template embedded by a small generator (build/gen/report_template.c) ----
REPORT_SRC := $(filter-out pomplib/report/embed.c,$(wildcard pomplib/report/*.c))
REPORT_OBJ := $(REPORT_SRC:pomplib/report/%.c=$(OBJ)/report/%.o) $(OBJ)/gen/report_template.o \
              $(addprefix $(OBJ)/pomplib/,output/trace_model.o output/trace_walk.o output/trace_chrome.o common/pomp_event.o common/pomp_json.o)
$(OBJ)/report/%.o: pomplib/report/%.c $(wildcard pomplib/report/*.h) $(POMPLIB_HDR) | $(OBJ)/report
	$(CC) $(CFLAGS_ALL) -Ipomplib/report -Ipomplib/output -Ipomplib/common -c $< -o $@
$(BUILD)/tools/embed: pomplib/report/embed.c | $(BUILD)/tools
	$(CC) $(CFLAGS_ALL) -o $@ $<
$(GEN)/report_template.c: pomplib/report/report_template.html $(BUILD)/tools/embed | $(GEN)
	$(BUILD)/tools/embed $< report_template $@
$(OBJ)/gen/report_template.o: $(GEN)/report_template.c | $(OBJ)/gen
	$(CC) $(CFLAGS_ALL) -c $< -o $@
$(BIN)/pomp-report: $(REPORT_OBJ) | $(BIN)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ -ljansson -lm

$(BIN) $(LIB) $(INC) $(GEN) $(OBJ)/ctc $(OBJ)/instrumenter $(OBJ)/runtime $(OBJ)/gen $(OBJ)/report $(BUILD)/tests $(BUILD)/tools $(OMPT_INC) $(OBJ)/ompt-bridge $(OBJ)/gomp-bridge:
	mkdir -p $@

# ---- tests ----
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
UNIT_LINK = $(CC) $(CFLAGS_ALL) -o $@ $(filter %.c %.o,$^) -lcriterion
$(BUILD)/tests/test_ctc: tests/unit/test_ctc.c $(OBJ)/ctc/ctc.o ctc/ctc.h | $(BUILD)/tests
	$(UNIT_LINK) -Ictc
$(BUILD)/tests/test_directive: tests/unit/test_directive.c $(DIRECTIVE_OBJ) $(wildcard instrumenter/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter -I$(GEN)
$(BUILD)/tests/test_combined: tests/unit/test_combined.c $(OBJ)/instrumenter/combined.o $(OBJ)/instrumenter/util.o $(DIRECTIVE_OBJ) $(wildcard instrumenter/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter -I$(GEN)
$(BUILD)/tests/test_function_filter: tests/unit/test_function_filter.c $(OBJ)/instrumenter/function_filter.o $(OBJ)/instrumenter/util.o $(wildcard instrumenter/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter
$(BUILD)/tests/test_response_files: tests/unit/test_response_files.c $(OBJ)/instrumenter/long_options.o $(OBJ)/instrumenter/response_files.o $(OBJ)/instrumenter/process.o $(OBJ)/instrumenter/util.o $(wildcard instrumenter/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter
$(BUILD)/tests/test_file_names: tests/unit/test_file_names.c $(OBJ)/instrumenter/util.o $(wildcard instrumenter/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter
$(BUILD)/tests/test_prelink: tests/unit/test_prelink.c $(OBJ)/instrumenter/prelink.o $(OBJ)/instrumenter/util.o $(wildcard instrumenter/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter
$(BUILD)/tests/test_profile: tests/unit/test_profile.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)
$(BUILD)/tests/test_json: tests/unit/test_json.c $(OBJ)/pomplib/common/pomp_json.o pomplib/common/pomp_json.h | $(BUILD)/tests
	$(UNIT_LINK) -Ipomplib/common
$(BUILD)/tests/test_sample_tree: tests/unit/test_sample_tree.c $(OBJ)/pomplib/common/pomp_sample_tree.o pomplib/common/pomp_sample_tree.h | $(BUILD)/tests
	$(UNIT_LINK) -Ipomplib/common
$(BUILD)/tests/test_symbols: tests/unit/test_symbols.c $(OBJ)/pomplib/common/pomp_symbols.o $(OBJ)/pomplib/common/pomp_dwarf.o pomplib/common/pomp_symbols.h pomplib/common/pomp_dwarf.h | $(BUILD)/tests
	$(UNIT_LINK) -Ipomplib/common
$(BUILD)/tests/test_object_name: tests/unit/test_object_name.c $(OBJ)/pomplib/common/pomp_object_name.o pomplib/common/pomp_object_name.h | $(BUILD)/tests
	$(UNIT_LINK) -Ipomplib/common
$(BUILD)/tests/test_ompt: tests/unit/test_ompt.c $(POMPLIB_OBJ) $(POMPLIB_HDR) $(wildcard ompt-bridge/*.h) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)
$(BUILD)/tests/test_collector: tests/unit/test_collector.c $(POMPLIB_OBJ) $(POMPLIB_HDR) $(wildcard ompt-bridge/*.h) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)
$(BUILD)/tests/test_runtime: tests/unit/test_runtime.c $(OBJ)/runtime/runtime_select.o $(OBJ)/instrumenter/process.o $(OBJ)/instrumenter/util.o $(OBJ)/instrumenter/elf_symbols.o runtime/runtime_select.h runtime/runtime.h | $(BUILD)/tests
	$(UNIT_LINK) -Iruntime
$(BUILD)/tests/test_source_scan: tests/unit/test_source_scan.c $(OBJ)/instrumenter/source_scan.o $(OBJ)/instrumenter/util.o instrumenter/source_scan.h | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter
$(BUILD)/tests/test_elf_symbols: tests/unit/test_elf_symbols.c $(OBJ)/instrumenter/elf_symbols.o $(OBJ)/instrumenter/process.o $(OBJ)/instrumenter/util.o instrumenter/elf_symbols.h | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter
$(BUILD)/tests/test_levels: tests/unit/test_levels.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)
$(BUILD)/tests/test_env_names: tests/unit/test_env_names.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)
$(BUILD)/tests/test_tasks: tests/unit/test_tasks.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)
$(BUILD)/tests/test_values: tests/unit/test_values.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)
$(BUILD)/tests/test_trace: tests/unit/test_trace.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)
$(BUILD)/tests/test_device: tests/unit/test_device.c $(POMPLIB_OBJ) $(POMPLIB_HDR) $(wildcard ompt-bridge/*.h) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)
$(BUILD)/tests/test_filter: tests/unit/test_filter.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(UNIT_LINK) $(POMPLIB_TEST_INCLUDE) $(POMPLIB_LIBS)

test: deps
	$(MAKE) check-layers all bench-compiles test-unit test-e2e

# The include edges between libpomp's layers point one way (docs/architecture.md).
check-layers:
	@python3 tests/check_layers.py

# Each runs in a scratch folder: a test whose libpomp ends without an output
# folder of its own writes its profile there, not in the source tree.
test-unit: $(UNIT_TESTS)
	@set -e; mkdir -p $(BUILD)/tests/scratch; for t in $(abspath $(UNIT_TESTS)); do echo "== $$t"; (cd $(BUILD)/tests/scratch && $$t --jobs 1); done

test-e2e: all
	@BUILD=$(abspath $(BUILD)) E2E_SANITIZE="$(SAN)" bash tests/e2e/run_all.sh

# ASan + UBSan build of everything, in its own tree, with the whole test suite;
# then the ThreadSanitizer stress of libpomp.
sanitize: deps
	$(MAKE) BUILD=build/sanitize OPT=-O1 SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" all test-unit test-e2e
	$(MAKE) tsan

# ThreadSanitizer: libpomp's concurrency (Criterion cannot run under TSan).
TSAN_BUILD := build/tsan
tsan:
	$(MAKE) BUILD=$(TSAN_BUILD) OPT=-O1 SAN="-fsanitize=thread -fno-omit-frame-pointer" $(TSAN_BUILD)/tests/tsan_stress $(TSAN_BUILD)/tests/tsan_ompt_stress $(TSAN_BUILD)/tests/tsan_exit_stress $(TSAN_BUILD)/tests/tsan_takeover_stress
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/tests/tsan_stress
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/tests/tsan_ompt_stress
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/tests/tsan_exit_stress
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/tests/tsan_takeover_stress
$(BUILD)/tests/tsan_stress: tests/tsan/stress.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) -Ipomplib/include -Ictc -o $@ $(filter %.c %.o,$^) $(POMPLIB_LIBS)
$(BUILD)/tests/tsan_exit_stress: tests/tsan/exit_stress.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) -Ipomplib/include -Ictc -o $@ $(filter %.c %.o,$^) $(POMPLIB_LIBS)
$(BUILD)/tests/tsan_takeover_stress: tests/tsan/takeover_stress.c $(POMPLIB_OBJ) $(POMPLIB_HDR) | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) -Ipomplib/include -Ictc -o $@ $(filter %.c %.o,$^) $(POMPLIB_LIBS)
$(BUILD)/tests/tsan_ompt_stress: tests/tsan/ompt_stress.c $(POMPLIB_OBJ) $(POMPLIB_HDR) $(wildcard ompt-bridge/*.h) | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) $(POMPLIB_TEST_INCLUDE) -o $@ $(filter %.c %.o,$^) $(POMPLIB_LIBS)

# ---- the demo: seed 002, Appendix A ----
demo: deps
	$(MAKE) all
	@BUILD=$(abspath $(BUILD)) bash examples/run_demo.sh

clean:
	rm -rf build

# ---- make bench (bench/bench.mk; not part of make test) ----
include bench/bench.mk
