#!/bin/sh
# scripts/deps.sh keeps apt-get's and dpkg's progress (some 600 lines on a
# fresh system) out of the output unless the install fails, when it shows
# all of it and keeps the log.  Runs against test doubles of apt-get,
# dpkg-query and id (tests/fakes/deps/), so no root and nothing installed.
. tests/scripts/lib/preamble.sh
mkdir "$tmp/bin" "$tmp/t"
cp tests/fakes/deps/apt-get tests/fakes/deps/dpkg-query tests/fakes/deps/id "$tmp/bin/"
chmod +x "$tmp/bin/"*
export FAKE_APT_CALLS="$tmp/calls" TMPDIR="$tmp/t"
deps() { env PATH="$tmp/bin:$PATH" sh scripts/deps.sh "$@" >"$tmp/out" 2>"$tmp/err"; }

# --- root, packages missing, the install succeeds: a few lines, no noise
: >"$tmp/calls"
deps build; rc=$?
[ "$rc" -eq 0 ] || fail "success: status $rc: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" -le 4 ] || fail "success: $(wc -l <"$tmp/err") lines: $(head -n 8 "$tmp/err")"
grep -q "Setting up\|Unpacking\|Hit:" "$tmp/err" "$tmp/out" && fail "success: apt's progress shown"
grep -q "installing 11 packages" "$tmp/err" || fail "success: the count is not said: $(cat "$tmp/err")"
grep -q "installed 11 packages" "$tmp/err" || fail "success: the end is not said: $(cat "$tmp/err")"
grep -q "^apt-get update" "$tmp/calls" || fail "no apt-get update: $(cat "$tmp/calls")"
grep -q "^apt-get install .*--no-install-recommends .*libjansson-dev" "$tmp/calls" ||
  fail "apt-get install not as expected: $(cat "$tmp/calls")"
[ -z "$(ls "$tmp/t")" ] || fail "success: the log is left behind: $(ls "$tmp/t")"

# --- the install fails: all of apt's output, the reason, the log kept
: >"$tmp/calls"
FAKE_APT_FAIL=1 deps test; rc=$?
[ "$rc" -ne 0 ] || fail "failure: status 0"
[ "$(grep -c '^Setting up fake-package' "$tmp/err")" -eq 300 ] || fail "failure: apt's output not shown in full"
grep -q "E: Sub-process /usr/bin/dpkg returned an error code" "$tmp/err" || fail "failure: apt's error not shown"
log=$(ls "$tmp/t"/perfrepro-deps.* 2>/dev/null | head -n 1)
[ -n "$log" ] && grep -q "E: Sub-process" "$log" || fail "failure: no log kept in $tmp/t"
[ -n "$log" ] && grep -q "kept in $log" "$tmp/err" || fail "failure: the log is not named: $(tail -n 1 "$tmp/err")"
grep -q "libcriterion-dev" "$tmp/calls" || fail "test packages not asked for: $(cat "$tmp/calls")"

# --- not root: the command to run, nothing installed
: >"$tmp/calls"
FAKE_UID=1000 deps build; rc=$?
[ "$rc" -eq 1 ] || fail "not root: status $rc"
grep -q "run: sudo apt-get update && sudo apt-get install -y --no-install-recommends" "$tmp/err" ||
  fail "not root: no command: $(cat "$tmp/err")"
[ -s "$tmp/calls" ] && fail "not root: apt-get was run: $(cat "$tmp/calls")"

# --- everything installed: silent
FAKE_DPKG_ALL=1 deps test; rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ] || fail "all installed: status $rc, $(cat "$tmp/err")"

finish "deps quiet: ok"
