#!/usr/bin/env python3
"""Writes a data folder of two run sets, A and B, of one cell with N runs each
(N records of one configuration, repeats 1..N), for `perfrepro-gen compare`
at scale (issue 31 #18):
    scale_data.py OUT_DIR N
B is about 3 % faster than A; the values are deterministic."""
import json
import os
import sys

out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out + "/suites", exist_ok=True)
os.makedirs(out + "/platforms", exist_ok=True)
json.dump({"perfrepro": 1, "title": {"zh": "Synthetic GPU × 8", "en": "Synthetic GPU x 8"},
           "device": {"kind": "gpu", "model": "Synthetic GPU", "memory_gb": 80, "per_node": 8}},
          open(out + "/platforms/Synthetic-GPU-x8.json", "w"))
json.dump({"perfrepro": 1, "model": "Model", "framework": "Fw", "model_name": "clas_Model",
           "mission_name": "图像分类", "direction_id": 0, "unit": "images/s",
           "command": ["train", "--bs", "{batch_size}"],
           "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [64], "precision": ["fp32"]},
           "rule": {"keyword": "ips:", "scope": "per_card"}},
          open(out + "/suites/Model_Fw.json", "w"))
for side, level, day in (("A", 1000.0, "20"), ("B", 1030.0, "21")):
    run = "%s/runs/%s" % (out, side)
    os.makedirs(run + "/logs/index", exist_ok=True)
    os.makedirs(run + "/logs/train_log", exist_ok=True)
    json.dump({"perfrepro": 1, "captured_at": "2026-11-%sT00:00:00Z" % day,
               "host": {"cpu_model": "Synthetic CPU", "cpu_count": 64},
               "gpu": {"name": "Synthetic GPU", "count": 8}, "framework": None},
              open(run + "/env.json", "w"))
    for rep in range(1, n + 1):
        case = "clas_Model_Fw_sp_bs64_fp32_1_r%d" % rep
        # spread of +-2 %, no two runs equal
        value = round(level * (0.98 + 0.04 * ((rep * 7919) % 10007) / 10007.0), 4)
        rec = {"log_file": "logs/train_log/" + case, "model_name": "clas_Model",
               "mission_name": "图像分类", "direction_id": 0, "run_mode": "sp", "index": 1,
               "gpu_num": 1, "FINAL_RESULT": value, "JOB_FAIL_FLAG": 0, "UNIT": "images/s",
               "perfrepro": 1, "model": "Model", "framework": "Fw", "case": case,
               "precision": "fp32", "batch_size": 64, "nodes": 1, "gpus_per_node": 1,
               "repeat": rep, "origin": "measured", "env": "env.json",
               "started_at": "2026-11-%sT00:00:00Z" % day,
               "stats": {"records_seen": 100, "records_used": 90},
               "rule": {"keyword": "ips:", "scope": "per_card"}}
        json.dump(rec, open("%s/logs/index/%s_speed" % (run, case), "w"))
        open("%s/logs/train_log/%s" % (run, case), "w").write("ips: 1\n")
