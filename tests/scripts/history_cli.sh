#!/bin/sh
# perfrepro-gen history on the shipped data, and the feed make reports
# writes from it:
#   - NVIDIA DeepLearningExamples' ResNet50 README revisions are a published
#     series: on V100-SXM2-16GB-x8, FP32 BS=112 and AMP BS=256, 1 and 8 GPUs,
#     five points each (2019-05-27 ... 2021-04-20), in date order;
#   - md (zh, en), json and csv agree on the series and points, and each is
#     byte-identical when run twice;
#   - the build's regressions.atom and regressions.en.atom parse with
#     python3's xml.etree as Atom: <updated> the newest point's date, one
#     entry per notable point of the JSON (a state other than ok, a change
#     point, or a step seen and unjudged), unique tag: ids;
#   - perfrepro-gen check accepts the pages, and the site copies the feed and
#     names it in its index's head;
#   - a feed made from hostile data (U+FFFE, U+FFFF, C0 controls in a label)
#     is well-formed (issue 31 item 13).
. tests/scripts/lib/preamble.sh
need_bins GEN
[ -f data/published/11-ngc-rn50-readme.json ] ||
  { echo "history_cli: no shipped NVIDIA README revisions (skipped)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "history_cli: no python3 (skipped)"; exit 77; }
out=$(mktemp -d ./.history-cli-XXXXXX)
cleanup_add "$out"

for f in json csv md; do
  for lang in zh en; do
    "$GEN" history --format "$f" --lang "$lang" >"$tmp/a.$f.$lang" 2>"$tmp/err" ||
      { fail "history --format $f --lang $lang: $(cat "$tmp/err")"; continue; }
    "$GEN" history --format "$f" --lang "$lang" --out "$tmp/b.$f.$lang" 2>"$tmp/err" ||
      fail "history --out: $(cat "$tmp/err")"
    cmp -s "$tmp/a.$f.$lang" "$tmp/b.$f.$lang" || fail "history --format $f --lang $lang differs between runs"
  done
done
"$GEN" history --format xml >/dev/null 2>&1; [ $? -eq 2 ] || fail "--format xml is no usage error"

python3 - "$tmp" <<'PY' || fail "the series (above)"
import csv, json, sys
tmp = sys.argv[1]
d = json.load(open(f"{tmp}/a.json.en"))
want = ["2019-05-27", "2019-12-20", "2020-06-27", "2021-03-04", "2021-04-20"]
bad = 0
for prec, bs in (("fp32", 112), ("amp", 256)):
    for gpus in (1, 8):
        s = [x for x in d["series"] if x["kind"] == "published" and x["model"] == "ResNet50"
             and x["framework"] == "NGC-PyTorch" and x["platform"] == "V100-SXM2-16GB-x8"
             and x["precision"] == prec and x["batch_size"] == bs and x["gpus"] == gpus
             and x.get("source") == "NVIDIA DeepLearningExamples"]
        if len(s) != 1:
            print(f"{prec} bs{bs} {gpus} GPUs: {len(s)} series"); bad += 1; continue
        dates = [p["date"] for p in s[0]["points"]]
        if dates != want:
            print(f"{prec} bs{bs} {gpus} GPUs: points {dates}"); bad += 1
        for p in s[0]["points"]:
            if p["runs"] != 1 or p["state"] not in ("ok", "suspect", "outlier", "regression", "improvement"):
                print("bad point", p); bad += 1
            if not p["url"].startswith("https://github.com/NVIDIA/DeepLearningExamples/blob/"):
                print("bad url", p["url"]); bad += 1
if any(x["kind"] == "reproduced" and len(x["points"]) < 2 for x in d["series"]) or \
   any(len(x["points"]) < 2 for x in d["series"]):
    print("a series of fewer than 2 points"); bad += 1
npts = sum(len(x["points"]) for x in d["series"])
rows = list(csv.reader(open(f"{tmp}/a.csv.en", newline="")))
if rows[0][:3] != ["series", "kind", "model"] or len(rows) != npts + 1:
    print(f"csv: {len(rows)} rows for {npts} points"); bad += 1
for lang in ("zh", "en"):
    md = open(f"{tmp}/a.md.{lang}", encoding="utf-8").read()
    for date in want:
        if f"| {date} |" not in md:
            print(f"md {lang}: no row of {date}"); bad += 1
    if md.count("\n## ") - 1 != len(d["series"]):  # the table of contents' heading too
        print(f"md {lang}: {md.count(chr(10) + '## ')} headings for {len(d['series'])} series"); bad += 1
json.dump(sum(1 for x in d["series"] for p in x["points"]
              if p["state"] != "ok" or p["change_point"] or p["step_seen"]), open(f"{tmp}/notable", "w"))
json.dump(max(p["date"] for x in d["series"] for p in x["points"]), open(f"{tmp}/newest", "w"))
sys.exit(1 if bad else 0)
PY

"$GEN" build --data data --templates templates --out "$out" --no-charts >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; exit 1; }
for f in regressions.atom regressions.en.atom; do
  python3 - "$out/$f" "$tmp" <<'PY' || fail "$f (above)"
