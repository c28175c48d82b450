"""bench/scale.py: issue 31's scale cases, run by bench/run.py (BENCH_ONLY=scale;
BENCH_SCALE=gen,compare,fit for a subset).  Each case times HEAD beside BENCH_BASE
(when set; built in a temporary worktree) in one run where it makes sense, writes
its benchmark record, and prints its figure and its target.  A case whose target
is a property rather than a speed (linear growth, the same digits as the base)
makes `make bench` fail with a message saying which, after every case has run:

  scale-gen      gen build --no-charts at 1,000 / 10,000 / 100,000 records
                 (bench/synth_data.py), µs per record; FAILS when it grows more
                 than 1.3x from 10,000 to 100,000 records (issue 31 #17)
  scale-hugo     the same builds per page beside Hugo rendering the pages they
                 wrote (front matter added), ms per page; target gen >= 2x Hugo
                 at every size; both on every processor (gen's build --jobs
                 default, docs/report-format.md#speed)
  scale-compare  pr_abstat_compare alone (bench/abstat_bench.c, compiled against
                 each commit's lib/) at 2,000 / 10,000 / 100,000 runs a side,
                 and `perfrepro-gen compare` end to end at 10,000 runs a side
                 (bench/scale_data.py); target < 1 s and < 50 MB at 10,000, and
                 FAILS when a figure differs from the base's (issue 31 #18)
  scale-fit      parse --fit's peak memory per value on a log of short lines
                 and on a log of Paddle lines; FAILS when the output differs
                 from the base's (issue 31 #22)
"""
import os
import shutil
import statistics
import subprocess
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))


def _base_tree(r):
    """A worktree of BENCH_BASE with its perfrepro-gen and perfrepro-measure
    built, or None when BENCH_BASE is unset.  The caller removes it."""
    base = os.environ.get("BENCH_BASE")
    if not base:
        r.say("scale: BENCH_BASE is not set: HEAD alone")
        return None
    wt = os.path.join(r.TMP, "scale-base")
    subprocess.run(["git", "worktree", "add", "--detach", wt, base], cwd=r.ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["make", "-s", "-j2", "bin/perfrepro-gen", "bin/perfrepro-measure"], cwd=wt,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return wt


def _hugo_site(r, pages_dir, dest):
    """A Hugo site of the Markdown pages under pages_dir (each with a front
    matter, as bench/site_bench.sh gives them); returns the number of pages."""
    n = 0
    for d, _, files in os.walk(pages_dir):
        for f in files:
            if not f.endswith(".md"):
                continue
            rel = os.path.relpath(os.path.join(d, f), pages_dir)
            out = os.path.join(dest, "content", rel[:-3].replace("README", "page") + ".md")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(os.path.join(d, f), encoding="utf-8") as i, \
                    open(out, "w", encoding="utf-8") as o:
                o.write('---\ntitle: "%s"\n---\n' % rel)
                o.write(i.read())
            n += 1
    os.makedirs(os.path.join(dest, "layouts", "_default"), exist_ok=True)
    with open(os.path.join(dest, "hugo.toml"), "w") as f:
        f.write('baseURL = "http://example.org/"\n'
                'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n'
                "[markup.goldmark.renderer]\n  unsafe = false\n")
    page = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head>'
            "<body><main>{{ .Content }}</main></body></html>\n")
    for name in ("single.html", "list.html"):
        with open(os.path.join(dest, "layouts", "_default", name), "w") as f:
            f.write(page)
    return n


def _per(stats, factor):
    return {k: round(stats[k] * factor, 3) for k in ("median", "min", "max")}


