#!/usr/bin/env python3
"""make bench: perfrepro's own speed, each figure beside a peer's in the same run.

Writes one benchmark record per benchmark to data/bench/<name>.json (the format
is in docs/data-model.md); `make reports` renders them as
reports/perfrepro-bench/README.md.  A peer that cannot be installed is skipped
with a clear line.  Environment: BENCH_PARSE_MB (default 1024), BENCH_QUICK=1
(small sizes, for a smoke run), BENCH_ONLY=parse,fit,gen,export,base,charts,site,shipped,noop,history,scale (a subset).  Takes a few minutes on 2 cores.

Every record names the commit it was measured at (git rev-parse HEAD when
this script started, and whether the working tree differed from it), the
machine (CPU model, logical CPUs, memory) and, per result, the runs timed,
as the timing tool counted them (BENCH_OUT: another folder for the records,
for tests)."""
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUICK = os.environ.get("BENCH_QUICK") == "1"
PARSE_MB = int(os.environ.get("BENCH_PARSE_MB", "64" if QUICK else "1024"))
OUT = os.environ.get("BENCH_OUT") or os.path.join(ROOT, "data", "bench")
# Working files on tmpfs where there is one: the figures are then perfrepro's
# (and its peers'), not the latency of this machine's disk.  BENCH_TMP overrides.
TMP_ROOT = os.environ.get("BENCH_TMP") or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
TMP = tempfile.mkdtemp(prefix="perfrepro-bench-", dir=TMP_ROOT)
_WHERE = "tmpfs (/dev/shm)" if TMP.startswith("/dev/shm") else TMP_ROOT or tempfile.gettempdir()


def T(zh, en):
    """Text the reports show: each page takes its language (docs/data-model.md)."""
    return {"zh": zh, "en": en}


def name(tool):
    """How a ratio names a result: its tool, the English text when it has two."""
    return tool["en"] if isinstance(tool, dict) else tool


WHERE = T("工作文件放在 %s 上" % _WHERE, "working files on %s" % _WHERE)


def say(msg):
    print("bench: " + msg, flush=True)


def have(cmd):
    return shutil.which(cmd) is not None


def hyperfine(commands, runs, prepare=None, names=None):
    """Times commands side by side (prepare: one command for all, or a list,
    one per command); returns [{median,min,max,runs}] in seconds, runs as
    hyperfine counted them."""
    out = os.path.join(TMP, "hf.json")
    argv = ["hyperfine", "--style", "basic", "--runs", str(runs), "--export-json", out, "-N"]
    if prepare:
        argv[-1:] = []
        for p in [prepare] if isinstance(prepare, str) else prepare:
            argv += ["--prepare", p]
    for i, c in enumerate(commands):
        if names:
            argv += ["--command-name", names[i]]
        argv.append(c)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    res = json.load(open(out))["results"]
    return [{"median": r["median"], "min": r["min"], "max": r["max"], "runs": len(r["times"])}
            for r in res]


def peak_rss_mb(argv, shell=False):
    """Peak resident memory of one run, from GNU time."""
    fmt = os.path.join(TMP, "rss")
    cmd = ["/usr/bin/time", "-f", "%M", "-o", fmt] + (["sh", "-c", argv] if shell else argv)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return int(open(fmt).read().split()[-1]) / 1024.0


RSS_RUNS = 3


def peak_rss(argv, shell=False, prepare=None, runs=RSS_RUNS):
    """A result's peak memory: the largest of runs runs (prepare, a shell
    command, before each), with the number of runs it is the largest of."""
    peaks = []
    for _ in range(runs):
        if prepare:
            subprocess.run(["sh", "-c", prepare], check=True)
        peaks.append(peak_rss_mb(argv, shell))
    return {"peak_rss_mb": round(max(peaks), 1), "peak_rss_runs": len(peaks)}


