#!/bin/sh
# make bench's records (bench/run.py, bench/site_bench.sh) name the commit
# they were measured at, the machine, and for each result the runs timed as
# the timing tool counted them, never a number typed beside it (the site
# row said "runs: 3" while site_bench.sh ran 10: issue #22).  hyperfine and
# hugo are stubs here: they take no time, so nothing is timed, and the
# stub's times are as many as the --runs it was given.  gen then renders
# the records: commit and machine on the page, the runs from the data.
. tests/scripts/lib/preamble.sh
set -e
command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed"; exit 77; }
git rev-parse HEAD >/dev/null 2>&1 || { echo "not a git checkout"; exit 77; }
mkdir -p "$tmp/stubs" "$tmp/data/bench"

cat >"$tmp/stubs/hyperfine" <<'EOF'
#!/usr/bin/env python3
# hyperfine --runs N --export-json FILE [-n NAME | --command-name NAME] [--prepare CMD]... CMD...
# Runs nothing; exports N made-up times per command.
import json, sys
a, i, runs, out, names, cmds = sys.argv[1:], 0, 10, None, [], []
while i < len(a):
    if a[i] in ("--runs", "--export-json", "-n", "--command-name", "--prepare", "--style", "--warmup"):
        v = a[i + 1]
        if a[i] == "--runs": runs = int(v)
        elif a[i] == "--export-json": out = v
        elif a[i] in ("-n", "--command-name"): names.append(v)
        i += 2
    elif a[i].startswith("-"):
        i += 1
    else:
        cmds.append(a[i]); i += 1
res = []
for k, c in enumerate(cmds):
    times = [0.5 + 0.1 * (k + 1) + 0.001 * j for j in range(runs)]
    res.append({"command": names[k] if k < len(names) else c, "mean": sum(times) / runs,
                "median": sorted(times)[runs // 2], "min": min(times), "max": max(times), "times": times})
json.dump({"results": res}, open(out, "w"))
EOF
cat >"$tmp/stubs/hugo" <<'EOF'
#!/bin/sh
# hugo version | hugo ... -d OUT: writes one page.
[ "${1:-}" = version ] && { echo "hugo v0.0.0-stub"; exit 0; }
while [ $# -gt 0 ]; do
  [ "$1" = -d ] && { mkdir -p "$2" && : >"$2/index.html"; }
  shift
done
EOF
chmod +x "$tmp/stubs/hyperfine" "$tmp/stubs/hugo"

# site: site_bench.sh with RUNS=4 (its default is 10); gen and gen-growth
# with the sizes of a smoke run.
PATH="$tmp/stubs:$PATH" RUNS=4 BENCH_QUICK=1 BENCH_ONLY=site,gen BENCH_OUT="$tmp/data/bench" \
  python3 bench/run.py >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; die "bench/run.py failed"; }
for b in site gen gen-growth; do
  [ -f "$tmp/data/bench/$b.json" ] || { cat "$tmp/run.log"; die "no $b.json"; }
done

head=$(git rev-parse HEAD)
python3 - "$tmp/data/bench" "$head" <<'EOF' || die "records lack what they must name"
import json, sys
d, head = sys.argv[1], sys.argv[2]
def rec(name):
    return json.load(open("%s/%s.json" % (d, name)))
for name in ("site", "gen", "gen-growth"):
    r = rec(name)
    assert r["commit"]["id"] == head, (name, r["commit"])
    assert isinstance(r["commit"]["dirty"], bool), (name, r["commit"])
    m = r["machine"]
    assert m["cpu_model"] and m["cpu_count"] >= 1 and m["memory_mb"] >= 1, (name, m)
# the runs site_bench.sh timed (RUNS=4), counted from its times
site = rec("site")
assert [x["runs"] for x in site["results"]] == [4, 4], site["results"]
assert all("min" in x and "max" in x for x in site["results"]), site["results"]
# hyperfine's runs: 5 for gen, 3 per size for the growth, one invocation
assert [x["runs"] for x in rec("gen")["results"]] == [5], rec("gen")["results"]
assert [x["runs"] for x in rec("gen-growth")["results"]] == [3, 3], rec("gen-growth")["results"]
# the peak memory: the largest of as many runs as it says
g = rec("gen")["results"][0]
assert g["peak_rss_mb"] > 0 and g["peak_rss_runs"] == 3, g
EOF

# gen renders them: the commit and the machine named, the runs the data's;
# one machine, one commit: no note.
"$GEN" build --no-charts --data "$tmp/data" --templates templates --out "$tmp/out" >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; die "gen refused the records"; }
en="$tmp/out/perfrepro-bench/README.en.md"
short=$(echo "$head" | cut -c1-12)
[ "$(grep -c "^- Commit: \`$short\`" "$en")" -eq 3 ] || { cat "$en"; die "commit not named"; }
grep -q '^- Machine: .*, [0-9]* logical CPUs, [0-9.]* GiB of memory' "$en" || { cat "$en"; die "machine not named"; }
grep -q '^| perfrepro-gen site | [0-9.]* | [0-9.]* – [0-9.]* | 4 |' "$en" || { cat "$en"; die "site runs"; }
grep -q '(max of 3 runs) |$' "$en" || { cat "$en"; die "peak memory runs"; }
if grep -q '^> \*\*Note' "$en"; then cat "$en"; die "a note on one machine and commit"; fi
cat "$tmp/run.log"; echo "bench_records: ok"
