#!/usr/bin/env python3
"""make bench's export case (issue 31, item 21): `perfrepro-gen export
--format csv` of a synthetic data folder of 100,000 records (bench/synth_data.py)
beside the peer a user would write: read every record with json, a
pandas DataFrame, to_csv (Debian's python3-pandas; skipped with a line
without it).  Time with hyperfine and peak memory with GNU time.  Target:
faster than the peer, and memory that does not grow with the rows written
(the data as loaded, plus one row).

run(rb) is called by bench/run.py (rb: that module, for its helpers);
`export_bench.py peer DATA OUT` is the pandas peer itself."""
import glob
import json
import os
import subprocess
import sys


def peer(data, out):
    """The pandas peer: every record of every run folder, one CSV row each."""
    import pandas
    rows = []
    for f in sorted(glob.glob(os.path.join(data, "runs", "*", "logs", "index", "*"))):
        with open(f, encoding="utf-8") as fh:
            r = json.load(fh)
        rows.append({k: (json.dumps(v) if isinstance(v, (dict, list)) else v) for k, v in r.items()})
    pandas.DataFrame(rows).to_csv(out, index=False)


def pandas_python():
    """This Python when it has pandas, else Debian's (python3-pandas goes
    there, not into a pyenv or venv on PATH); None when neither has it."""
    for py in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(py) and subprocess.run([py, "-c", "import pandas"],
                                                 stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL).returncode == 0:
            return py
    return None


def run(rb):
    gen = os.path.join(rb.ROOT, "bin", "perfrepro-gen")
    records = 10000 if rb.QUICK else 100000
    d = rb.synth(records // 20, 20)
    out = os.path.join(rb.TMP, "export.csv")
    ours = "%s export --data %s --format csv --out %s" % (gen, d, out)
    cmds, names = [ours], ["perfrepro-gen export"]
    py = pandas_python()
    if py:
        cmds.append("%s %s peer %s %s" % (py, os.path.abspath(__file__), d, out))
        names.append("json + pandas to_csv")
    else:
        rb.say("export: pandas is not installed (apt-get install python3-pandas): its peer skipped")
    times = rb.hyperfine(cmds, 3, names=names)
    results = []
    for c, n, t in zip(cmds, names, times):
        rss = rb.peak_rss(c.split())
        results.append(rb.result(n, t, lambda s: s, dict(rss, records=records)))
    met = len(results) > 1 and results[0]["median"] < results[1]["median"] and \
        results[0]["peak_rss_mb"] < results[1]["peak_rss_mb"]
    ratio = None
    if len(results) > 1:
        ratio = {"of": names[1], "to": names[0],
                 "text": rb.T("pandas 的秒数 ÷ perfrepro 的秒数", "pandas seconds ÷ perfrepro seconds")}
    rb.record("export", "导出 %d 条记录为 CSV" % records, "Export of %d records as CSV" % records, "s",
              False, results, ratio,
              {"text": rb.T("快于 json + pandas to_csv，内存不高于它",
                            "faster than json + pandas to_csv, with no more memory"), "met": met},
              "perfrepro-gen export --format csv",
              rb.T("合成数据（bench/synth_data.py）：%d 条记录" % records,
                   "synthetic (bench/synth_data.py): %d records" % records))


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "peer":
    peer(sys.argv[2], sys.argv[3])
