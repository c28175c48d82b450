#!/bin/sh
# The CI check that reports/ is what the repository commits
# (scripts/reports-up-to-date.sh) fails when it cannot run: without git on
# PATH, and when git status fails (not a repository); it passes on a clean
# copy and fails naming the file when a report changed (issue 31, 16).
. tests/scripts/lib/preamble.sh
command -v git >/dev/null 2>&1 || { echo "git not installed"; exit 77; }
mkdir -p "$tmp/repo/scripts" "$tmp/repo/reports" "$tmp/bin"
cp scripts/reports-up-to-date.sh "$tmp/repo/scripts/"
echo a >"$tmp/repo/reports/README.md"
(cd "$tmp/repo" && git init -q && git add . &&
  git -c user.name=t -c user.email=t@t commit -qm init) || { echo "git init failed"; exit 1; }
sh "$tmp/repo/scripts/reports-up-to-date.sh" >"$tmp/out" 2>&1 ||
  fail "a clean copy fails: $(cat "$tmp/out")"
echo b >"$tmp/repo/reports/README.md"
if sh "$tmp/repo/scripts/reports-up-to-date.sh" >"$tmp/out" 2>&1; then
  fail "a changed report passes"
fi
grep -q "reports/README.md" "$tmp/out" || fail "the changed file is not named: $(cat "$tmp/out")"
git -C "$tmp/repo" checkout -q -- reports
# A PATH with the shell's tools but no git.
for t in sh dirname head printf cat; do ln -s "$(command -v $t)" "$tmp/bin/$t"; done
if PATH="$tmp/bin" "$tmp/bin/sh" "$tmp/repo/scripts/reports-up-to-date.sh" >"$tmp/out" 2>&1; then
  fail "passes without git: $(cat "$tmp/out")"
fi
grep -q "git is not installed" "$tmp/out" || fail "no reason without git: $(cat "$tmp/out")"
# Not a repository: git status fails.
rm -rf "$tmp/repo/.git"
if GIT_CEILING_DIRECTORIES="$tmp" sh "$tmp/repo/scripts/reports-up-to-date.sh" >"$tmp/out" 2>&1; then
  fail "passes when git status fails: $(cat "$tmp/out")"
fi
grep -q "git status failed" "$tmp/out" || fail "no reason when git status fails: $(cat "$tmp/out")"
finish "ok"
