#!/bin/sh
# Fit reports (RUN/fit/CASE.json, gen/1-load/fitfile.c) are checked as everything
# else is: each rule by the one rule checker (lib/rulecfg.c: a profile
# "nope", a skip -3, a reduce "avg", a trim without trimmed_mean), each value
# as a record's FINAL_RESULT (-1 refused), each match against the value and
# the figure (1e308 marked as reproducing 1542.296), the figure as --fit
# takes it (0 refused).  Each is refused by `perfrepro-gen validate` with
# exit 1 and FILE:LINE:COL: field.path: what is wrong; the shipped reports
# load as they are.
. tests/scripts/lib/preamble.sh
need_bins GEN
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
cp -r data "$tmp/data"
# the first fit report with a rule listed, and the list it is in
pick=$(cd "$tmp/data" && python3 -c '
import glob, json
for p in sorted(glob.glob("runs/*/fit/*.json")):
    d = json.load(open(p))
    for l in ("reproduced", "truncated", "closest"):
        if d[l] and d[l][0]["values"][0] is not None:
            print(p, l); raise SystemExit
')
[ -n "$pick" ] || { echo "no fit report with a value in data/"; exit 77; }
set -- $pick
file=$1 list=$2
"$GEN" validate --data "$tmp/data" >/dev/null 2>"$tmp/err" || fail "the shipped data: $(cat "$tmp/err")"
cp "$tmp/data/$file" "$tmp/orig.json"
# refused CHANGE PATTERN: CHANGE (Python on d, the report, and c, its first
# candidate in $list) makes validate exit 1 with PATTERN (grep -E) after FILE:LINE:COL:.
refused() {
  python3 - "$tmp/orig.json" "$tmp/data/$file" "$list" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d[sys.argv[3]][0]
exec(sys.argv[4])
with open(sys.argv[2], "w") as f:
    json.dump(d, f, ensure_ascii=False, indent=1)
    f.write("\n")
PY
  "$GEN" validate --data "$tmp/data" >/dev/null 2>"$tmp/err"
  rc=$?
  [ $rc -eq 1 ] || { fail "$1: exit $rc, expected 1: $(head -c 300 "$tmp/err")"; return; }
  grep -Eq -- "fit/[^:]*\.json:[0-9]+:[0-9]+: $2" "$tmp/err" ||
    fail "$1: message does not match '$2': $(head -c 400 "$tmp/err")"
}
L=$(echo "$list" | sed 's/[][]/\\&/g')
refused 'c["rule"]["profile"] = "nope"' "$L\[0\]\.rule\.profile: unknown value \"nope\""
refused 'c["rule"]["skip"] = -3' "$L\[0\]\.rule\.skip: -3 is out of range"
refused 'c["rule"]["reduce"] = "avg"' "$L\[0\]\.rule\.reduce: unknown value \"avg\""
refused 'c["rule"].pop("reduce", None); c["rule"]["trim"] = {"fraction": 0, "min": 1}' \
  "$L\[0\]\.rule\.trim: only used with \"reduce\": \"trimmed_mean\""
refused 'c["rule"]["scope"] = "per_gpu"' "$L\[0\]\.rule\.scope: unknown value \"per_gpu\""
refused 'c["values"][0] = -1' "$L\[0\]\.values\[0\]: -1: a value is a finite number >= 0"
refused 'c["values"][0] = 1e308' "$L\[0\]\.matches\[0\]: \"[a-z]+\" does not say what 1e\+308 is to the figure"
refused 'c["values"][0] = None' "$L\[0\]\.matches\[0\]: \"[a-z]+\" for a rule that gave no value"
refused 'd["figures"][0]["figure"] = "0"' "figures\[0\]\.figure: \"0\" cannot be a result"
refused 'd["figures"][0]["figure"] = "1e3"' "figures\[0\]\.figure: \"1e3\" is not a figure as printed"
refused 'c["matches"][0] = "no value"' "$L\[0\]\.matches\[0\]: \"no value\" does not say what"
# a rule listed where its match does not belong
other=reproduced; [ "$list" = reproduced ] && other=truncated
refused "d['$other'] = [c]" "$other\[0\]\.matches\[0\]: \"[a-z]+\" in \"$other\""
cp "$tmp/orig.json" "$tmp/data/$file"
"$GEN" validate --data "$tmp/data" >/dev/null 2>"$tmp/err" || fail "restored: $(cat "$tmp/err")"
finish ok
