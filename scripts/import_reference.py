#!/usr/bin/env python3
"""Converts ../shared/reference/*.json (published tables collected from DLPerf
and NVIDIA DeepLearningExamples) into perfrepro published-figure files under
data/published/.  Run once when the reference data changes:
    python3 scripts/import_reference.py ../shared/reference data/published
Only the environments NVIDIA's README revisions state, into the committed
(translated) NGC file:
    python3 scripts/import_reference.py --ngc-environments ../shared/reference \
        data/published/11-ngc-rn50-readme.json
The output is committed; perfrepro-gen validates it like any data file."""
import json
import re
import sys

FRAMEWORKS = [  # (prefix of the reference's framework text, id, title)
    ("NGC PyTorch", "NGC-PyTorch", "NGC PyTorch"),
    ("PyTorch 1.6", "PyTorch", "PyTorch"),
    ("PaddlePaddle", "Paddle", "PaddlePaddle"),
]
MODELS = {"ResNet50 v1.5": ("ResNet50", "ResNet50 v1.5"),
          "BERT-Base pretraining": ("BERT-Base", "BERT-Base pretraining")}
PRECISIONS = {"fp32": "fp32", "amp": "amp", "fp16 (amp)": "amp", "fp16": "fp16"}


def framework(text):
    for prefix, ident, title in FRAMEWORKS:
        if text.startswith(prefix):
            return ident, title
    raise SystemExit("unknown framework: " + text)


def dlperf(src):
    tables = []
    for t in src["tables"]:
        fid, ftitle = framework(t["framework"])
        mid, mtitle = MODELS[t["model"]]
        rows = []
        for r in t["rows"]:
            row = {"nodes": r["node_count"], "gpus": r["gpu_count"]}
            if "gpus_per_node" in r:
                row["gpus_per_node"] = r["gpus_per_node"]
            row["throughput"] = r["throughput"]
            row["speedup"] = r["speedup"]
            rows.append(row)
        tables.append({
            "model": mid, "model_title": mtitle, "framework": fid, "framework_title": ftitle,
            "precision": PRECISIONS[t["precision"]], "batch_size": t["batch_size_per_device"],
            "unit": t["unit"], "variant": t["variant"] or None,
            "note": t["framework"],
            "source": {"repo": t["source_repo"], "path": t["source_path"],
                       "commit": t["source_commit_last_modified"], "line": t["source_line"],
                       "url": "https://github.com/%s/blob/%s/%s#L%d" % (
                           t["source_repo"], t["source_commit_last_modified"],
                           t["source_path"], t["source_line"])},
            "rows": rows})
        if not tables[-1]["variant"]:
            del tables[-1]["variant"]
    return {"perfrepro": 1, "label": "DLPerf",
            "source": {"title": "Oneflow-Inc/DLPerf", "repo": "Oneflow-Inc/DLPerf",
                       "url": "https://github.com/Oneflow-Inc/DLPerf"},
            "environment": {"gpu": "Tesla V100-SXM2-16GB × 8 per node",
                            "network": "InfiniBand 100 Gb/s", "nodes": "4"},
            "platform": "V100-SXM2-16GB-x8",
            "tables": tables}


# The machine of each README system heading (data/platforms/ID.json).
def ngc_platform(system):
    for pattern, ident in ((r"A100 80GB", "A100-SXM4-80GB-x8"), (r"A100 40GB", "A100-SXM4-40GB-x8"),
                           (r"^DGX2V? \(16x V100 32G\)", "V100-SXM3-32GB-x16"),
                           (r"V100 32G", "V100-SXM2-32GB-x8"), (r"V100 16G", "V100-SXM2-16GB-x8")):
        if re.search(pattern, system):
            return ident
    raise SystemExit("no platform for the README system " + system)


# What a README revision states beside its tables ("... in the pytorch-21.03
# NGC container on NVIDIA DGX A100 (8x A100 80GB)"), as the reference
# records it: the system heading the table is under, and the revision's
# container where the reference has one.  Nothing typed here.
def ngc_environment(rev, system):
    env = {"gpu": system}
    if rev.get("container"):
        env["image"] = rev["container"]
    return env


# The README line of each environment item, where the reference gives one
# (a system's "line", a revision's "container_line"): the page links the
# item to it, and says so where there is none (today's reference records no
# line, so none is written).
def ngc_environment_lines(rev, system):
    lines = {}
    if isinstance(rev["systems"][system].get("line"), int):
        lines["gpu"] = rev["systems"][system]["line"]
    if rev.get("container") and isinstance(rev.get("container_line"), int):
        lines["image"] = rev["container_line"]
    return lines


