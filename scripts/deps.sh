#!/bin/sh
# Checks that the Debian packages perfrepro builds and tests with are
# installed.  As root it installs the missing ones with apt-get; otherwise it
# stops and prints the exact command to run.
#   scripts/deps.sh build|test|bench|cluster|torch|scipy|lint|fuzz
set -eu
build="gcc make pkg-config libjansson-dev libpcre2-dev libcairo2-dev libpango1.0-dev libcmark-gfm-dev libcmark-gfm-extensions-dev fonts-noto-cjk zlib1g-dev"
# procps: pgrep in the process tests; valgrind: the memcheck tests; git: CI's
# check that reports/ is what the repository commits (scripts/reports-up-to-date.sh).
test="$build libcriterion-dev procps valgrind git"
# hugo: the peer of the site and scale-hugo cases (Debian 12: 0.111.3).
bench="$test hyperfine python3-matplotlib valgrind hugo"
cluster="openmpi-bin libopenmpi-dev slurm-wlm munge"
# Debian's PyTorch: the CPU suite (data/suites/ResNet50/PyTorch-CPU.json) and its test.
# libopenblas0-pthread: an optimised BLAS behind Debian's libblas.so.3 (the
# alternatives system switches to it). Without it PyTorch's CPU convolutions
# that fall back to BLAS run on the reference BLAS: with one thread, 33 of
# ResNet-50's 53 convolutions took that path and a step ran 15x slower than
# with two threads (issue 30; docs/measure-run.md#cpu-results).
torch="python3-torch python3-torchvision libopenblas0-pthread"
# Debian's SciPy: the independent cross-checks of compare's and history's
# statistics (tests/scripts/abstat_scipy.sh, trend_scipy.sh, compare_cli.sh).
scipy="python3-scipy"
# make lint: the include rule (Python), cppcheck and clang-format (the house format, .clang-format).
lint="python3 cppcheck clang-format git"
# make fuzz: clang with libFuzzer (tests/fuzz/fuzz.mk).
fuzz="$test clang libclang-rt-14-dev"
case "${1:-build}" in
  build) want=$build ;;
  test) want=$test ;;
  bench) want=$bench ;;
  cluster) want=$cluster ;;
  torch) want=$torch ;;
  scipy) want=$scipy ;;
  lint) want=$lint ;;
  fuzz) want=$fuzz ;;
  *) echo "usage: $0 build|test|bench|cluster|torch|scipy|lint|fuzz" >&2; exit 2 ;;
esac
missing=""
for p in $want; do
  st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "perfrepro: missing packages:$missing (no apt-get here: install them with your package manager)" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "perfrepro: missing packages:$missing" >&2
  echo "run: sudo apt-get update && sudo apt-get install -y --no-install-recommends$missing" >&2
  exit 1
fi
n=$(echo $missing | wc -w)
# apt-get and dpkg write some 600 lines of progress on a fresh system: they
# go to a log, shown only when the install fails.
log=$(mktemp "${TMPDIR:-/tmp}/perfrepro-deps.XXXXXX")
echo "perfrepro: installing $n packages and their dependencies with apt-get (a few minutes on" >&2
echo "  a fresh system: README, \"What the first run installs\"); its output goes to $log" >&2
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "perfrepro: installing$missing failed (apt-get's output above, kept in $log)" >&2
  exit 1
fi
rm -f "$log"
echo "perfrepro: installed $n packages" >&2