def commit():
    """The commit the figures are measured at: git rev-parse HEAD, and whether
    the working tree differed from it (git status --porcelain, untracked files
    included; what make bench itself writes, data/bench and its page, left
    out).  Read once, before any benchmark writes a file."""
    try:
        git = ["git", "-C", ROOT]
        head = subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True,
                              text=True).stdout.strip()
        status = subprocess.run(git + ["status", "--porcelain", "--", ".", ":(exclude)data/bench",
                                       ":(exclude)reports/perfrepro-bench"],
                                check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit("bench: %s is not a git checkout (%s): the figures would name no commit" % (ROOT, e))
    return {"id": head, "dirty": status.strip() != ""}


COMMIT = None  # set by main, before the first benchmark


def memory_mb():
    """Total memory in MB (MemTotal / 1024)."""
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) // 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1 << 20)


def machine():
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    osname = platform.platform()
    try:
        for line in open("/etc/os-release"):
            if line.startswith("PRETTY_NAME="):
                osname = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return {"cpu_model": cpu, "cpu_count": os.cpu_count(), "memory_mb": memory_mb(), "os": osname,
            "kernel": platform.release()}


def record(name, title_zh, title_en, unit, higher, results, ratio, target, command, notes=None):
    rec = {"perfrepro": 1, "benchmark": name, "title_zh": title_zh, "title_en": title_en,
           "date": datetime.date.today().isoformat(), "commit": COMMIT, "machine": machine(), "command": command,
           "unit": unit, "higher_is_better": higher, "results": results}
    if ratio:
        rec["ratio"] = ratio
    if target:
        rec["target"] = target
    # command is the command line (shown as code); what it ran on goes to notes.
    rec["notes"] = T(notes["zh"] + "；" + WHERE["zh"], notes["en"] + "; " + WHERE["en"]) if notes else WHERE
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, name + ".json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(rec, f, ensure_ascii=False, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
    say("wrote " + os.path.relpath(path, ROOT))


def result(tool, stats, value_of, extra=None):
    r = {"tool": tool, "median": round(value_of(stats["median"]), 3),
         "min": round(min(value_of(stats["min"]), value_of(stats["max"])), 3),
         "max": round(max(value_of(stats["min"]), value_of(stats["max"])), 3),
         "runs": stats["runs"]}
    if extra:
        r.update(extra)
    return r


def bench_parse():
    log = os.path.join(TMP, "paddle.log")
    line = ("[2021/09/06 21:12:33] root INFO: epoch:0, train step:%d, loss: 7.01, lr: 0.1, "
            "batch_cost: 0.65 s, reader_cost: 0.01 s, ips: %.5f samples/sec, eta: 0:13:45\n")
    noise = "[2021/09/06 21:12:33] root INFO: reader queue 4/8, memory 21.3 GB\n"
    block = "".join(line % (i, 390 + (i * 7919 % 1000) / 100.0) + noise for i in range(1000))
    blob = block.encode() * 64
    size = 0
    with open(log, "wb") as f:
        while size < PARSE_MB << 20:
            f.write(blob)
            size += len(blob)
    mb = size / (1 << 20)
    say("parse: %.0f MB paddle-ips log" % mb)
    measure = os.path.join(ROOT, "bin", "perfrepro-measure")
    rule = '{"profile":"paddle-ips","scope":"per_card","skip":10}'
    pr_cmd = "%s parse --rule '%s' --gpus 1 %s" % (measure, rule, log)
    # Counted by wc: GNU grep stops at the first match when stdout is /dev/null.
    grep_cmd = "grep -oP 'ips: \\K[0-9.]+' %s | wc -l" % log
    py_cmd = ("python3 -c \"import re,sys\nm=re.compile(rb'ips: ([0-9.]+)')\nn=0\ns=0.0\n"
              "for l in open(sys.argv[1],'rb'):\n r=m.search(l)\n if r: n+=1; s+=float(r.group(1))\n"
              "print(s/n)\" %s" % log)
    t = hyperfine(["sh -c \"%s > /dev/null\"" % pr_cmd.replace('"', '\\"'),
                   "sh -c \"%s > /dev/null\"" % grep_cmd.replace('"', '\\"')],
                  3, names=["perfrepro", "grep"])
    tp = hyperfine(["sh -c '%s > /dev/null'" % py_cmd.replace("'", "'\\''")], 2, names=["python"])
    mbs = lambda s: mb / s
    results = [
        result("perfrepro-measure parse", t[0], mbs, peak_rss(pr_cmd, True)),
        result("grep -oP", t[1], mbs, peak_rss(grep_cmd + " > /dev/null", True)),
        result(T("python3 re（流式读取）", "python3 re (streaming)"), tp[0], mbs,
               peak_rss(py_cmd + " > /dev/null", True)),
    ]
    ratio = {"of": name(results[0]["tool"]), "to": name(results[1]["tool"])}
    met = results[0]["median"] >= 500 and results[0]["peak_rss_mb"] < 16
    record("parse", "日志解析吞吐", "Log parsing throughput", "MB/s", True, results, ratio,
           {"text": T("单核 >= 500 MB/s，峰值内存 < 16 MB", ">= 500 MB/s on one core, peak < 16 MB"),
            "met": met},
           "perfrepro-measure parse --rule '%s' --gpus 1 LOG" % rule,
           T("LOG 为 %.0f MB" % mb, "LOG of %.0f MB" % mb))
    os.unlink(log)


