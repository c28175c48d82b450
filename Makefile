# perfrepro: one Makefile for both stages.
#   make            build bin/perfrepro-gen and bin/perfrepro-measure
#   make reports    regenerate reports/ from data/ (installs missing packages as root)
#   make test       build and run every test (unit, golden, scripts)
#   make asan       the whole test suite under AddressSanitizer + UBSan
#   make tsan       the tests of the pages built on several threads under ThreadSanitizer
#   make test-quick the unit tests and golden files (under a minute)
#   make lint       the include rule, cppcheck and the format check
#   make regen      rewrite the golden files from the current code
#   make install    PREFIX=/usr/local DESTDIR=
#   make clean
# WERROR=1 turns warnings into errors (CI sets it).

# Every rule is written here: Make's built-in rules would only make it try
# implicit rules on each of the ~1,300 data files `make reports` depends on
# (an unchanged make reports: 140 ms with them, 30 ms without).
MAKEFLAGS += --no-builtin-rules
.SUFFIXES:

PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
CFLAGS ?= -O2 -g
SAN ?=
BUILD ?= build
ifeq ($(SAN),1)
BUILD := build/asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
# SAN=thread: ThreadSanitizer (make tsan), for the pages built on several threads.
ifeq ($(SAN),thread)
BUILD := build/tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
endif

PR_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wformat=2 -Wno-format-nonliteral -Ilib $(SANFLAGS)
ifeq ($(WERROR),1)
PR_CFLAGS += -Werror
endif
PR_LDFLAGS := $(SANFLAGS) -lm

PKG_CONFIG ?= pkg-config
pkg = $(shell $(PKG_CONFIG) $(1) $(2) 2>/dev/null)
GEN_PKGS := jansson pangocairo libcmark-gfm zlib
MEASURE_PKGS := jansson libpcre2-8
GEN_CFLAGS = $(call pkg,--cflags,$(GEN_PKGS))
GEN_LIBS = $(call pkg,--libs,$(GEN_PKGS)) -lcmark-gfm-extensions
MEASURE_CFLAGS = $(call pkg,--cflags,$(MEASURE_PKGS))
MEASURE_LIBS = $(call pkg,--libs,$(MEASURE_PKGS))
CRITERION_CFLAGS = $(call pkg,--cflags,criterion)
CRITERION_LIBS = $(call pkg,--libs,criterion)

