#!/bin/sh
# Issue 33 item 5, the published side of a manifest:
#   - several "published" lines: each typed figure is linked to the page of
#     the last published line above it, at the line that prints it
#     (data/published/import-MANIFEST.json: a table per page, its source
#     path, line and URL #L);
#   - a figure with no log (run, rule and log "-"): carried as a published
#     figure, no record, no run folder; the plan says so;
#   - refused, naming the line: a no-log figure without a published line, a
#     published page that links out of the source or is a FIFO, a
#     log "-" under a run set, one table's figures on two pages.
. tests/scripts/lib/preamble.sh
. tests/scripts/lib/setup.sh
set -e
mkdir -p "$tmp/src/logs"
repo_copy
log() { # log IPS
  i=1
  while [ $i -le 20 ]; do
    printf '2024-01-02 10:00:%02d [INFO]\t[TRAIN] epoch: 1, iter: %d/400, loss: 1.0, lr: 0.01, batch_cost: 0.4, reader_cost: 0.001, ips: %s samples/sec | ETA 00:02:00\n' \
      $i $((i * 5)) "$1"
    i=$((i + 1))
  done
}
log 20.0000 >"$tmp/src/logs/a_gpu1.log"
log 30.0000 >"$tmp/src/logs/b_gpu1.log"
printf '# Model A\n\nWe measured\n\n- 1 GPU: 120.00 (no), 20.00 samples/s\n' >"$tmp/src/A.md"
printf '# Model B\n\n| GPUs | samples/s |\n|---|---|\n| 1 | 30.00 |\n| 8 | 230.50 |\n' >"$tmp/src/B.md"
R='{"profile": "paddle-ips", "scope": "per_card", "unit": "samples/s"}'
row() { # row RUN CASE MODEL GPUS RULE FIGURE LOG
  printf '%s\t%s\t%s\tPaddle\tV100-SXM2-32GB-x8\tfp32\t-\t%s\t8\t-\tsamples/s\t%s\t%s\t%s\n' "$@"
}
src='source	toy/toy	0123456789abcdef0123456789abcdef01234567'
{
  echo "$src"
  printf 'published\tA.md\tModel A figures\n'
  row toy-a a_gpu1 ModelA 1 "$R" 20.00 logs/a_gpu1.log
  printf 'published\tB.md\tModel B figures\n'
  row toy-b b_gpu1 ModelB 1 "$R" 30.00 logs/b_gpu1.log
  row - b_gpu8 ModelB 8 - 230.50 -
} >"$tmp/repo/toy.tsv"
cd "$tmp/repo"
"$MEASURE" import toy.tsv --from "$tmp/src" >"$tmp/plan" 2>&1 || die "the import failed: $(cat "$tmp/plan")"
grep -q 'b_gpu8 .*published only: figure 230.50, no log' "$tmp/plan" || die "the plan: $(cat "$tmp/plan")"
[ -e data/runs/- ] && die "a run folder for the figure with no log"
ls data/runs/toy-b/logs/index | grep -q b_gpu8 && die "a record for the figure with no log"
got=$(python3 -c 'import json
for t in json.load(open("data/published/import-toy.json"))["tables"]:
  s = t["source"]
  print(t["model"], s["path"], s.get("line"), s["url"].rsplit("/", 1)[1], s["title"], *[r["printed"] for r in t["rows"]])')
want='ModelA A.md 5 A.md#L5 Model A figures 20.00
ModelB B.md 5 B.md#L5 Model B figures 30.00 230.50'
[ "$got" = "$want" ] || die "import-toy.json: got
$got"
"$GEN" build >"$tmp/build" 2>&1 || die "build failed: $(tail -5 "$tmp/build")"
grep -rqF '230.50†' reports/ModelB || die "the page of ModelB does not show the figure with no log"
grep -rqF 'B.md#L5' reports/ModelB || die "the page of ModelB does not link B.md#L5"

bad() { # bad NAME EXPECTED LINE...
  name=$1 want=$2
  shift 2
  printf '%s\n' "$@" >"$tmp/$name.tsv"
  rc=0
  "$MEASURE" import "$tmp/$name.tsv" --from "$tmp/src" --dry-run >/dev/null 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || die "$name: exit $rc, not 2 ($(cat "$tmp/err"))"
  grep -qF "$tmp/$name.tsv:$want" "$tmp/err" || die "$name: expected \"$want\", got: $(cat "$tmp/err")"
}
bad nopub '3: figure: a figure with no log is carried on its published page' "$src" \
  "$(row toy-a a_gpu1 ModelA 1 "$R" 20.00 logs/a_gpu1.log)" "$(row - b_gpu8 ModelB 8 - 230.50 -)"
bad runlog '3: run: a figure with no log has "-" as its run' "$src" 'published	B.md	B' \
  "$(row toy-b b_gpu8 ModelB 8 "$R" 230.50 -)"
bad twopages '5: figure: 230.50: ModelB Paddle fp32 BS=8 samples/s on V100-SXM2-32GB-x8 has figures on two published pages (A.md, and B.md above this line)' \
  "$src" 'published	A.md	A' "$(row toy-c b_gpu1 ModelB 1 "$R" 30.00 logs/b_gpu1.log)" 'published	B.md	B' \
  "$(row - b_gpu8 ModelB 8 - 230.50 -)"
# The page is read for its lines: a link out of the source or a FIFO is refused.
ln -s /etc/passwd "$tmp/src/evil.md"
mkfifo "$tmp/src/fifo.md"
bad evil '2: published:' "$src" 'published	evil.md	E' "$(row - b_gpu8 ModelB 8 - 230.50 -)"
bad fifo '2: published:' "$src" 'published	fifo.md	F' "$(row - b_gpu8 ModelB 8 - 230.50 -)"
echo "import_published: ok"
