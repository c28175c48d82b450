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
    under BENCH_QUICK), from a data folder written beforehand, then the same
    series with a pin on every step (issue 31 item 20: the pins' duplicate
    and place checks were quadratic, 2*10^4 pins 69 s); target < 2 s each."""
    points = 1000 if run.QUICK else points
    gen = os.path.join(run.ROOT, "bin", "perfrepro-gen")
    cmds, datas = [], []
    for pins in (0, points - 1):
        data = os.path.join(run.TMP, "history-%d-%d" % (points, pins))
        write_data(data, points, pins)
        datas.append(data)
        cmds.append("%s history --data %s --format json" % (gen, data))
    t = run.hyperfine(["sh -c '%s > /dev/null'" % c for c in cmds], 3,
                      names=["perfrepro-gen history", "perfrepro-gen history (pins)"])
    results = []
    for i, (label_zh, label_en) in enumerate((("%d 点" % points, "%d points" % points),
                                              ("%d 点，%d 个钉住" % (points, points - 1),
                                               "%d points, %d pins" % (points, points - 1)))):
        rss = run.peak_rss(cmds[i] + " > /dev/null", True)
        results.append(run.result(run.T("perfrepro-gen history（%s）" % label_zh,
                                        "perfrepro-gen history (%s)" % label_en),
                                  t[i], lambda s: s, dict(rss, points=points)))
    run.record("history", "历史：一个 %d 点序列的变化点" % points,
               "History: change points of a %d-point series" % points, "s", False, results,
               None, {"text": run.T("%d 点 < 2 s（有无钉住）" % points,
                                    "%d points in < 2 s (with and without pins)" % points),
                      "met": all(r["median"] < 2.0 for r in results)},
               "perfrepro-gen history --data DATA --format json",
               run.T("DATA：一个已发布来源的 %d 个修订版（对数正态噪声，两处阶跃），"
                     "bench/history_scale.py 生成；第二行的 history.json 钉住每一步" % points,
                     "DATA: one published source's %d revisions (log-normal noise, two steps), "
                     "written by bench/history_scale.py; the second row's history.json pins "
                     "every step" % points))
