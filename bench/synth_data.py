#!/usr/bin/env python3
"""Writes a synthetic perfrepro data folder for benchmarks:
    synth_data.py OUT_DIR REPORTS RECORDS_PER_REPORT
REPORTS model x framework pairs (10 frameworks per model), each with one suite,
RECORDS_PER_REPORT records (with logs) and one published table."""
import json
import os
import sys

out, reports, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
frameworks = ["Fw%d" % i for i in range(10)]
gpu_rows = [(1, 1), (1, 2), (1, 4), (1, 8), (2, 16), (4, 32)]
configs = [("fp32", 64), ("fp32", 128), ("amp", 128), ("amp", 256)]
os.makedirs(out + "/suites", exist_ok=True)
os.makedirs(out + "/published", exist_ok=True)
# One platform: the run's GPU and the published tables' machine, so that
# records and published figures meet in the same tables.
os.makedirs(out + "/platforms", exist_ok=True)
json.dump({"perfrepro": 1, "title": {"zh": "Synthetic GPU × 8", "en": "Synthetic GPU x 8"},
           "device": {"kind": "gpu", "model": "Synthetic GPU", "memory_gb": 80, "per_node": 8}},
          open(out + "/platforms/Synthetic-GPU-x8.json", "w"))
run = out + "/runs/synth"
os.makedirs(run + "/logs/index", exist_ok=True)
os.makedirs(run + "/logs/train_log", exist_ok=True)
json.dump({"perfrepro": 1, "captured_at": "2026-11-20T00:00:00Z",
           "host": {"cpu_model": "Synthetic CPU", "cpu_count": 64},
           "gpu": {"name": "Synthetic GPU", "count": 8}, "framework": None},
          open(run + "/env.json", "w"))
tables = []
for i in range(reports):
    model, fw = "Model%04d" % (i // 10), frameworks[i % 10]
    json.dump({"perfrepro": 1, "model": model, "framework": fw, "model_name": "clas_" + model,
               "mission_name": "图像分类", "direction_id": 0, "unit": "images/s",
               "command": ["train", "--bs", "{batch_size}"],
               "matrix": {"nodes": [1], "gpus_per_node": [1, 8], "batch_size": [64],
                          "precision": ["fp32"]},
               "rule": {"keyword": "ips:", "scope": "per_card"}},
              open("%s/suites/%s_%s.json" % (out, model, fw), "w"))
    tables.append({"model": model, "framework": fw, "precision": "fp32", "batch_size": 64,
                   "unit": "images/s",
                   "rows": [{"nodes": n, "gpus": g, "throughput": 100.0 * g} for n, g in gpu_rows]})
    k = 0
    for rep in range(1, 100):
        for prec, bs in configs:
            for n, g in gpu_rows:
                if k == per:
                    break
                case = "clas_%s_%s_%s_bs%d_%s_%d_r%d" % (model, fw, "mp" if g > 1 else "sp", bs, prec, g, rep)
                rec = {"log_file": "logs/train_log/" + case, "model_name": "clas_" + model,
                       "mission_name": "图像分类", "direction_id": 0, "run_mode": "mp" if g > 1 else "sp",
                       "index": 1, "gpu_num": g, "FINAL_RESULT": 95.0 * g + rep + k % 7,
                       "JOB_FAIL_FLAG": 0, "UNIT": "images/s", "perfrepro": 1, "model": model,
                       "framework": fw, "case": case, "precision": prec, "batch_size": bs,
                       "nodes": n, "gpus_per_node": g // n, "repeat": rep, "origin": "measured",
                       "env": "env.json", "started_at": "2026-11-20T00:00:00Z",
                       "stats": {"records_seen": 100, "records_used": 90},
                       "rule": {"keyword": "ips:", "scope": "per_card"}}
                json.dump(rec, open("%s/logs/index/%s_speed" % (run, case), "w"))
                open("%s/logs/train_log/%s" % (run, case), "w").write("ips: 1\n")
                k += 1
json.dump({"perfrepro": 1, "label": "Synthetic", "source": {"title": "synthetic"},
           "platform": "Synthetic-GPU-x8",
           "tables": tables}, open(out + "/published/synth.json", "w"))