LIB_SRC := $(sort $(wildcard lib/*.c))
# gen/ is arranged by pipeline stage, one folder each, read in the order of
# the folder listing (gen/README.md): 1-load, 2-model, 3-tables,
# 4-charts, 5-views, 6-output; base/, template/ and import/ beside them.
GEN_SRC := $(sort $(wildcard gen/*/*.c))
GEN_INC := -Igen
MEASURE_SRC := $(filter-out measure/main.c,$(sort $(wildcard measure/*/*.c)))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
GEN_OBJ := $(GEN_SRC:%.c=$(BUILD)/%.o)
MEASURE_OBJ := $(MEASURE_SRC:%.c=$(BUILD)/%.o)

UNIT_LIB := $(sort $(wildcard tests/unit/lib_*.c))
UNIT_GEN := $(sort $(wildcard tests/unit/gen_*.c))
UNIT_MEASURE := $(sort $(wildcard tests/unit/measure_*.c))
UNIT_BINS := $(UNIT_LIB:tests/unit/%.c=$(BUILD)/tests/%) \
             $(UNIT_GEN:tests/unit/%.c=$(BUILD)/tests/%) \
             $(UNIT_MEASURE:tests/unit/%.c=$(BUILD)/tests/%)

# BINDIR: where the binaries go (a second checkout's build can keep apart).
BINDIR ?= bin
GEN_BIN := $(BINDIR)/perfrepro-gen
MEASURE_BIN := $(BINDIR)/perfrepro-measure
ifneq ($(SAN),)
GEN_BIN := $(BUILD)/bin/perfrepro-gen
MEASURE_BIN := $(BUILD)/bin/perfrepro-measure
endif

all: $(GEN_BIN) $(MEASURE_BIN)

.PHONY: all deps deps-test reports test asan tsan regen install clean bench site check \
        test-quick lint format format-check

# The dependency step: installs missing packages as root, else says how.
$(BUILD)/deps-build.stamp: scripts/deps.sh
	@sh scripts/deps.sh build
	@mkdir -p $(@D) && touch $@
$(BUILD)/deps-test.stamp: scripts/deps.sh
	@sh scripts/deps.sh test
	@mkdir -p $(@D) && touch $@
deps: $(BUILD)/deps-build.stamp
deps-test: $(BUILD)/deps-test.stamp

$(BUILD)/lib/%.o: lib/%.c | $(BUILD)/deps-build.stamp
	@mkdir -p $(@D)
	$(CC) $(PR_CFLAGS) $(CFLAGS) $(GEN_CFLAGS) $(MEASURE_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/gen/%.o: gen/%.c | $(BUILD)/deps-build.stamp
	@mkdir -p $(@D)
	$(CC) $(PR_CFLAGS) $(CFLAGS) $(GEN_CFLAGS) $(GEN_INC) -MMD -MP -c $< -o $@
$(BUILD)/measure/%.o: measure/%.c | $(BUILD)/deps-build.stamp
	@mkdir -p $(@D)
	$(CC) $(PR_CFLAGS) $(CFLAGS) $(MEASURE_CFLAGS) -Imeasure -MMD -MP -c $< -o $@
$(BUILD)/tests/%.o: tests/unit/%.c | $(BUILD)/deps-test.stamp
	@mkdir -p $(@D)
	$(CC) $(PR_CFLAGS) $(CFLAGS) $(GEN_CFLAGS) $(MEASURE_CFLAGS) $(CRITERION_CFLAGS) $(GEN_INC) -Imeasure -MMD -MP -c $< -o $@

$(GEN_BIN): $(BUILD)/gen/main.o $(GEN_OBJ) $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GEN_LIBS) $(PR_LDFLAGS) $(LDFLAGS)
$(MEASURE_BIN): $(BUILD)/measure/main.o $(MEASURE_OBJ) $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(MEASURE_LIBS) $(PR_LDFLAGS) $(LDFLAGS)

# The test objects are kept: as intermediates Make deleted them after each
# link, so the next `make test` compiled and relinked every test binary.
.SECONDARY: $(UNIT_BINS:%=%.o)
$(BUILD)/tests/lib_%: $(BUILD)/tests/lib_%.o $(LIB_OBJ)
	$(CC) -o $@ $^ $(GEN_LIBS) $(MEASURE_LIBS) $(CRITERION_LIBS) $(PR_LDFLAGS) $(LDFLAGS)
$(BUILD)/tests/gen_%: $(BUILD)/tests/gen_%.o $(GEN_OBJ) $(LIB_OBJ)
	$(CC) -o $@ $^ $(GEN_LIBS) $(CRITERION_LIBS) $(PR_LDFLAGS) $(LDFLAGS)
$(BUILD)/tests/measure_%: $(BUILD)/tests/measure_%.o $(MEASURE_OBJ) $(LIB_OBJ)
	$(CC) -o $@ $^ $(MEASURE_LIBS) $(CRITERION_LIBS) $(PR_LDFLAGS) $(LDFLAGS)
# A test double of bin/perfrepro-gpu (its tables, modelled figures): the
# Hardware suites end to end without a GPU (tests/scripts/hw_pipeline.sh).
FAKE_GPU := $(BUILD)/tests/fake-gpu
FAKE_GPU_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(sort $(wildcard measure/gpu/*.c)))
$(FAKE_GPU): tests/fakes/fake_gpu.c $(FAKE_GPU_OBJ)
	@mkdir -p $(@D)
	$(CC) $(PR_CFLAGS) $(CFLAGS) -Imeasure -o $@ $^ -lm $(PR_LDFLAGS) $(LDFLAGS)

# make bench: perfrepro's own speed beside its peers, written to data/bench/
# and rendered by make reports.  BENCH_QUICK=1 for a smoke run.
$(BUILD)/bench/chart_bench: bench/chart_bench.c $(GEN_OBJ) $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(PR_CFLAGS) $(CFLAGS) $(GEN_CFLAGS) $(GEN_INC) -o $@ $^ $(GEN_LIBS) $(PR_LDFLAGS) $(LDFLAGS)
bench: all $(BUILD)/bench/chart_bench
	@sh scripts/deps.sh bench
	python3 bench/run.py
	$(MAKE) reports

# reports/ is committed output; Make's own dependency tracking keeps an
# unchanged `make reports` a no-op.
REPORT_INPUTS := $(shell find data templates -type f 2>/dev/null | LC_ALL=C sort)
# A removed input is newer than nothing: the list itself is an input, and
# is rewritten only when it changes.
REPORT_LIST := $(BUILD)/reports.inputs
ifneq ($(file <$(REPORT_LIST)),$(REPORT_INPUTS))
$(shell mkdir -p $(BUILD))
$(file >$(REPORT_LIST),$(REPORT_INPUTS))
endif
# reports/ is committed: the size it may have, in MB (issue 34).
REPORTS_BUDGET_MB ?= 10
$(BUILD)/reports.stamp: $(GEN_BIN) $(REPORT_INPUTS) $(REPORT_LIST)
	$(GEN_BIN) build --data data --templates templates --out reports --budget-mb $(REPORTS_BUDGET_MB)
	@touch $@
reports: $(BUILD)/reports.stamp

# The HTML site (cmark-gfm) and the checker of every link and anchor.
site: $(BUILD)/reports.stamp
	$(GEN_BIN) site --reports reports --out $(BUILD)/site
check: $(BUILD)/reports.stamp
	$(GEN_BIN) check --reports reports

test: deps-test all gpu $(UNIT_BINS) $(FAKE_GPU)
	@BUILD=$(BUILD) GEN=$(GEN_BIN) MEASURE=$(MEASURE_BIN) sh tests/run.sh $(UNIT_BINS)

asan:
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 $(MAKE) SAN=1 test

# The gen tests that build pages on several threads, under ThreadSanitizer
# (a race is an error: halt_on_error).  Scripts only: Criterion cannot start
# under TSan (Snaipe/Criterion#274, "Could not initialize inheritable arena").
TSAN_SCRIPTS := tests/scripts/gen_parallel.sh
tsan:
	$(MAKE) SAN=thread build/tsan/bin/perfrepro-gen build/tsan/bin/perfrepro-measure
	@for t in $(TSAN_SCRIPTS); do TSAN_OPTIONS=halt_on_error=1:suppressions=$(CURDIR)/tests/tsan.supp GEN=build/tsan/bin/perfrepro-gen \
		MEASURE=build/tsan/bin/perfrepro-measure sh $$t || exit 1; done

regen: all
	@GEN=$(GEN_BIN) MEASURE=$(MEASURE_BIN) sh tests/golden.sh regen

# Checks in seconds (CONTRIBUTING.md#checks).
#   make test-quick   the unit tests and the golden files (under a minute)
#   make test-unit-gen, test-unit-measure, test-unit-lib: one folder's unit tests
#   make lint         the include and naming rules, cppcheck and the format check
#   make format       rewrites the sources in the house format (.clang-format)
QUICK_SCRIPTS := tests/scripts/gen_golden.sh tests/scripts/measure_golden.sh tests/scripts/cli_help.sh
test-quick: deps-test all $(UNIT_BINS)
	@BUILD=$(BUILD) GEN=$(GEN_BIN) MEASURE=$(MEASURE_BIN) TEST_SCRIPTS="$(QUICK_SCRIPTS)" sh tests/run.sh $(UNIT_BINS)
test-unit-%: deps-test all
	@$(MAKE) --no-print-directory $(filter $(BUILD)/tests/$*_%,$(UNIT_BINS))
	@BUILD=$(BUILD) GEN=$(GEN_BIN) MEASURE=$(MEASURE_BIN) TEST_SCRIPTS=" " sh tests/run.sh $(filter $(BUILD)/tests/$*_%,$(UNIT_BINS))

LINT_SRC = $(shell git ls-files -co --exclude-standard 'lib/*.[ch]' 'gen/*.[ch]' 'measure/*.[ch]' 'tests/*.[ch]' 'bench/*.[ch]' 2>/dev/null)
CPPCHECK_FLAGS := --quiet --enable=warning,portability --std=c11 --error-exitcode=1 --inline-suppr \
                  --library=scripts/cppcheck.cfg -D_GNU_SOURCE -Ilib -Igen -Imeasure \
                  --suppress=missingIncludeSystem -j2
lint:
	python3 scripts/lint-includes.py
	python3 scripts/lint-names.py
	cppcheck $(CPPCHECK_FLAGS) lib gen measure
	@$(MAKE) --no-print-directory format-check
format-check:
	@clang-format --dry-run -Werror $(LINT_SRC) && echo "format-check: $(words $(LINT_SRC)) files in the house format"
format:
	clang-format -i $(LINT_SRC)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/perfrepro/templates
	install -m 755 $(GEN_BIN) $(MEASURE_BIN) $(DESTDIR)$(PREFIX)/bin/
	if [ -x bin/perfrepro-gpu ]; then install -m 755 bin/perfrepro-gpu $(DESTDIR)$(PREFIX)/bin/; fi
	cp -R templates/. $(DESTDIR)$(PREFIX)/share/perfrepro/templates/

clean:
	rm -rf build bin

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# CUDA/NCCL workloads: bin/perfrepro-gpu, built only where nvcc exists.
include measure/gpu/gpu.mk

# libFuzzer harnesses (clang): make fuzz FUZZ_SECONDS=600
include tests/fuzz/fuzz.mk
