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
                libotf2-trace-dev otf2-tools libunwind-dev libjansson-dev jq gcc make binutils \
                chromium python3

.PHONY: all deps demo test test-unit test-e2e sanitize tsan clean
all: $(BIN)/pomp-instrument $(BIN)/pomp-prelink $(BIN)/pompcc $(BIN)/pomp-report \
     $(LIB)/libpomp.so $(INC)/pomplib.h

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

# ---- libpomp ----
POMPLIB_SRC := $(wildcard pomplib/*.c)
POMPLIB_OBJ := $(POMPLIB_SRC:pomplib/%.c=$(OBJ)/pomplib/%.o) $(OBJ)/ctc/ctc.o
POMPLIB_LIBS := -lpthread -lotf2
$(OBJ)/pomplib/%.o: pomplib/%.c $(wildcard pomplib/*.h) pomplib/include/pomplib.h | $(OBJ)/pomplib
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden -Ipomplib/include -Ictc -c $< -o $@
$(LIB)/libpomp.so: $(POMPLIB_OBJ) pomplib/libpomp.map | $(LIB)
	$(CC) $(LDFLAGS_ALL) -shared -o $@ $(POMPLIB_OBJ) -Wl,--version-script=pomplib/libpomp.map $(POMPLIB_LIBS)
$(INC)/pomplib.h: pomplib/include/pomplib.h | $(INC)
	cp $< $@

# ---- instrumenter: generated directive scanner and grammar ----
$(GEN)/directive_parser.c $(GEN)/directive_parser.h: instrumenter/directive_parser.y instrumenter/directive.h | $(GEN)
	bison -d -o $(GEN)/directive_parser.c $<
$(GEN)/directive_lexer.c $(GEN)/directive_lexer.h: instrumenter/directive_lexer.l $(GEN)/directive_parser.h | $(GEN)
	flex --header-file=$(GEN)/directive_lexer.h -o $(GEN)/directive_lexer.c $<
$(OBJ)/gen/%.o: $(GEN)/%.c $(GEN)/directive_parser.h $(GEN)/directive_lexer.h $(wildcard instrumenter/directive*.h) | $(OBJ)/gen
	$(CC) $(CFLAGS_ALL) -Wno-unused-function -Wno-sign-compare -Wno-unused-but-set-variable -Iinstrumenter -I$(GEN) -c $< -o $@

INSTR_CFLAGS = $(CFLAGS_ALL) -Iinstrumenter -Ictc -Iruntime -I$(GEN) -I$(LLVM_DIR)/include \
               -DPOMP_LIBOMP_DIR='"$(LLVM_DIR)/lib"' -DPOMP_EXTRA_LINK_FLAGS='"$(SAN)"'
$(OBJ)/instrumenter/%.o: instrumenter/%.c $(wildcard instrumenter/*.h) $(GEN)/directive_lexer.h | $(OBJ)/instrumenter
	$(CC) $(INSTR_CFLAGS) -c $< -o $@
$(OBJ)/runtime/%.o: runtime/%.c runtime/runtime.h | $(OBJ)/runtime
	$(CC) $(INSTR_CFLAGS) -c $< -o $@

DIRECTIVE_OBJ := $(OBJ)/instrumenter/directive.o $(OBJ)/gen/directive_lexer.o $(OBJ)/gen/directive_parser.o
INSTRUMENT_OBJ := $(OBJ)/instrumenter/pomp_instrument_main.o $(OBJ)/instrumenter/instrument.o \
                  $(OBJ)/instrumenter/source.o $(OBJ)/instrumenter/util.o $(DIRECTIVE_OBJ) $(OBJ)/ctc/ctc.o \
                  $(OBJ)/runtime/runtime.o
PRELINK_OBJ := $(OBJ)/instrumenter/pomp_prelink_main.o $(OBJ)/instrumenter/prelink.o \
               $(OBJ)/instrumenter/process.o $(OBJ)/instrumenter/util.o
POMPCC_OBJ := $(OBJ)/instrumenter/pompcc.o $(OBJ)/instrumenter/process.o $(OBJ)/instrumenter/util.o \
              $(OBJ)/runtime/runtime.o

$(BIN)/pomp-instrument: $(INSTRUMENT_OBJ) | $(BIN)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ -L$(LLVM_DIR)/lib -lclang -Wl,-rpath,$(LLVM_DIR)/lib
$(BIN)/pomp-prelink: $(PRELINK_OBJ) | $(BIN)
	$(CC) $(LDFLAGS_ALL) -o $@ $^
$(BIN)/pompcc: $(POMPCC_OBJ) | $(BIN)
	$(CC) $(LDFLAGS_ALL) -o $@ $^

# ---- pomp-report: its own files, the trace model and writers of libpomp, and
# the HTML template embedded by a small generator (build/gen/report_template.c) ----
REPORT_SRC := $(filter-out pomplib/report/embed.c,$(wildcard pomplib/report/*.c))
REPORT_OBJ := $(REPORT_SRC:pomplib/report/%.c=$(OBJ)/report/%.o) $(OBJ)/gen/report_template.o \
              $(addprefix $(OBJ)/pomplib/,trace_model.o trace_walk.o trace_chrome.o pomp_eventlog.o)
$(OBJ)/report/%.o: pomplib/report/%.c $(wildcard pomplib/report/*.h) $(wildcard pomplib/*.h) | $(OBJ)/report
	$(CC) $(CFLAGS_ALL) -Ipomplib -c $< -o $@
$(BUILD)/tools/embed: pomplib/report/embed.c | $(BUILD)/tools
	$(CC) $(CFLAGS_ALL) -o $@ $<
$(GEN)/report_template.c: pomplib/report/report_template.html $(BUILD)/tools/embed | $(GEN)
	$(BUILD)/tools/embed $< report_template $@
$(OBJ)/gen/report_template.o: $(GEN)/report_template.c | $(OBJ)/gen
	$(CC) $(CFLAGS_ALL) -c $< -o $@
$(BIN)/pomp-report: $(REPORT_OBJ) | $(BIN)
	$(CC) $(LDFLAGS_ALL) -o $@ $^ -ljansson

$(BIN) $(LIB) $(INC) $(GEN) $(OBJ)/ctc $(OBJ)/pomplib $(OBJ)/instrumenter $(OBJ)/runtime $(OBJ)/gen $(OBJ)/report $(BUILD)/tests $(BUILD)/tools:
	mkdir -p $@

# ---- tests ----
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c))
UNIT_LINK = $(CC) $(CFLAGS_ALL) -o $@ $(filter %.c %.o,$^) -lcriterion
$(BUILD)/tests/test_ctc: tests/unit/test_ctc.c $(OBJ)/ctc/ctc.o ctc/ctc.h | $(BUILD)/tests
	$(UNIT_LINK) -Ictc
$(BUILD)/tests/test_directive: tests/unit/test_directive.c $(DIRECTIVE_OBJ) $(wildcard instrumenter/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter -I$(GEN)
$(BUILD)/tests/test_prelink: tests/unit/test_prelink.c $(OBJ)/instrumenter/prelink.o $(OBJ)/instrumenter/util.o $(wildcard instrumenter/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Iinstrumenter
$(BUILD)/tests/test_profile: tests/unit/test_profile.c $(POMPLIB_OBJ) $(wildcard pomplib/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Ipomplib -Ipomplib/include -Ictc $(POMPLIB_LIBS)
$(BUILD)/tests/test_trace: tests/unit/test_trace.c $(POMPLIB_OBJ) $(wildcard pomplib/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Ipomplib -Ipomplib/include -Ictc $(POMPLIB_LIBS)
$(BUILD)/tests/test_filter: tests/unit/test_filter.c $(POMPLIB_OBJ) $(wildcard pomplib/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Ipomplib -Ipomplib/include -Ictc $(POMPLIB_LIBS)
$(BUILD)/tests/test_levels: tests/unit/test_levels.c $(POMPLIB_OBJ) $(wildcard pomplib/*.h) | $(BUILD)/tests
	$(UNIT_LINK) -Ipomplib -Ipomplib/include -Ictc $(POMPLIB_LIBS)

test: deps
	$(MAKE) all test-unit test-e2e

test-unit: $(UNIT_TESTS)
	@set -e; for t in $(UNIT_TESTS); do echo "== $$t"; $$t --jobs 1; done

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
	$(MAKE) BUILD=$(TSAN_BUILD) OPT=-O1 SAN="-fsanitize=thread -fno-omit-frame-pointer" $(TSAN_BUILD)/tests/tsan_stress
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/tests/tsan_stress
$(BUILD)/tests/tsan_stress: tests/tsan/stress.c $(POMPLIB_OBJ) $(wildcard pomplib/*.h) | $(BUILD)/tests
	$(CC) $(CFLAGS_ALL) -Ipomplib/include -Ictc -o $@ $(filter %.c %.o,$^) $(POMPLIB_LIBS)

# ---- the demo: seed 002, Appendix A ----
demo: deps
	$(MAKE) all
	@BUILD=$(abspath $(BUILD)) bash examples/run_demo.sh

clean:
	rm -rf build
