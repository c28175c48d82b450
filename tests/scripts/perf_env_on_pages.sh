#!/bin/sh
# For the shipped Perf run sets: every item of the source README's
# environment groups a run set names (data/runs/*/runset.json ->
# data/environments/*.json) appears on its framework page, in both
# languages, linked to its README line; and every log that prints a
# container build, framework version or CUDA version has it on the page,
# linked to its log line.  Reads the committed reports/: CI's `make
# reports` check keeps them current.
set -eu
[ -d data/environments ] && ls data/runs/perf-*/runset.json >/dev/null 2>&1 ||
  { echo "perf_env_on_pages: no Perf run sets in data/ (skipped)"; exit 77; }
python3 - <<'PY'
import glob, json, os, sys
bad, items, facts = [], 0, 0
for rs in sorted(glob.glob("data/runs/perf-*/runset.json")):
    run = os.path.dirname(rs)
    decl = json.load(open(rs))
    rec = json.load(open(sorted(glob.glob(run + "/logs/index/*_speed"))[0]))
    for page in ("README.md", "README.en.md"):
        path = "reports/%s/%s/%s" % (rec["model"], rec["framework"], page)
        # The page and its machines' pages (PLATFORM-*.md, fw_split.h).
        en = page.endswith(".en.md")
        text = "".join(open(p, encoding="utf-8").read() for p in [path] + sorted(
            q for q in glob.glob(os.path.join(os.path.dirname(path), "PLATFORM-*.md"))
            if q.endswith(".en.md") == en))
        for ref in decl.get("environment", []):
            env = json.load(open("data/environments/%s.json" % ref["file"]))
            group = [g for g in env["groups"] if g["title"] == ref["group"]]
            if len(group) != 1:
                bad.append("%s: group %r not found once" % (rs, ref["group"]))
                continue
            for it in group[0]["items"]:
                items += 1
                anchor = "%s#L%d" % (env["source"]["url"], it["line"])
                if it.get("end_line"):
                    anchor += "-L%d" % it["end_line"]
                if anchor + ")" not in text:
                    bad.append("%s: %s line %d (%s) not linked" % (path, ref["file"], it["line"], it.get("key", it["kind"])))
                elif it["kind"] not in ("topology", "text") and it["value"].replace("*", "\\*") not in text \
                        and "`%s`" % it["value"] not in text:
                    bad.append("%s: %s line %d: value %r not shown" % (path, ref["file"], it["line"], it["value"]))
        for idx in sorted(glob.glob(run + "/logs/index/*_speed")):
            r = json.load(open(idx))
            for f in r.get("log_facts", []):
                if f["key"] in ("container.build", "framework.version", "cuda.version", "cudnn.version"):
                    facts += 1
                    if f["value"] not in text:
                        bad.append("%s: %s's %s %r not shown" % (path, r["case"], f["key"], f["value"]))
for b in bad[:20]:
    print("perf_env_on_pages:", b)
if bad:
    sys.exit(1)
print("perf_env_on_pages: ok: %d README items and %d log facts on the pages" % (items, facts))
PY