def bench_fit():
    """parse --fit (every skip, reducer and trim it tries) beside a plain parse of the
    same log, in one hyperfine run: the issue's 10 MB log of short `ips: N` lines (the
    most records per MB) and, unless BENCH_QUICK, a PARSE_MB log of Paddle lines."""
    measure = os.path.join(ROOT, "bin", "perfrepro-measure")
    rule = '{"profile":"paddle-ips","scope":"global"}'
    logs = []
    small = os.path.join(TMP, "fit-10mb.log")
    with open(small, "w") as f:
        f.writelines("ips: %d\n" % (100 + i % 7) for i in range(1165085))
    logs.append((small, "10 MB", 1165085, "103"))
    if not QUICK:
        large = os.path.join(TMP, "fit-large.log")
        line = ("[2021/09/06 21:12:33] root INFO: epoch:0, train step:%d, loss: 7.01, lr: 0.1, "
                "batch_cost: 0.65 s, reader_cost: 0.01 s, ips: %.5f samples/sec, eta: 0:13:45\n")
        noise = "[2021/09/06 21:12:33] root INFO: reader queue 4/8, memory 21.3 GB\n"
        blob = "".join(line % (i, 390 + (i * 7919 % 1000) / 100.0) + noise for i in range(1000)).encode() * 64
        size = 0
        with open(large, "wb") as f:
            while size < PARSE_MB << 20:
                f.write(blob)
                size += len(blob)
        logs.append((large, "%.0f MB" % (size / (1 << 20)), size // len(blob) * 64000, "395"))
    cmds, names, plain = [], [], []
    for path, size, records, fig in logs:
        parse = "%s parse --rule '%s' %s" % (measure, rule, path)
        fit = "%s parse --rule '%s' --fit %s %s" % (measure, rule, fig, path)
        # --fit exits 1 when no rule reproduces the figure: a result, not a failure
        for c, n in ((parse, "parse, " + size), (fit, "parse --fit, " + size)):
            cmds.append("sh -c \"%s > /dev/null || [ \\$? -eq 1 ]\"" % c.replace('"', '\\"'))
            names.append(n)
            plain.append((c, records))
    say("fit: " + ", ".join(size for _, size, _, _ in logs))
    t = hyperfine(cmds, 3, names=names)
    results = []
    for i, (c, records) in enumerate(plain):
        size = names[i].split(", ")[-1]
        tool = (T("perfrepro-measure parse --fit，%s" % size, "perfrepro-measure parse --fit, %s" % size)
                if "--fit" in names[i] else
                T("perfrepro-measure parse，%s" % size, "perfrepro-measure parse, %s" % size))
        extra = peak_rss(c + " > /dev/null || [ $? -eq 1 ]", True)
        extra["records"] = records
        results.append(result(tool, t[i], lambda s: s, extra))
    met = results[1]["median"] < 1 and (len(results) < 4 or results[3]["median"] < 60)
    record("fit", "parse --fit 的搜索耗时", "The parse --fit search", "s", False, results,
           {"of": name(results[1]["tool"]), "to": name(results[0]["tool"]),
            "text": T("--fit ÷ 普通 parse（10 MB）", "--fit ÷ a plain parse (10 MB)")},
           {"text": T("10 MB 日志 < 1 s，1 GB 日志 < 60 s", "< 1 s for a 10 MB log, < 60 s for 1 GB"),
            "met": met},
           "perfrepro-measure parse --rule '%s' --fit FIGURE LOG" % rule,
           T("--fit 尝试 skip 0 至 200 与每种 reduce、trim（1,809 条规则）；10 MB 日志为 1,165,085 行 ips: N",
             "--fit tries skip 0 to 200 with every reduce and trim (1,809 rules); the 10 MB log is "
             "1,165,085 lines ips: N"))
    for path, _, _, _ in logs:
        os.unlink(path)


def synth(reports, per):
    d = os.path.join(TMP, "synth-%d-%d" % (reports, per))
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "synth_data.py"), d, str(reports),
                    str(per)], check=True)
    return d


