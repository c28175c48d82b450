#!/bin/sh
# The rule an import finds for a run set with fit: (issue 30, finding 3): the
# rule that reproduces most of its printed figures, one for the whole run
# set (its 32-GPU speedup stays); when no rule reproduces any figure, the
# skeleton as given (the profile's defaults: the mean of the steps), never
# the closest guess (the smallest record, chosen for being nearest the
# printed figure), which the audit names instead.  Two rules given to one
# run set are refused, naming the line.  Synthetic logs and manifests only.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
mkdir -p "$tmp/src/logs"
toy_gpu_data
# Per-card records 100.16..119.16 (every record: 109.66 per card).
steps() { # FILE FIRST COUNT
  i=0
  while [ $i -lt "$3" ]; do echo "step $i, ips: $(($2 + i)).16 samples/sec"; i=$((i + 1)); done >"$1"
}
steps "$tmp/src/logs/a_g1.log" 100 20
steps "$tmp/src/logs/a_g32.log" 100 20
# One log alone whose printed figure no rule gives: records 429.36 .. 433.36
# per card (mean 431.36), printed 428.
printf 'step 0, ips: 429.36 samples/sec\nstep 1, ips: 433.36 samples/sec\nstep 2, ips: 430.36 samples/sec\nstep 3, ips: 432.36 samples/sec\nstep 4, ips: 431.36 samples/sec\n' \
  >"$tmp/src/logs/b_g1.log"
tab=$(printf '\t')
skel='fit:{"profile":"paddle-ips","scope":"per_card"}'
{
  echo "source${tab}owner/repo${tab}0123456789abcdef0123456789abcdef01234567"
  echo "published${tab}README.md${tab}Toy README"
  # Run set a: 1 GPU printed as every record gives it (109.66); 32 GPUs
  # printed as nothing gives it (3600, against 3509.12).
  echo "a${tab}toy_gpu1${tab}Toy${tab}Fw${tab}Toy-GPU-x8${tab}amp${tab}1${tab}1${tab}64${tab}-${tab}samples/s${tab}$skel${tab}109.66${tab}logs/a_g1.log"
  echo "a${tab}toy_gpu32${tab}Toy${tab}Fw${tab}Toy-GPU-x8${tab}amp${tab}4${tab}32${tab}64${tab}-${tab}samples/s${tab}$skel${tab}3600${tab}logs/a_g32.log"
  echo "b${tab}toy_gpu1${tab}Toy${tab}Gw${tab}Toy-GPU-x8${tab}amp${tab}1${tab}1${tab}64${tab}-${tab}samples/s${tab}$skel${tab}428${tab}logs/b_g1.log"
} >"$tmp/m.tsv"
rc=0
(cd "$tmp" && "$MEASURE" import m.tsv --from src --data data) >"$tmp/out" 2>&1 || rc=$?
[ $rc -le 1 ] || { cat "$tmp/out"; die "import failed (exit $rc)"; }
rec() { sed -n 's/.*"FINAL_RESULT": *\([0-9.e+-]*\).*/\1/p' "$tmp/data/runs/$1/logs/index/$2_speed"; }
rule() { sed -n 's/.*"rule": *\({[^}]*}\).*/\1/p' "$tmp/data/runs/$1/logs/index/$2_speed" | head -1; }
# Run set b: no rule reproduces 428; the skeleton's mean of the steps, not
# the smallest record.
v=$(rec b toy_gpu1)
case "$v" in 431.36*) ;; *) cat "$tmp/out"; die "b: $v, not the mean of the steps (431.36)" ;; esac
grep -qF 'no rule of the search reproduces a figure of run set b: its rule is the skeleton as given' "$tmp/out" ||
  { cat "$tmp/out"; die "the plan does not say the skeleton was kept"; }
grep -qF '"closest"' "$tmp/data/runs/b/fit/toy_gpu1.json" || die "b: no fit report with the closest rule"
# Run set a: one rule for both cases (the one that reproduces 109.66).
v=$(rec a toy_gpu1)
case "$v" in 109.66*) ;; *) die "a: 1 GPU $v, not 109.66" ;; esac
[ "$(rule a toy_gpu1)" = "$(rule a toy_gpu32)" ] || die "a: two rules in one run set"
(cd "$tmp" && "$GEN" build --data data --templates templates --out reports --no-charts) ||
  die "build failed"
# A framework's pages as one file: its README, then its machines' pages
# (PLATFORM-*.md, fw_split.h).
e="$tmp/pages-e.en.md"
cat "$tmp/reports/Toy/Fw/README.en.md" $(ls "$tmp/reports/Toy/Fw"/PLATFORM-*.en.md 2>/dev/null) >"$e"
grep -qF '| 4 | 32 | 3509.12‡ | — | 1 (20) | 32.00 | 100.0% |' "$e" ||
  { cat "$e"; die "a: the 32-GPU speedup within the run set"; }
a="$tmp/reports/AUDIT.en.md"
grep -F '[428†]' "$a" | grep -F '[431.360‡]' | grep -qF 'no rule reproduces it; closest:' ||
  { cat "$a"; die "the audit: 428 against the run set's value, the closest rule named there"; }
# Two given rules in one run set: refused before anything is written.
sed -e 's/fit:{"profile":"paddle-ips","scope":"per_card"}/{"profile":"paddle-ips","scope":"per_card","skip":2}/' \
  -e '/toy_gpu32/s/"skip":2/"skip":0/' "$tmp/m.tsv" >"$tmp/two.tsv"
rm -rf "$tmp/data/runs"
rc=0
(cd "$tmp" && "$MEASURE" import two.tsv --from src --data data) >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] || { cat "$tmp/out"; die "two rules in one run set: exit $rc"; }
grep -qF 'two.tsv:4: rule: "{"profile":"paddle-ips","scope":"per_card","skip":0}", but line 3 gives run set a the rule' "$tmp/out" ||
  { cat "$tmp/out"; die "two rules in one run set: unclear error"; }
grep -qF 'one rule per run set' "$tmp/out" || die "the error does not say one rule per run set"
[ ! -e "$tmp/data/runs/a" ] || die "a run set of two rules was written"
echo ok