def ngc(src):
    bs = src["measurement_method"]["per_gpu_batch_size_configs_yml"]
    tables = []
    for rev in src["revisions"]:
        for system, data in rev["systems"].items():
            a100 = "A100" in system
            dgx2 = "DGX2" in system
            base = data["baseline_precision"].lower()
            base_bs = bs["DGXA100 TF32"] if a100 else bs["DGX2V FP32"] if dgx2 else bs["DGX1V FP32"]
            note = ("README revision %s (%s%s); batch size per GPU from configs.yml at %s%s"
                    % (rev["commit"][:8], rev["date"],
                       ", container " + rev["container"] if rev.get("container") else "",
                       src["repo_snapshot_head"][:8],
                       "" if rev.get("still_current_at_head") else
                       " (this revision does not print it)"))
            for precision, key, batch in ((base, "baseline_ips", base_bs), ("amp", "amp_ips", 256)):
                rows = []
                for r in data["rows"]:
                    row = {"nodes": 1, "gpus": r["gpus"], "gpus_per_node": r["gpus"],
                           "throughput": r[key]}
                    scaling = r.get("baseline_strong_scaling" if key == "baseline_ips"
                                    else "amp_strong_scaling")
                    if isinstance(scaling, (int, float)):
                        row["speedup"] = scaling
                    rows.append(row)
                tables.append({
                    "model": "ResNet50", "model_title": "ResNet50 v1.5",
                    "framework": "NGC-PyTorch", "framework_title": "NGC PyTorch",
                    "precision": precision, "batch_size": batch, "unit": "images/s",
                    "variant": "%s, %s" % (system, rev["date"]), "note": note,
                    "platform": ngc_platform(system),
                    "environment": ngc_environment(rev, system),
                    **({"environment_lines": ngc_environment_lines(rev, system)}
                       if ngc_environment_lines(rev, system) else {}),
                    "source": {"commit": rev["commit"], "path": rev["path"], "date": rev["date"],
                               "url": "https://github.com/%s/blob/%s/%s" % (
                                   src["repo"], rev["commit"], rev["path"])},
                    "rows": rows})
    return {"perfrepro": 1, "label": "NVIDIA DeepLearningExamples",
            "source": {"title": "NVIDIA DeepLearningExamples: ResNet50 v1.5 for PyTorch",
                       "repo": src["repo"]},
            "tables": tables}


def add_ngc_environments(ref, path):
    """Sets each table's "environment" of the committed NGC file (whose
    translations were added after its import) from the reference, text line
    by text line so that nothing else of the file changes; run again, it
    changes nothing."""
    with open("%s/ngc-rn50-published.json" % ref, encoding="utf-8") as f:
        tables = ngc(json.load(f))["tables"]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    current = json.loads(text)["tables"]
    if len(current) != len(tables):
        raise SystemExit("%s: %d tables, the reference gives %d" % (path, len(current), len(tables)))
    for mine, theirs in zip(current, tables):
        if (mine["source"]["commit"], mine["platform"], mine["precision"]) != (
                theirs["source"]["commit"], theirs["platform"], theirs["precision"]):
            raise SystemExit("%s: table order differs from the reference's" % path)
    out, k = [], 0
    for line in text.split("\n"):
        if re.match(r'^\s*"environment(_lines)?": \{.*\},$', line):
            continue  # replaced below
        out.append(line)
        m = re.match(r'^(\s*)"platform": ".*",$', line)
        if m:
            out.append('%s"environment": %s,' % (
                m.group(1), json.dumps(tables[k]["environment"], ensure_ascii=False)))
            if tables[k].get("environment_lines"):
                out.append('%s"environment_lines": %s,' % (
                    m.group(1), json.dumps(tables[k]["environment_lines"])))
            k += 1
    new = "\n".join(out)
    json.loads(new)
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)


def main():
    # --ngc-environments REF FILE: only the environments of FILE's NGC tables.
    if sys.argv[1] == "--ngc-environments":
        add_ngc_environments(sys.argv[2], sys.argv[3])
        return
    ref, out = sys.argv[1], sys.argv[2]
    for name, conv, dest in (("dlperf-tables.json", dlperf, "10-dlperf.json"),
                             ("ngc-rn50-published.json", ngc, "11-ngc-rn50-readme.json")):
        with open("%s/%s" % (ref, name), encoding="utf-8") as f:
            data = conv(json.load(f))
        with open("%s/%s" % (out, dest), "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
