#!/bin/sh
# What a fresh, minimal Debian 12 machine runs into before any test:
#   - the README's quick start says how to get make (a new machine has none);
#   - parsing the Makefile (and measure/gpu/gpu.mk) where pkg-config is
#     missing prints nothing on stderr ("pkg-config: not found" twice before);
#   - scripts/deps.sh's test list holds what the tests use (procps for pgrep,
#     valgrind for the memcheck tests), so CI skips none of them;
#   - the test objects survive a `make test`, so a second one relinks nothing.
. tests/scripts/lib/preamble.sh

# The quick start: the first fenced block after "## Quick start".
awk '/^## Quick start/{q=1} q&&/^```sh/{b=1;next} b&&/^```/{exit} b' README.md >"$tmp/quick"
grep -q 'apt-get install.* make' "$tmp/quick" || fail "the quick start does not say how to get make: $(cat "$tmp/quick")"
grep -qx 'make reports' "$tmp/quick" || fail "the quick start lost 'make reports'"
grep -qx 'make test' "$tmp/quick" || fail "the quick start lost 'make test'"

# A PATH with the usual tools but no pkg-config.
mkdir -p "$tmp/bin"
for t in sh dash bash make cc gcc ls cat cut printf cksum sed grep rm mkdir touch find sort tr \
         uname awk mawk head tail env dirname basename expr id test true false nvcc; do
  p=$(command -v "$t" 2>/dev/null) && [ -n "$p" ] && [ -x "$p" ] && ln -sf "$p" "$tmp/bin/$t"
done
[ -e "$tmp/bin/make" ] || { echo "skip: make is not installed"; exit 77; }
[ ! -e "$tmp/bin/pkg-config" ] || fail "pkg-config still on the test PATH"
PATH="$tmp/bin" make -n all BUILD="$tmp/build" >"$tmp/out" 2>"$tmp/err"
if grep -q 'not found' "$tmp/err"; then fail "make without pkg-config prints: $(grep 'not found' "$tmp/err" | head -n 3)"; fi

# deps.sh's test list.
for p in procps valgrind libcriterion-dev; do
  sed -n 's/^test="\(.*\)"$/\1/p' scripts/deps.sh | tr ' ' '\n' | grep -qx "$p" ||
    grep -q "^test=\".*\\b$p\\b" scripts/deps.sh || fail "scripts/deps.sh test does not install $p"
done

# A test that needs pgrep says so and fails without it: before, two skipped
# and one passed without looking for jobs left running.
for t in tests/scripts/*.sh; do
  grep -q 'pgrep' "$t" || continue
  case $t in */setup_fresh.sh) continue ;; esac
  grep -q 'command -v pgrep.*exit 1' "$t" || fail "$t uses pgrep without failing when it is missing"
done

# The test objects are not deleted as intermediates.
b="${BUILD:-build}"
for o in "$b"/tests/*_*; do
  case $o in *.o|*.d) continue ;; esac
  [ -x "$o" ] || continue
  [ -f "$o.o" ] || fail "$o.o was deleted after linking (the next make test relinks)"
done
finish "ok"