def scale_gen(r, base, failures):
    sizes = [1000, 10000] if r.QUICK else [1000, 10000, 100000]
    hugo = r.have("hugo")
    if not hugo:
        r.say("scale: hugo peer skipped (apt-get install --no-install-recommends hugo)")
    cmds, names, prep, rows = [], [], [], []
    for n in sizes:
        d = r.synth(n // 20, 20)
        trees = [("HEAD", r.ROOT)] + ([("base", base)] if base and n <= 10000 else [])
        for label, tree in trees:
            out = os.path.join(r.TMP, "scale-gen-%s-%d" % (label, n))
            # Each commit with its own templates: the strings' keys change
            # with the code (8f3181d refuses today's "date_runs").
            cmd = "%s build --no-charts --data %s --templates %s --out %s" % (
                os.path.join(tree, "bin", "perfrepro-gen"), d, os.path.join(tree, "templates"), out)
            subprocess.run(cmd.split(), check=True, stdout=subprocess.DEVNULL)
            pages = sum(1 for _, _, fs in os.walk(out) for f in fs if f.endswith(".md"))
            cmds.append(cmd)
            names.append("%s %d" % (label, n))
            prep.append("rm -rf " + out)
            rows.append({"kind": label, "n": n, "pages": pages, "cmd": cmd, "out": out})
        if hugo:
            site = os.path.join(r.TMP, "scale-hugo-%d" % n)
            pages = _hugo_site(r, rows[-len(trees)]["out"], site)
            out = os.path.join(r.TMP, "scale-hugo-out-%d" % n)
            cmds.append("hugo --quiet -s %s -d %s" % (site, out))
            names.append("hugo %d" % n)
            prep.append("rm -rf " + out)
            rows.append({"kind": "hugo", "n": n, "pages": pages})
    r.say("scale gen: %s, one hyperfine run" % ", ".join(names))
    times = r.hyperfine(cmds, 3, prepare=prep, names=names)
    growth, per_page = [], []
    for row, t in zip(rows, times):
        n, label = row["n"], row["kind"]
        if label != "hugo":
            res = dict(tool=r.T("perfrepro-gen %s，%d 条记录" % (label, n),
                                "perfrepro-gen %s, %d records" % (label, n)),
                       runs=t["runs"], records=n, pages=row["pages"], **_per(t, 1e6 / n))
            if label == "HEAD":
                res.update(r.peak_rss(row["cmd"].split(), prepare="rm -rf " + row["out"], runs=1))
            growth.append(res)
        tool = "hugo" if label == "hugo" else "perfrepro-gen build --no-charts (%s)" % label
        per_page.append(dict(tool=r.T("%s，%d 页" % (tool, row["pages"]),
                                      "%s, %d pages" % (tool, row["pages"])),
                             runs=t["runs"], records=n, pages=row["pages"],
                             **_per(t, 1e3 / row["pages"])))
        shutil.rmtree(row.get("out", ""), ignore_errors=True)
    head = {g["records"]: g for g in growth if "HEAD" in r.name(g["tool"])}
    grow = head[sizes[-1]]["median"] / head[sizes[-2]]["median"]
    r.say("scale gen: HEAD %s µs/record; %d -> %d records x%.2f (target <= 1.3)" % (
        " / ".join("%.1f" % head[n]["median"] for n in sizes), sizes[-2], sizes[-1], grow))
    r.record("scale-gen", "生成时间随记录数的增长（与较早提交并列）",
             "Generation time against the number of records, beside the base", "µs/record",
             False, growth,
             {"of": r.name(head[sizes[-1]]["tool"]), "to": r.name(head[sizes[-2]]["tool"]),
              "text": r.T("µs/条：%d 条 ÷ %d 条" % (sizes[-1], sizes[-2]),
                          "µs/record: %d records ÷ %d" % (sizes[-1], sizes[-2]))},
             {"text": r.T("线性：%d 至 %d 条记录，µs/条的增长 <= 1.3 倍" % (sizes[-2], sizes[-1]),
                          "linear: µs per record grows <= 1.3x from %d to %d records"
                          % (sizes[-2], sizes[-1])),
              "met": grow <= 1.3},
             "perfrepro-gen build --no-charts --data SYNTH --templates templates --out OUT",
             r.T("bench/synth_data.py 生成的数据（每份报告 20 条记录，一个运行集）；较早提交只测到 10,000 条",
                 "bench/synth_data.py sets (20 records a report, one run set); the base only up "
                 "to 10,000 records"))
    if grow > 1.3:
        failures.append("scale-gen: µs per record grew %.2fx from %d to %d records (limit 1.3x): "
                        "gen is not linear" % (grow, sizes[-2], sizes[-1]))
    if not hugo:
        return
    hugo_ms = {p["records"]: p for p in per_page if r.name(p["tool"]).startswith("hugo")}
    gen_ms = {p["records"]: p for p in per_page if "(HEAD)" in r.name(p["tool"])}
    ratios = {n: hugo_ms[n]["median"] / gen_ms[n]["median"] for n in sizes}
    r.say("scale hugo: Hugo ÷ gen per page %s (target >= 2 at every size)" % ", ".join(
        "%.2fx at %d" % (ratios[n], n) for n in sizes))
    r.record("scale-hugo", "生成每页耗时与 Hugo 并列", "Time per page beside Hugo", "ms/page", False,
             per_page,
             {"of": r.name(hugo_ms[sizes[-1]]["tool"]), "to": r.name(gen_ms[sizes[-1]]["tool"]),
              "text": r.T("Hugo ÷ perfrepro-gen（最大数据量，每页）",
                          "Hugo ÷ perfrepro-gen (largest set, per page)")},
             {"text": r.T("每个数据量下每页至少比 Hugo 快 2 倍（%s）" % "，".join(
                 "%.2f" % ratios[n] for n in sizes),
                 "per page at least 2x faster than Hugo at every size (%s)" % ", ".join(
                     "%.2f" % ratios[n] for n in sizes)),
              "met": min(ratios.values()) >= 2},
             "perfrepro-gen build --no-charts; hugo --quiet -s SITE -d OUT",
             r.T("Hugo 渲染 perfrepro-gen 写出的同一批 Markdown 页面（加 front matter）；"
                 "两者都用全部处理器（perfrepro-gen build 默认的 --jobs）",
                 "Hugo renders the Markdown pages perfrepro-gen wrote (front matter added); both "
                 "use every processor (perfrepro-gen build's default --jobs)"))


def _abstat_bench(r, tree, label):
    exe = os.path.join(r.TMP, "abstat_bench-" + label)
    lib = os.path.join(tree, "lib")
    # A base from before the module prefixes (issue 32) has pr_ab_* names.
    with open(os.path.join(lib, "abstat.h"), encoding="utf-8") as f:
        old = "pr_abstat_compare" not in f.read()
    subprocess.run(["cc", "-O2", "-std=c11", "-D_GNU_SOURCE", "-I" + lib] +
                   (["-DBENCH_OLD_NAMES"] if old else []) + [
                    os.path.join(BENCH, "abstat_bench.c")] +
                   [os.path.join(lib, f) for f in ("abstat.c", "stats.c", "buf.c", "err.c")] +
                   ["-lm", "-o", exe], check=True)
    return exe


def _run_abstat(r, exe, n, runs=3):
    """The program's own seconds over runs (median, min, max), its peak
    memory by GNU time (getrusage in the program would count this Python's,
    which ru_maxrss keeps across exec) and the result's digits."""
    secs, digits = [], None
    for _ in range(runs):
        out = subprocess.run([exe, str(n)], check=True, capture_output=True, text=True).stdout
        f = dict(kv.split("=", 1) for kv in out.split())
        secs.append(float(f["seconds"]))
        digits = " ".join("%s=%s" % (k, f[k]) for k in ("ratio", "lo", "hi", "k", "coverage",
                                                          "verdict"))
    res = {"median": round(statistics.median(secs), 6), "min": round(min(secs), 6),
           "max": round(max(secs), 6), "runs": runs}
    res.update(r.peak_rss([exe, str(n)], runs=1))
    return res, digits


def scale_compare(r, base, failures):
    sizes = [2000, 10000] if r.QUICK else [2000, 10000, 100000]
    trees = [("HEAD", r.ROOT)] + ([("base", base)] if base else [])
    exes = {label: _abstat_bench(r, tree, label) for label, tree in trees}
    results, digits = [], {}
    for n in sizes:
        for label, _ in trees:
            if label == "base" and n > 10000:
                continue  # m·n doubles: 80 GB
            res, digits[(label, n)] = _run_abstat(r, exes[label], n, 1 if label == "base" else 3)
            res["tool"] = r.T("pr_abstat_compare %s，每侧 %d 次运行" % (label, n),
                              "pr_abstat_compare %s, %d runs a side" % (label, n))
            results.append(res)
            r.say("scale compare: %s %d a side: %.4f s, %.1f MB; %s" % (
                label, n, res["median"], res["peak_rss_mb"], digits[(label, n)]))
    # the whole command at 10,000 runs a side: reading 20,000 records included
    d = os.path.join(r.TMP, "scale-compare-data")
    subprocess.run([sys.executable, os.path.join(BENCH, "scale_data.py"), d, "10000"], check=True)
    cmd = "%s compare --data %s --a A --b B --format csv" % (
        os.path.join(r.ROOT, "bin", "perfrepro-gen"), d)
    t = r.hyperfine([cmd], 3, names=["perfrepro-gen compare"])[0]
    res = dict(tool=r.T("perfrepro-gen compare HEAD，每侧 10000 次运行（含读取记录）",
                        "perfrepro-gen compare HEAD, 10000 runs a side (reading the records included)"),
               **{k: round(t[k], 3) for k in ("median", "min", "max")}, runs=t["runs"])
    res.update(r.peak_rss(cmd.split(), runs=1))
    results.append(res)
    shutil.rmtree(d, ignore_errors=True)
    head = [x for x in results if r.name(x["tool"]) == "pr_abstat_compare HEAD, 10000 runs a side"][0]
    differ = [n for (label, n) in digits if label == "base" and digits[(label, n)] != digits[("HEAD", n)]]
    met = head["median"] < 1 and head["peak_rss_mb"] < 50 and not differ
    ratio = None
    if base:
        ratio = {"of": "pr_abstat_compare base, 10000 runs a side", "to": r.name(head["tool"]),
                 "text": r.T("较早提交 ÷ HEAD（秒，每侧 10000 次运行）",
                             "base ÷ HEAD (seconds, 10000 runs a side)")}
    r.record("scale-compare", "两组运行的比较：每侧上万次运行", "Comparing two run sets of 10⁴ runs a side",
             "s", False, results, ratio,
             {"text": r.T("每侧 10000 次运行 < 1 s、< 50 MB，数字与较早提交逐位相同",
                          "10000 runs a side in < 1 s and < 50 MB, the base's figures to the last digit"),
              "met": met},
             "bench/abstat_bench.c N; perfrepro-gen compare --a A --b B --format csv",
             r.T("pr_abstat_compare 单独计时（bench/abstat_bench.c 分别链接各提交的 lib/）；较早提交只测到每侧 10000 次",
                 "pr_abstat_compare timed alone (bench/abstat_bench.c linked with each commit's lib/); "
                 "the base only up to 10000 a side"))
    for n in differ:
        failures.append("scale-compare: %d runs a side: HEAD %s, base %s" % (
            n, digits[("HEAD", n)], digits[("base", n)]))


def scale_fit(r, base, failures):
    logs = []
    small = os.path.join(r.TMP, "scale-fit-short.log")
    with open(small, "w") as f:
        f.writelines("ips: %d\n" % (100 + i % 7) for i in range(1165085))
    logs.append((small, "1,165,085 lines ips: N", 1165085, "103"))
    mb = 16 if r.QUICK else 256
    paddle = os.path.join(r.TMP, "scale-fit-paddle.log")
    line = ("[2021/09/06 21:12:33] root INFO: epoch:0, train step:%d, loss: 7.01, lr: 0.1, "
            "batch_cost: 0.65 s, reader_cost: 0.01 s, ips: %.5f samples/sec, eta: 0:13:45\n")
    noise = "[2021/09/06 21:12:33] root INFO: reader queue 4/8, memory 21.3 GB\n"
    blob = "".join(line % (i, 390 + (i * 7919 % 1000) / 100.0) + noise
                   for i in range(1000)).encode() * 64
    size = 0
    with open(paddle, "wb") as f:
        while size < mb << 20:
            f.write(blob)
            size += len(blob)
    logs.append((paddle, "%d MB of Paddle lines" % (size >> 20), size // len(blob) * 64000, "395"))
    rule = '{"profile":"paddle-ips","scope":"global"}'
    trees = [("HEAD", r.ROOT)] + ([("base", base)] if base else [])
    results, worst = [], 0
    for path, what, values, fig in logs:
        outs = {}
        for label, tree in trees:
            out = os.path.join(r.TMP, "scale-fit-%s.txt" % label)
            cmd = "%s parse --rule '%s' --fit %s %s > %s || [ $? -eq 1 ]" % (
                os.path.join(tree, "bin", "perfrepro-measure"), rule, fig, path, out)
            rss = r.peak_rss(cmd, True)
            outs[label] = open(out, "rb").read()
            per = rss["peak_rss_mb"] * (1 << 20) / values
            if label == "HEAD" and path == paddle:
                worst = per  # the large log: a small one's fixed memory is not per value
            r.say("scale fit: %s, %s: peak %.1f MB, %.1f bytes per value" % (
                label, what, rss["peak_rss_mb"], per))
            results.append(dict(tool=r.T("parse --fit %s，%s" % (label, what),
                                         "parse --fit %s, %s" % (label, what)),
                                median=round(per, 1), runs=rss["peak_rss_runs"], records=values,
                                **rss))
        if base and outs["HEAD"] != outs["base"]:
            failures.append("scale-fit: %s: parse --fit output differs from the base's" % what)
        os.unlink(path)
    ratio = None
    if base:
        ratio = {"of": r.name(results[1]["tool"]), "to": r.name(results[0]["tool"]),
                 "text": r.T("较早提交 ÷ HEAD（每个值的字节数）", "base ÷ HEAD (bytes per value)")}
    r.record("scale-fit", "parse --fit 的内存：每个值的字节数", "parse --fit memory: bytes per value",
             "bytes/value", False, results, ratio,
             {"text": r.T("Paddle 日志峰值内存 <= 每个值 52 字节（8f3181d：约 90–114；扫描记录 24 字节），"
                          "输出与较早提交相同",
                          "on the Paddle log, peak <= 52 bytes per value (8f3181d: about 90-114; "
                          "a scanned record is 24 bytes), output as the base's"),
              "met": worst <= 52 and not any(f.startswith("scale-fit") for f in failures)},
             "perfrepro-measure parse --rule '%s' --fit FIGURE LOG" % rule,
             r.T("峰值常驻内存（GNU time，3 次取最大）÷ 日志中的值数",
                 "peak resident memory (GNU time, largest of 3) ÷ the values in the log"))


def main(r):
    """Runs the cases BENCH_SCALE names (all by default) with run.py's
    helpers r; exits non-zero, naming each, when a case's property fails."""
    only = [x for x in os.environ.get("BENCH_SCALE", "").split(",") if x]
    failures = []
    base = _base_tree(r)
    try:
        for name, case in (("gen", scale_gen), ("compare", scale_compare), ("fit", scale_fit)):
            if not only or name in only:
                r.say("scale: running " + name)
                case(r, base, failures)
    finally:
        if base:
            subprocess.run(["git", "worktree", "remove", "--force", base], cwd=r.ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if failures:
        sys.exit("bench: FAILED\n  " + "\n  ".join(failures))
