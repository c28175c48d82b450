#!/bin/sh
# Fails unless reports/ is exactly what the repository commits: CI runs it
# after `make reports`.  A check that cannot run fails too: without git, or
# when `git status` itself fails, nothing was compared (issue 31, 16: inside
# `$( )` under `set -e` a missing git read as "no changes").
set -eu
cd "$(dirname "$0")/.."
if ! command -v git >/dev/null 2>&1; then
  echo "ci: cannot check reports/: git is not installed" >&2
  exit 1
fi
if ! changed=$(git status --porcelain -- reports); then
  echo "ci: cannot check reports/: git status failed" >&2
  exit 1
fi
if [ -n "$changed" ]; then
  echo "ci: make reports changed the committed reports/:" >&2
  printf '%s\n' "$changed" | head -n 20 >&2
  exit 1
fi
echo "ci: reports/ is up to date"