import json, sys, xml.etree.ElementTree as ET
A = "{http://www.w3.org/2005/Atom}"
root = ET.parse(sys.argv[1]).getroot()
tmp = sys.argv[2]
bad = 0
if root.tag != A + "feed":
    print("root", root.tag); sys.exit(1)
newest = json.load(open(f"{tmp}/newest"))
if root.findtext(A + "updated") != newest + "T00:00:00Z":
    print("updated", root.findtext(A + "updated"), "newest", newest); bad += 1
for k in ("id", "title", "author"):
    if root.find(A + k) is None:
        print("feed has no", k); bad += 1
entries = root.findall(A + "entry")
if len(entries) != json.load(open(f"{tmp}/notable")):
    print(len(entries), "entries"); bad += 1
ids = [e.findtext(A + "id") for e in entries]
if len(set(ids)) != len(ids) or not all(i.startswith("tag:perfrepro,2026:history/") for i in ids):
    print("ids", ids); bad += 1
for e in entries:
    if not e.findtext(A + "title") or not e.findtext(A + "updated", "").endswith("T00:00:00Z") \
       or e.find(A + "link") is None:
        print("entry", ET.tostring(e)); bad += 1
sys.exit(1 if bad else 0)
PY
done
"$GEN" build --data data --templates templates --out "$tmp/again" --no-charts >/dev/null 2>&1 &&
  cmp -s "$out/regressions.atom" "$tmp/again/regressions.atom" || fail "the feed differs between builds"
for lang in "" .en; do
  grep -q "(REGRESSIONS$lang.md)" "$out/README$lang.md" || fail "README$lang.md does not link REGRESSIONS$lang.md"
  grep -q "(HISTORY$lang.md)" "$out/ResNet50/NGC-PyTorch/README$lang.md" ||
    fail "the NGC PyTorch page does not link HISTORY$lang.md"
  grep -q "(regressions$lang.atom)" "$out/REGRESSIONS$lang.md" || fail "REGRESSIONS$lang.md does not link its feed"
done
"$GEN" check --reports "$out" --root . >"$tmp/log" 2>&1 || fail "check: $(tail -5 "$tmp/log")"
"$GEN" site --reports "$out" --out "$tmp/site" --root . >"$tmp/log" 2>&1 || fail "site: $(tail -3 "$tmp/log")"
cmp -s "$out/regressions.atom" "$tmp/site/regressions.atom" || fail "the site does not publish regressions.atom"
[ -f "$tmp/site/ResNet50/NGC-PyTorch/history.en.html" ] || fail "the site has no history.en.html"
grep -q '<link rel="alternate" type="application/atom+xml" href="regressions.atom">' "$tmp/site/index.html" ||
  fail "the site's index does not name its feed"
grep -q 'href="regressions.en.atom">' "$tmp/site/index.en.html" || fail "index.en.html does not name its feed"

# Issue 31 item 13: a feed made from hostile data (a source label with
# U+FFFE, U+FFFF, C0 controls and markup) is well-formed XML: python3's
# parser reads both feeds, and the entries' titles keep the rest of the label.
python3 - "$tmp/hostile" <<'PY' || fail "the hostile data folder"
import json, sys
sys.path.insert(0, "bench")
import history_scale
out = sys.argv[1]
history_scale.write_data(out, 30)
p = out + "/published/1-synth.json"
d = json.load(open(p))
d["label"] = "Vendor \ufffe\uffff \u0001\u001b\u007f & <x> \"q\" \ud7ff\ue000 end"
json.dump(d, open(p, "w"), ensure_ascii=False)
PY
"$GEN" build --data "$tmp/hostile" --templates templates --out "$tmp/hostile-out" --no-charts >"$tmp/log" 2>&1 ||
  fail "build of the hostile data: $(tail -3 "$tmp/log")"
for f in regressions.atom regressions.en.atom; do
  python3 - "$tmp/hostile-out/$f" <<'PY' || fail "hostile $f is not well-formed (above)"
import sys, xml.etree.ElementTree as ET
A = "{http://www.w3.org/2005/Atom}"
titles = [e.findtext(A + "title") for e in ET.parse(sys.argv[1]).getroot().findall(A + "entry")]
if not titles or not all('Vendor  \x7f & <x> "q" \ud7ff\ue000 end' in t for t in titles):
    print(titles[:2]); sys.exit(1)
PY
done
finish "history_cli: ok"
