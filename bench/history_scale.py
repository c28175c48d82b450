#!/usr/bin/env python3
"""make bench, case "history": perfrepro-gen history on one published series
of N points (issue 31 item 19: change points by E-divisive means, which was
cubic in a series' length).  Also a data-folder writer for tests:
    history_scale.py OUT_DIR POINTS [PINS]
writes OUT_DIR with one platform and one published source whose N tables are
N dated revisions of one cell (log-normal noise with two steps), and PINS
pins in history.json (one per point from the second, as many as there are)."""
import datetime
import json
import math
import os
import random
import sys


def write_data(out, points, pins=0, seed=20261128):
    rng = random.Random(seed)
    os.makedirs(out + "/platforms", exist_ok=True)
    os.makedirs(out + "/published", exist_ok=True)
    json.dump({"perfrepro": 1, "title": {"zh": "Synthetic GPU × 8", "en": "Synthetic GPU x 8"},
               "device": {"kind": "gpu", "model": "Synthetic GPU", "memory_gb": 80, "per_node": 8}},
              open(out + "/platforms/Synthetic-GPU-x8.json", "w"))
    day0 = datetime.date(1990, 1, 1)
    tables, dates = [], []
    for i in range(points):
        level = 1000.0 * (1.2 if i >= points // 3 else 1.0) * (0.85 if i >= 2 * points // 3 else 1.0)
        date = (day0 + datetime.timedelta(days=i)).isoformat()
        dates.append(date)
        tables.append({"model": "Model", "framework": "Fw", "precision": "fp32", "batch_size": 64,
                       "unit": "images/s", "platform": "Synthetic-GPU-x8",
                       "variant": {"zh": "修订 %d" % i, "en": "revision %d" % i},
                       "source": {"commit": "%040x" % (i + 1), "path": "README.md", "date": date,
                                  "url": "https://example.org/r/%d" % i},
                       "rows": [{"nodes": 1, "gpus": 1, "gpus_per_node": 1,
                                 "throughput": round(level * math.exp(rng.gauss(0, 0.02)), 2)}]})
    json.dump({"perfrepro": 1, "label": "Synthetic", "source": {"title": "Synthetic", "repo": "o/r"},
               "tables": tables}, open(out + "/published/1-synth.json", "w"))
    if pins:
        mark = {"model": "Model", "framework": "Fw", "platform": "Synthetic-GPU-x8",
                "precision": "fp32", "batch_size": 64, "nodes": 1, "gpus": 1, "source": "Synthetic"}
        json.dump({"perfrepro": 1,
                   "pins": [dict(mark, date=d, note={"zh": "钉住", "en": "pinned"})
                            for d in dates[1:pins + 1]]},
                  open(out + "/history.json", "w"))


if __name__ == "__main__":
    write_data(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)


def bench(run, points=10000):
    """The make bench case (run: bench/run.py's module, for its helpers):
    perfrepro-gen history --format json on a series of `points` points (1000
    under BENCH_QUICK), from a data folder written beforehand; target < 2 s."""
    points = 1000 if run.QUICK else points
    data = os.path.join(run.TMP, "history-%d" % points)
    write_data(data, points)
    gen = os.path.join(run.ROOT, "bin", "perfrepro-gen")
    cmd = "%s history --data %s --format json" % (gen, data)
    t = run.hyperfine(["sh -c '%s > /dev/null'" % cmd], 3, names=["perfrepro-gen history"])[0]
    rss = run.peak_rss(cmd + " > /dev/null", True)
    run.record("history", "历史：一个 %d 点序列的变化点" % points,
               "History: change points of a %d-point series" % points, "s", False,
               [run.result(run.T("perfrepro-gen history（%d 点）" % points,
                                 "perfrepro-gen history (%d points)" % points),
                           t, lambda s: s, dict(rss, points=points))],
               None, {"text": run.T("%d 点 < 2 s" % points, "%d points in < 2 s" % points),
                      "met": t["median"] < 2.0},
               "perfrepro-gen history --data DATA --format json",
               run.T("DATA：一个已发布来源的 %d 个修订版（对数正态噪声，两处阶跃），"
                     "bench/history_scale.py 生成" % points,
                     "DATA: one published source's %d revisions (log-normal noise, two steps), "
                     "written by bench/history_scale.py" % points))
