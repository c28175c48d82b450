#!/bin/sh
# Every command of both binaries answers `--help` (and -h) with its own usage
# on stdout and status 0, and `BINARY help COMMAND` prints the same text.  The
# commands are read from each binary's own --help, so a new command is
# covered as soon as it is listed.  Every command answers an unknown option
# or an option without its value with status 2 (perfrepro-gen's with its
# usage on stderr, lib/cli.h's wording).  import-table and import-env name
# every missing required option in one message, not one per try.
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE

# $1 binary, $2 its name, $3 a command: --help, -h and `help COMMAND` agree.
check_help() {
  "$1" "$3" --help >"$tmp/help" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 0 ] || fail "$2 $3 --help: status $rc: $(cat "$tmp/err")"
  [ -s "$tmp/err" ] && fail "$2 $3 --help: wrote to stderr: $(cat "$tmp/err")"
  head -n 1 "$tmp/help" | grep -q "^usage: $2 $3\( \|$\)" ||
    fail "$2 $3 --help: not its own usage: $(head -n 1 "$tmp/help")"
  # its own usage: no other command's synopsis
  others=$(grep -v "^\(usage:\)\? *$2 $3\( \|$\)" "$tmp/help" | grep -c "^\(usage:\)\? *$2 [a-z]")
  [ "$others" -eq 0 ] || fail "$2 $3 --help: other commands' usage too"
  "$1" "$3" -h >"$tmp/h" 2>&1 || fail "$2 $3 -h: status $?"
  cmp -s "$tmp/help" "$tmp/h" || fail "$2 $3 -h differs from --help"
  "$1" help "$3" >"$tmp/h" 2>&1 || fail "$2 help $3: status $?"
  cmp -s "$tmp/help" "$tmp/h" || fail "$2 help $3 differs from $3 --help"
}

"$GEN" --help >"$tmp/gen" 2>&1 || fail "perfrepro-gen --help: status $?"
gen_cmds=$(sed -n 's/^\(usage:\)\? *perfrepro-gen \([a-z][a-z-]*\).*/\2/p' "$tmp/gen" | grep -v '^help$' | sort -u)
[ "$(echo "$gen_cmds" | wc -w)" -ge 6 ] || fail "perfrepro-gen --help lists: $gen_cmds"
for c in $gen_cmds; do check_help "$GEN" perfrepro-gen "$c"; done
"$GEN" help >/dev/null 2>&1 || fail "perfrepro-gen help: status $?"
"$GEN" help no-such-command >/dev/null 2>&1 && fail "perfrepro-gen help no-such-command: status 0"

"$MEASURE" --help >"$tmp/measure" 2>&1 || fail "perfrepro-measure --help: status $?"
measure_cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' "$tmp/measure")
[ "$(echo "$measure_cmds" | wc -w)" -ge 2 ] || fail "perfrepro-measure --help lists: $measure_cmds"
for c in $measure_cmds; do check_help "$MEASURE" perfrepro-measure "$c"; done

# $1 binary, $2 its name, $3 a command, $4 what it is given, $5 the message
# expected (a grep pattern; empty: any): status 2, a message on stderr,
# nothing on stdout.  perfrepro-gen's commands also print their usage.
check_usage_error() {
  "$1" $3 $4 >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 2 ] || fail "$2 $3 $4: status $rc, not 2"
  [ -s "$tmp/out" ] && fail "$2 $3 $4: wrote to stdout"
  [ -s "$tmp/err" ] || fail "$2 $3 $4: no message"
  [ -z "$5" ] || grep -q "^$2: $3: $5" "$tmp/err" || fail "$2 $3 $4: not '$5': $(head -n 1 "$tmp/err")"
  [ "$2" = perfrepro-gen ] || return 0
  grep -q "^usage: $2 $3\( \|$\)" "$tmp/err" || fail "$2 $3 $4: no $3 usage: $(cat "$tmp/err")"
}

