# The opening every test script shares, sourced as its first line after the
# header comment:  . tests/scripts/lib/preamble.sh
# Scripts run from the repository root (tests/run.sh); tests/run.sh runs only
# tests/scripts/*.sh, so this folder holds no test.  It sets:
#   set -u
#   ROOT      the repository root ($PWD)
#   GEN, MEASURE  the binaries under test as absolute paths: the environment's
#             values (relative ones made absolute) or bin/perfrepro-gen and
#             bin/perfrepro-measure
#   tmp       a fresh temporary folder, removed on exit (also on SIGINT and
#             SIGTERM); KEEP=1 keeps it and says where it is
#   fails     0, the count of fail's failures
# and the functions:
#   need_bins GEN [MEASURE]  exit 77, "no PATH (run make first)", when the
#             binary is not there (PATH as given, before it was made absolute)
#   fail MESSAGE  prints "FAIL: MESSAGE", counts it and goes on
#   die MESSAGE   prints "NAME: MESSAGE" (NAME: the script's) and exits 1
#   cleanup_add PATH  removes PATH on exit too (a second folder, a file)
#   at_exit   not defined here: a script that needs more on exit (stopping
#             the processes it started) defines it; it runs before removals
#   finish MESSAGE  the last line: exit 1 after "N failure(s)" when fail was
#             called, else prints MESSAGE and exits 0
# Variables and functions of its own begin with preamble_.

set -u
ROOT=$PWD
preamble_name=$(basename "$0" .sh)
# What the caller gave, for need_bins' message; the absolute path to run.
preamble_given_GEN=${GEN:-bin/perfrepro-gen}
preamble_given_MEASURE=${MEASURE:-bin/perfrepro-measure}
preamble_abs() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
GEN=$(preamble_abs "$preamble_given_GEN")
MEASURE=$(preamble_abs "$preamble_given_MEASURE")

need_bins() { # NAME... (GEN, MEASURE)
  for preamble_var in "$@"; do
    preamble_path='' preamble_given=''
    eval "preamble_path=\$$preamble_var preamble_given=\$preamble_given_$preamble_var"
    [ -x "$preamble_path" ] || { echo "no $preamble_given (run make first)"; exit 77; }
  done
}

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
die() { echo "$preamble_name: $*" >&2; exit 1; }
finish() { # MESSAGE
  [ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
  echo "$*"
  exit 0
}

# The paths removed on exit, each quoted for eval: mktemp's names hold no
# quote, but a path given to cleanup_add may.
preamble_paths=
cleanup_add() { # PATH
  preamble_paths="$preamble_paths '$(printf '%s' "$1" | sed "s/'/'\\\\''/g")'"
}
preamble_exit() {
  if command -v at_exit >/dev/null 2>&1; then at_exit; fi
  if [ -n "${KEEP:-}" ]; then
    echo "kept:$preamble_paths" >&2
    return
  fi
  # u+w first: a test that made a folder read-only must not leave it behind
  # (|| :, a path already gone is no failure under a script's set -e).
  eval "chmod -R u+w $preamble_paths 2>/dev/null || :; rm -rf $preamble_paths"
}
tmp=$(mktemp -d) || { echo "mktemp -d failed"; exit 1; }
cleanup_add "$tmp"
trap preamble_exit EXIT
# A signal ends the script through exit, so that the EXIT trap runs.
trap 'exit 130' INT
trap 'exit 143' TERM
