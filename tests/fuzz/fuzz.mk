# Fuzzing: libFuzzer harnesses under tests/fuzz/ (docs/hardening.md).
# Included from the Makefile (`include tests/fuzz/fuzz.mk`), or used on its
# own with `make -f Makefile -f tests/fuzz/fuzz.mk fuzz`.
#
#   make fuzz-build          builds build/fuzz/fuzz_{data,parse,mustache,check,manifest,mlperf}
#   make fuzz                builds them and runs each for FUZZ_SECONDS (60)
#   make fuzz FUZZ_TARGETS=fuzz_parse FUZZ_SECONDS=600
#
# Needs clang with libFuzzer (Debian: clang, and libclang-rt-14-dev where
# -fsanitize=fuzzer does not link).  Each harness runs with its seeds
# (tests/fuzz/corpus/<harness>/, read only) and a working corpus in
# build/fuzz/corpus/<harness>/; a crash is written to
# build/fuzz/artifacts/<harness>-crash-* and stops the run: copy it to
# tests/fuzz/regress/<harness>/ and fix the bug (tests/scripts/fuzz_regress.sh
# replays that folder in `make test`).

# Included anywhere in the Makefile, this fragment must not become the default
# goal: remember whether one was set before it.
FUZZ_SAVED_GOAL := $(.DEFAULT_GOAL)

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS_FLAGS ?= -timeout=10 -rss_limit_mb=2048 -max_len=8192
FUZZ_OUT := build/fuzz
# Every harness (tests/scripts/fuzz_regress.sh asks for the list: make -s fuzz-harnesses).
FUZZ_HARNESSES := fuzz_data fuzz_parse fuzz_mustache fuzz_check fuzz_manifest fuzz_mlperf
FUZZ_TARGETS ?= $(FUZZ_HARNESSES)
FUZZ_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -Ilib -Igen -Imeasure $(FUZZ_SAN) \
               -fsanitize=fuzzer-no-link \
               $(shell $(or $(PKG_CONFIG),pkg-config) --cflags jansson libpcre2-8 libcmark-gfm 2>/dev/null)
FUZZ_LIBS := $(shell $(or $(PKG_CONFIG),pkg-config) --libs jansson libpcre2-8 libcmark-gfm 2>/dev/null) \
             -lcmark-gfm-extensions -lm

FUZZ_LIB_SRC := $(sort $(wildcard lib/*.c))
fuzz_data_SRC := gen/1-load/data.c gen/1-load/data_bench.c gen/1-load/data_fs.c gen/1-load/data_run.c gen/1-load/comparisons.c gen/1-load/history_decl.c gen/1-load/fitfile.c gen/1-load/runset.c gen/1-load/pairing.c gen/1-load/srcenv.c gen/1-load/published.c gen/1-load/platform.c gen/1-load/decl.c measure/2-parse/rule.c gen/template/lang.c gen/template/mustache.c gen/template/mustache_parse.c gen/template/mustache_standalone.c gen/base/md.c gen/base/workers.c
fuzz_parse_SRC := measure/2-parse/parse.c measure/2-parse/parse_run.c measure/2-parse/parse_scan.c measure/2-parse/parse_lines.c measure/2-parse/parse_tables.c measure/2-parse/numbers.c measure/2-parse/rule.c measure/1-facts/logscan.c \
                  measure/1-facts/logfacts.c measure/1-facts/logfacts_args.c \
                  measure/2-parse/explain.c measure/3-fit/fit.c measure/3-fit/fitcalc.c measure/3-fit/fitreport.c \
                  measure/2-parse/parsetrace.c measure/2-parse/recmark.c
fuzz_mustache_SRC := gen/template/mustache.c gen/template/mustache_parse.c gen/template/mustache_standalone.c
fuzz_check_SRC := gen/6-output/check.c gen/6-output/checkpage.c gen/base/cmarkx.c gen/base/md.c
fuzz_manifest_SRC := measure/5-import/import_manifest.c
fuzz_mlperf_SRC := measure/5-import/import_mlperf.c measure/5-import/import_mlperf_sys.c measure/5-import/import_mlperf_score.c \
                   measure/5-import/import_mlperf_runs.c measure/5-import/import_mlperf_steps.c measure/5-import/import_fs.c \
                   measure/5-import/import_mlperf_env.c measure/1-facts/envinfo.c

FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_OUT)/%)

# The sources a harness drives, one list for both builds (tests/scripts/fuzz_regress.sh
# asks for it): make -s fuzz-sources-fuzz_data
fuzz-sources-%:
	@echo $($*_SRC)

fuzz-harnesses:
	@echo $(FUZZ_HARNESSES)

.PHONY: fuzz fuzz-build fuzz-harnesses

fuzz-build: $(FUZZ_BINS)

$(FUZZ_OUT)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

# One rule per harness: its own file, the library and the modules it drives.
define FUZZ_HARNESS
$(FUZZ_OUT)/$(1): $(FUZZ_OUT)/obj/tests/fuzz/$(1).o \
                  $$(patsubst %.c,$(FUZZ_OUT)/obj/%.o,$$($(1)_SRC) $$(FUZZ_LIB_SRC))
	$$(FUZZ_CC) $$(FUZZ_SAN) -fsanitize=fuzzer -o $$@ $$^ $$(FUZZ_LIBS)
endef
$(foreach h,$(FUZZ_HARNESSES),$(eval $(call FUZZ_HARNESS,$(h))))

# One harness at a time (they share the machine with the build).  The
# regression inputs are replayed first, then the fuzzer runs from the seeds.
fuzz: fuzz-build
	@set -e; for h in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_OUT)/corpus/$$h $(FUZZ_OUT)/artifacts; \
	  echo "== $$h: $(FUZZ_SECONDS) s"; \
	  if [ -d tests/fuzz/regress/$$h ] && [ -n "$$(ls tests/fuzz/regress/$$h)" ]; then \
	    $(FUZZ_OUT)/$$h $(FUZZ_JOBS_FLAGS) -artifact_prefix=$(FUZZ_OUT)/artifacts/$$h- tests/fuzz/regress/$$h/* ; fi; \
	  $(FUZZ_OUT)/$$h $(FUZZ_JOBS_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	    -print_final_stats=1 -artifact_prefix=$(FUZZ_OUT)/artifacts/$$h- \
	    $(FUZZ_OUT)/corpus/$$h tests/fuzz/corpus/$$h; \
	done

-include $(shell find $(FUZZ_OUT)/obj -name '*.d' 2>/dev/null)

# No default goal before this file: let the next target defined be it.
ifeq ($(FUZZ_SAVED_GOAL),)
.DEFAULT_GOAL :=
endif
