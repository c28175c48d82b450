#!/bin/sh
# perfrepro-measure import given hostile or careless files and folders
# (issue 31; docs/import.md, "Files and folders").  Each check names its
# item; every refused import must exit 2 and leave the data folder exactly
# as it was (checksums of every file).
#   2  a log or LICENSE that is a symbolic link out of --from is refused
#      (a link inside --from is followed);
#   4  a run folder the manifest did not make (a measure run folder, another
#      manifest's run set), and import-NAME.json of another manifest NAME.tsv,
#      are replaced only with --replace;
#   10 a typed figure out of range, two run sets giving one configuration a
#      figure, a runsets/RUN.json or suites/RUN.json gen refuses: refused
#      before anything is written;
#   14 a log over the run set's log limit (measure run's default 1 GiB) is
#      refused; a sparse log stays sparse;
#   6  gen skips a staging folder in data/runs (.RUN.staging.PID), the next
#      import removes it (a dead writer's); validate refuses a fit report searched for another figure than the table prints;
#   15 a killed (dry) run's staging copy is removed by the next import.
# Self-contained (no ../shared).
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
DEAD=999999999
tab=$(printf '\t')
cd "$tmp"
mkdir -p data src/logs
cp -R "$ROOT/data/platforms" data/
awk 'BEGIN { for (i = 0; i < 50; i++) printf "step %d, ips: 10%d.0 samples/sec\n", i, i % 10 }' >src/logs/a.log
echo "the source's licence" >src/LICENSE
echo "SECRET-TOKEN-1234" >secret.txt
RULE='{"keyword": "ips:", "scope": "global"}'
# line RUN CASE GPUS FIGURE LOG: one manifest line of model M, framework F.
line() { printf '%s\t%s\tM\tF\tV100-SXM2-32GB-x8\tfp32\t1\t%s\t8\t-\tsamples/s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$RULE" "$4" "$5"; }
head_() { printf 'source\to/r\t0123456789abcdef0123456789abcdef01234567\npublished\tREADME.md\tThe page\n'; }
{ head_; line r1 c1 1 104.5 logs/a.log; } >m.tsv
imp() { "$MEASURE" import "$@" --gen "$GEN" >out 2>err; rc=$?; }
sums() { (cd data && find . -type f ! -name '.*' -exec sha256sum {} + | sort); }
imp m.tsv --from src --data data
[ "$rc" -eq 0 ] || fail "the plain import failed (exit $rc): $(cat err)"
# refused WHAT: the import just run exited 2 naming WHAT, data unchanged.
refused() {
  [ "$rc" -eq 2 ] || fail "$1: exit $rc, not 2 (refused): $(cat err)"
  grep -q -- "$2" err || fail "$1: the message does not say \"$2\": $(cat err)"
  sums >after
  cmp -s before after || fail "$1: the refused import wrote: $(diff before after | head -5)"
}

# ---- 2: links out of --from
sums >before
ln -s "$tmp/secret.txt" src/logs/evil.log
{ head_; line r1 c1 1 104.5 logs/evil.log; } >evil.tsv
imp evil.tsv --from src --data data
refused "2: a log linking out of --from" "evil.tsv:3: log: logs/evil.log"
grep -rq SECRET-TOKEN data && fail "2: the linked secret reached data/"
mv src/LICENSE src/LICENSE.real
ln -s "$tmp/secret.txt" src/LICENSE
imp m.tsv --from src --data data
refused "2: a LICENSE linking out of --from" "LICENSE"
grep -rq SECRET-TOKEN data && fail "2: the linked secret LICENSE reached data/"
rm src/LICENSE
ln -s LICENSE.real src/LICENSE
ln -s a.log src/logs/inside.log
{ head_; line r1 c1 1 104.5 logs/inside.log; } >m.tsv
imp m.tsv --from src --data data
[ "$rc" -eq 0 ] || fail "2: a link inside --from was refused: $(cat err)"
cmp -s data/runs/r1/LICENSE src/LICENSE.real || fail "2: the LICENSE linked inside --from was not copied"
{ head_; line r1 c1 1 104.5 logs/a.log; } >m.tsv

# ---- 4: run folders it did not make
mkdir -p data/runs/measured/logs/index
echo '{}' >data/runs/measured/env.json
sums >before
{ head_; line measured c1 1 104.5 logs/a.log; } >m4.tsv
imp m4.tsv --from src --data data
refused "4: a measure run folder" "give --replace"
[ -f data/runs/measured/env.json ] || fail "4: the measure run folder was replaced"
rm -rf data/runs/measured
sums >before
{ printf 'source\to/r\t0123456789abcdef0123456789abcdef01234567\n'; line r1 c1 1 - logs/a.log; } >other.tsv
imp other.tsv --from src --data data
refused "4: another manifest's run set" "runs/r1: exists and was not made by this manifest"
imp other.tsv --from src --data data --replace
[ "$rc" -eq 0 ] || fail "4: --replace did not replace: $(cat err)"
grep -q 'perfrepro-measure import other.tsv' data/runs/r1/SOURCE.md || fail "4: --replace: SOURCE.md"
imp m.tsv --from src --data data --replace
imp m.tsv --from src --data data
[ "$rc" -eq 0 ] || fail "4: re-importing its own run set: $(cat err)"
"$MEASURE" import --help | grep -q -- '--replace' || fail "4: --help does not name --replace"
mkdir -p sub
{ head_; line r9 c9 2 204.5 logs/a.log; } >sub/m.tsv
sums >before
imp sub/m.tsv --from src --data data
refused "4: a second manifest m.tsv writing import-m.json" "import-m.json already holds the figures of another manifest"

# ---- 10: what the build would refuse
sums >before
{ head_; line r1 c1 1 99999999999999999999999 logs/a.log; } >big.tsv
imp big.tsv --from src --data data
refused "10: a figure out of range" "big.tsv:3: figure: \"99999999999999999999999\": not a number in range"
{ head_; line r1 c1 1 104.5 logs/a.log; line r2 c2 1 104.6 logs/a.log; } >m.tsv
imp m.tsv --from src --data data --replace
refused "10: one configuration in two run sets" "a second typed figure for M F fp32 BS=8"
{ head_; line r1 c1 1 104.5 logs/a.log; } >m.tsv
mkdir -p runsets suites
echo '{"perfrepro": 1, "title": "x", "bogus": 1}' >runsets/r1.json
imp m.tsv --from src --data data
refused "10: a runsets/RUN.json gen refuses" "would not load"
rm runsets/r1.json
echo '{"perfrepro": 1, "model": "M", "framework": "F", "unit": "samples/s", "command": ["true"], "model_name": "m", "mission_name": "x", "direction_id": 1, "rule": {"keyword": "ips:"}, "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [8], "precision": ["fp32"]}}' >suites/r1.json
imp m.tsv --from src --data data
refused "10: a suites/RUN.json whose cases are not the run's" "would not load"
rm suites/r1.json

# ---- 14: log size
cp src/logs/a.log src/logs/sparse.log
truncate -s 40M src/logs/sparse.log
cat src/logs/a.log >>src/logs/sparse.log
{ head_; line r1 c1 1 104.5 logs/sparse.log; } >m.tsv
imp m.tsv --from src --data data
[ "$rc" -le 1 ] || fail "14: a 40 MB sparse log: exit $rc: $(cat err)"
cmp -s src/logs/sparse.log data/runs/r1/logs/train_log/c1 || fail "14: the sparse log's copy differs"
k=$(du -k data/runs/r1/logs/train_log/c1 | cut -f1)
[ "$k" -lt 4096 ] || fail "14: the 40 MB sparse log takes $k KB in data/ (not sparse)"
sums >before
cp src/logs/a.log src/logs/huge.log
truncate -s 1100M src/logs/huge.log
{ head_; line r1 c1 1 104.5 logs/huge.log; } >huge.tsv
imp huge.tsv --from src --data data
refused "14: a log over the 1 GiB limit" "over the limit of 1073741824 bytes (a log's: log_limit_mib"
rm src/logs/huge.log
{ head_; line r1 c1 1 104.5 logs/a.log; } >m.tsv
imp m.tsv --from src --data data

# ---- 6: staging names and fit figures in gen
cp -R data/runs/r1 "data/runs/.r1.staging.$DEAD"
"$GEN" validate --data data >out 2>err || fail "6: validate with a staging folder in runs/: $(cat err)"
grep -q ' 1 runs, 1 records: valid' out || fail "6: gen loads .r1.staging.PID as a run set: $(cat out)"
imp m.tsv --from src --data data
[ "$rc" -eq 0 ] || fail "6: import beside a dead staging folder in runs/: $(cat err)"
[ ! -e "data/runs/.r1.staging.$DEAD" ] || fail "6: the import keeps a dead writer's .r1.staging.PID"
cp data/published/import-m.json pub.bak
sed 's/"printed": "104.5"/"printed": "104.6"/; s/"throughput": 104.5/"throughput": 104.6/' pub.bak >data/published/import-m.json
"$GEN" validate --data data >out 2>err && fail "6: validate accepts a fit report searched for another figure than the table prints"
grep -q 'searched for 104.5' err || fail "6: validate's message: $(cat err)"
cp pub.bak data/published/import-m.json

# ---- 15: what killed imports and dry runs left beside data
mkdir ".data.staging.$DEAD"
imp m.tsv --from src --data data --dry-run
[ "$rc" -eq 0 ] || fail "15: the dry run failed: $(cat err)"
[ ! -e ".data.staging.$DEAD" ] || fail "15: a dead import's staging copy stays beside data"
[ -z "$(ls -a | grep '^\.data\.staging\.')" ] || fail "15: the dry run left its staging copy: $(ls -a)"

finish "import_fs_hostile: ok"