# Every command: an unknown option, a stray argument and an option without
# its value are usage errors (status 2).  The option tried is the first
# "--opt VALUE" of the command's synopsis.
for c in $gen_cmds; do
  check_usage_error "$GEN" perfrepro-gen "$c" --no-such-option 'unknown option "--no-such-option"'
  check_usage_error "$GEN" perfrepro-gen "$c" stray-argument 'unexpected argument "stray-argument"'
  "$GEN" "$c" --help >"$tmp/help" 2>&1
  opt=$(grep -o -- '--[a-z-]* [A-Za-z]' "$tmp/help" | head -n 1 | cut -d' ' -f1)
  [ -n "$opt" ] || { fail "perfrepro-gen $c: no --opt VALUE in its usage"; continue; }
  check_usage_error "$GEN" perfrepro-gen "$c" "$opt" "$opt needs a value"
done
for c in $measure_cmds; do
  check_usage_error "$MEASURE" perfrepro-measure "$c" --no-such-option ''
  "$MEASURE" "$c" --help >"$tmp/help" 2>&1
  opt=$(grep -o -- '--[a-z-]* [A-Z]' "$tmp/help" | head -n 1 | cut -d' ' -f1)
  [ -n "$opt" ] || { fail "perfrepro-measure $c: no --opt VALUE in its usage"; continue; }
  check_usage_error "$MEASURE" perfrepro-measure "$c" "$opt" ''
done
# perfrepro-measure import reads its options with lib/cli too: the same wording.
check_usage_error "$MEASURE" perfrepro-measure import --no-such-option 'unknown option "--no-such-option"'
check_usage_error "$MEASURE" perfrepro-measure import --from '--from needs a value'
# run and parse read their options with the same helper (lib/cli.c): the same wording.
check_usage_error "$MEASURE" perfrepro-measure run --no-such-option 'unknown option "--no-such-option"'
check_usage_error "$MEASURE" perfrepro-measure run --timeout '--timeout needs a value'
check_usage_error "$MEASURE" perfrepro-measure parse --no-such-option 'unknown option "--no-such-option"'
check_usage_error "$MEASURE" perfrepro-measure parse --rule '--rule needs a value'
# A required option left out is named (export --format).
check_usage_error "$GEN" perfrepro-gen export "--data data" '--format is required'
# An unknown command: status 2 and the program's usage, for both programs.
for b in "$GEN" "$MEASURE"; do
  "$b" no-such-command >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 2 ] || fail "$b no-such-command: status $rc"
  grep -q 'unknown command "no-such-command"' "$tmp/err" || fail "$b no-such-command: $(head -n 1 "$tmp/err")"
  "$b" help no-such-command >/dev/null 2>&1; rc=$?
  [ "$rc" -eq 2 ] || fail "$b help no-such-command: status $rc"
  "$b" >/dev/null 2>&1; rc=$?
  [ "$rc" -eq 2 ] || fail "$b without a command: status $rc"
  "$b" --version | grep -q "^perfrepro-[a-z]* [0-9]" || fail "$b --version"
done

# All missing required options named at once.
"$GEN" import-table >/dev/null 2>"$tmp/err" && fail "import-table without options: status 0"
for o in --markdown --table --after --column --model --framework --precision --batch-size \
         --unit --platform --repo --commit --path --out; do
  grep -q -- "$o\b" "$tmp/err" || fail "import-table without options does not name $o: $(cat "$tmp/err")"
done
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "import-table without options: not one line: $(cat "$tmp/err")"
"$GEN" import-table --markdown x.md --model M --table 1 --batch-size 8 >/dev/null 2>"$tmp/err"
grep -q -- "--markdown\|--model\|--table\|--batch-size" "$tmp/err" && fail "import-table names a given option: $(cat "$tmp/err")"
grep -q -- "--column.*--out" "$tmp/err" || fail "import-table, some given: $(cat "$tmp/err")"
"$GEN" import-env >/dev/null 2>"$tmp/err" && fail "import-env without options: status 0"
for o in --markdown --repo --commit --path --out; do
  grep -q -- "$o\b" "$tmp/err" || fail "import-env without options does not name $o: $(cat "$tmp/err")"
done

finish "cli help: ok ($(echo $gen_cmds $measure_cmds | wc -w) commands)"