def bench_gen():
    gen = os.path.join(ROOT, "bin", "perfrepro-gen")
    tmpl = os.path.join(ROOT, "templates")
    reports = 100 if QUICK else 1000
    d = synth(reports, 20)
    out = os.path.join(TMP, "gen-out")
    cmd = "%s build --no-charts --data %s --templates %s --out %s" % (gen, d, tmpl, out)
    t = hyperfine([cmd], 5, prepare="rm -rf " + out, names=["perfrepro-gen"])[0]
    rss = peak_rss(cmd.split(), prepare="rm -rf " + out)
    pages = sum(1 for _, _, fs in os.walk(out) for f in fs if f.endswith(".md"))
    results = [result("perfrepro-gen build --no-charts", t, lambda s: pages / s,
                      dict(rss, pages=pages, records=reports * 20))]
    # Growth with the number of records: seconds per 1,000 records should stay flat.
    # One hyperfine run times every size, so that the ratio divides figures of one run.
    sizes = [1000, 10000] if QUICK else [1000, 10000, 100000]
    sets = [synth(n // 20, 20) for n in sizes]
    o = os.path.join(TMP, "growth-out")
    tts = hyperfine(["%s build --no-charts --data %s --templates %s --out %s" % (gen, dd, tmpl, o) for dd in sets],
                    3, prepare=["rm -rf " + o] * len(sets))
    growth = []
    for n, tt in zip(sizes, tts):
        growth.append({"tool": T("perfrepro-gen，%d 条记录" % n, "perfrepro-gen, %d records" % n), "median": round(tt["median"] * 1e6 / n, 1),
                       "min": round(tt["min"] * 1e6 / n, 1), "max": round(tt["max"] * 1e6 / n, 1),
                       "runs": tt["runs"]})
    for dd in sets:
        shutil.rmtree(dd)
    met = results[0]["median"] >= 1000 and rss["peak_rss_mb"] < 64
    record("gen", "报告生成速度", "Report generation", "pages/s", True, results, None,
           {"text": T("单核 >= 1,000 页/s（1,000 份报告，20,000 条记录），峰值内存 < 64 MB",
                      ">= 1,000 pages/s on one core for 1,000 reports from 20,000 records, peak < 64 MB"),
            "met": met},
           "perfrepro-gen build --no-charts",
           T("合成数据：%d 份报告，%d 条记录，含写文件时间" % (reports, reports * 20),
             "synthetic: %d reports, %d records, writes included" % (reports, reports * 20)))
    first = growth[0]["median"]
    record("gen-growth", "生成时间随记录数的增长", "Generation time against the number of records",
           "µs/record", False, growth,
           {"of": name(growth[-1]["tool"]), "to": name(growth[0]["tool"]),
            "text": T("最大数据量下的 µs/条 ÷ 1,000 条时的 µs/条", "µs/record at the largest size ÷ at 1,000 records")},
           {"text": T("线性：每条记录的 µs 大致不变（比值 < 2）", "linear: µs per record roughly flat (ratio < 2)"),
            "met": growth[-1]["median"] / first < 2},
           "perfrepro-gen build --no-charts",
           T("数据集由 bench/synth_data.py 生成，含 1,000 至 100,000 条记录",
             "on bench/synth_data.py sets of 1,000 to 100,000 records"))
    shutil.rmtree(d)


def bench_export():
    import export_bench  # bench/export_bench.py: export against json + pandas
    export_bench.run(sys.modules[__name__])


def bench_charts():
    cb = os.path.join(ROOT, "build", "bench", "chart_bench")
    n = 50 if QUICK else 200
    out = subprocess.run([cb, str(n), os.path.join(TMP, "c")], check=True, capture_output=True, text=True).stdout
    png = float(re.search(r"png_ms_per_chart=([0-9.]+)", out).group(1))
    svg = float(re.search(r"svg_ms_per_chart=([0-9.]+)", out).group(1))
    drawn = int(re.search(r"\bN=([0-9]+)", out).group(1))  # the charts it drew, as it says
    # chart_bench times its n charts as one loop and prints the mean per
    # chart: no chart has a time of its own, so there is no min or max.
    results = [{"tool": "perfrepro PNG", "median": png, "runs": drawn, "timed_as": "loop"},
               {"tool": "perfrepro SVG", "median": svg, "runs": drawn, "timed_as": "loop"}]
    ratio = None
    try:
        mp = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "bench", "chart_matplotlib.py"),
                             os.path.join(TMP, "m.png"), str(n // 4)], check=True,
                            capture_output=True, text=True).stdout
        mms = float(re.search(r"cpu_ms_per_chart=([0-9.]+)", mp).group(1))
        results.append({"tool": "matplotlib PNG", "median": mms,
                        "runs": int(re.search(r"\bN=([0-9]+)", mp).group(1)), "timed_as": "loop"})
        ratio = {"of": "matplotlib PNG", "to": "perfrepro PNG"}
    except (subprocess.CalledProcessError, FileNotFoundError, AttributeError) as e:
        say("charts: matplotlib peer skipped (%s); install python3-matplotlib" % e)
    record("charts", "图表绘制", "Chart drawing", "ms/chart (CPU)", False, results, ratio,
           {"text": T("PNG 比 matplotlib 快至少 10 倍", "PNG at least 10× faster than matplotlib"),
            "met": bool(ratio and mms / png >= 10)},
           "build/bench/chart_bench %d; bench/chart_matplotlib.py" % n,
           T("示例扩展曲线图（720×400），分别由 perfrepro 与 matplotlib 绘制",
             "the sample scaling chart (720×400), drawn by perfrepro and by matplotlib"))


def bench_site():
    script = os.path.join(ROOT, "bench", "site_bench.sh")
    if not os.path.exists(script):
        say("site: bench/site_bench.sh missing, skipped")
        return
    # The script writes its figures, with the runs it timed, to SITE_BENCH_JSON.
    figures = os.path.join(TMP, "site.json")
    p = subprocess.run(["sh", script], capture_output=True, text=True, cwd=ROOT,
                       env=dict(os.environ, TMPDIR=TMP, SITE_BENCH_JSON=figures))
    if p.returncode != 0 or not os.path.exists(figures):
        say("site: skipped (%s)" % (p.stdout + p.stderr).strip().splitlines()[-1:])
        return
    got = json.load(open(figures))

    def per_page(tool, f):
        return {"tool": tool, "median": round(f["median"], 3), "min": round(f["min"], 3),
                "max": round(f["max"], 3), "runs": f["runs"]}
    ours, hugo = got["perfrepro"], got.get("hugo")
    results = [per_page("perfrepro-gen site", ours)]
    ratio = None
    if hugo:
        results.append(per_page("hugo", hugo))
        ratio = {"of": "hugo", "to": "perfrepro-gen site"}
    else:
        say("site: hugo peer skipped (apt-get install --no-install-recommends hugo)")
    record("site", "HTML 站点生成", "HTML site", "ms/page", False, results, ratio,
           {"text": T("每页比 Hugo 快", "faster than Hugo per page"),
            "met": bool(ratio and hugo["median"] > ours["median"])},
           "bench/site_bench.sh", T("1,000 个合成报告页", "1,000 synthetic report pages"))


def bench_shipped():
    """make reports from scratch on the shipped data/ (every chart drawn)."""
    subprocess.run(["make", "-s", "all"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    out = os.path.join(TMP, "shipped")
    gen = os.path.join(ROOT, "bin", "perfrepro-gen")
    cmd = "%s build --data %s --templates %s --out %s" % (
        gen, os.path.join(ROOT, "data"), os.path.join(ROOT, "templates"), out)
    t = hyperfine([cmd], 5, prepare="rm -rf %s" % out, names=["perfrepro-gen build (from scratch)"])[0]
    rss = peak_rss(cmd.split(), prepare="rm -rf " + out)
    pages = sum(1 for _, _, fs in os.walk(out) for f in fs if f.endswith(".md"))
    record("shipped", "用仓库自带数据从零生成全部报告", "All reports from scratch, shipped data", "s",
           False, [result(T("perfrepro-gen build（从零生成）", "perfrepro-gen build (from scratch)"), t,
                          lambda s: s, dict(rss, pages=pages))],
           None, {"text": T("双核机器上 < 2 s", "< 2 s on a 2-core machine"), "met": t["median"] < 2.0},
           "perfrepro-gen build --data data --templates templates --out OUT",
           T("即删除 reports/ 后的 make reports：每次运行前删除 OUT",
             "make reports with reports/ removed: OUT removed before each run"))


def bench_base():
    """Report generation at HEAD beside an earlier commit (BENCH_BASE; skipped
    when unset), side by side in one hyperfine run: each commit's perfrepro-gen
    builds that commit's own shipped data from scratch, so the figure compared
    is pages per second, with each one's peak memory; in full and without
    drawing (--no-charts), so that the pages and the charts' cost are seen
    apart."""
    base = os.environ.get("BENCH_BASE")
    if not base:
        say("base: BENCH_BASE is not set (a commit to compare with): skipped")
        return
    base_id = subprocess.run(["git", "rev-parse", base], cwd=ROOT, check=True, capture_output=True,
                             text=True).stdout.strip()
    wt = os.path.join(TMP, "base")
    subprocess.run(["git", "worktree", "add", "--detach", wt, base_id], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        subprocess.run(["make", "-s", "all"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["make", "-s", "-j2", "bin/perfrepro-gen"], cwd=wt, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Each commit's build in full, then without drawing (--no-charts):
        # the pages alone, so that what the drawing costs (charts, and at
        # HEAD the step traces) is said apart from the pages.
        runs, cmds, names, pages, rss = [], [], [], [], []
        for draw in (True, False):
            for tree, label in ((ROOT, "HEAD %s" % COMMIT["id"][:8]), (wt, "base %s" % base_id[:8])):
                out = os.path.join(TMP, "out-%s%s" % (label.split()[0], "" if draw else "-nc"))
                cmd = "%s build%s --data %s --templates %s --out %s" % (
                    os.path.join(tree, "bin", "perfrepro-gen"), "" if draw else " --no-charts",
                    os.path.join(tree, "data"), os.path.join(tree, "templates"), out)
                cmds.append(cmd)
                names.append(label if draw else label + " --no-charts")
                subprocess.run(cmd.split(), check=True, stdout=subprocess.DEVNULL)
                pages.append(sum(1 for _, _, fs in os.walk(out) for f in fs if f.endswith(".md")))
                rss.append(peak_rss(cmd.split(), prepare="rm -rf " + out))
                runs.append(out)
        t = hyperfine(cmds, 5, prepare="rm -rf %s" % " ".join(runs), names=names)
        results = []
        for i, label in enumerate(names):
            n = pages[i]
            results.append(result(T("perfrepro-gen build，%s" % label, "perfrepro-gen build, %s" % label),
                                  t[i], lambda s, n=n: n / s, dict(rss[i], pages=n)))
        speed = results[0]["median"] / results[1]["median"]
        pages_speed = results[2]["median"] / results[3]["median"]
        mem = results[0]["peak_rss_mb"] / results[1]["peak_rss_mb"]
        record("base", "报告生成：与较早提交并列", "Report generation beside an earlier commit",
               "pages/s", True, results,
               {"of": name(results[0]["tool"]), "to": name(results[1]["tool"]),
                "text": T("HEAD ÷ 较早提交（每秒页数，含绘图）",
                          "HEAD ÷ the earlier commit (pages per second, drawing included)")},
               {"text": T("不含绘图（--no-charts）的每秒页数与峰值内存均在较早提交的 10%% 以内"
                          "（页面比 %.2f，内存比 %.2f）；含绘图的比值见上，其差别是图的开销"
                          % (pages_speed, mem),
                          "pages per second without drawing (--no-charts) and peak memory within "
                          "10 %% of the earlier commit (pages ratio %.2f, memory ratio %.2f); the "
                          "ratio above, drawing included, differs by what the charts cost"
                          % (pages_speed, mem)),
                "met": pages_speed >= 0.9 and mem <= 1.1},
               "perfrepro-gen build [--no-charts] --data data --templates templates --out OUT "
               "(each commit's own)",
               T("每个提交用自己的 data/ 从零生成（运行前删除 OUT）；较早提交 %s" % base_id,
                 "each commit builds its own data/ from scratch (OUT removed before each run); "
                 "the earlier commit is %s" % base_id))
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", wt], cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def bench_history():
    __import__("history_scale").bench(sys.modules[__name__])


def bench_noop():
    subprocess.run(["make", "-s", "reports"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    t = hyperfine(["make -s -C %s reports" % ROOT], 10, names=["make reports (no change)"])[0]
    record("noop", "未改动时的 make reports", "An unchanged make reports", "ms", False,
           [result(T("make reports（无改动）", "make reports (nothing changed)"), t, lambda s: s * 1e3)], None,
           {"text": T("< 100 ms：靠 Make 自身的依赖跟踪", "< 100 ms: Make's own dependency tracking"),
            "met": t["median"] < 0.1},
           "make reports", T("在什么都没改动时再次运行", "run again with nothing changed"))


def bench_scale():
    """Issue 31's scale cases: bench/scale.py (BENCH_SCALE=gen,compare,fit)."""
    import scale
    scale.main(sys.modules[__name__])


def main():
    global COMMIT
    if not have("hyperfine"):
        sys.exit("bench: hyperfine is missing (apt-get install hyperfine)")
    COMMIT = commit()
    say("at commit %s%s" % (COMMIT["id"], " (working tree with uncommitted changes)" if COMMIT["dirty"] else ""))
    try:
        only = os.environ.get("BENCH_ONLY", "").split(",")
        for b in (bench_parse, bench_fit, bench_gen, bench_export, bench_charts, bench_site, bench_shipped,
                  bench_base, bench_noop, bench_history, bench_scale):
            if only != [""] and b.__name__[6:] not in only:
                continue
            say("running " + b.__name__[6:])
            b()
    finally:
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
