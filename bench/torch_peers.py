#!/usr/bin/env python3
"""The quantities perfrepro-gpu measures, measured again through PyTorch, so a
report can state the ratio of the two measured side by side on one machine.

    python3 bench/torch_peers.py bw   [-b 1M] [-e 1G] [-f 2] [-n 20] [-w 5] [--peak GB/s]
    python3 bench/torch_peers.py gemm [-b 1024] [-e 16384] [-f 2] [-n 20] [-w 5] [-d fp32,...]
    python3 bench/torch_peers.py all_reduce [-b 1M] [-e 1G] [-f 2] [-n 20] [-w 5] [-g GPUs]
    python3 bench/torch_peers.py compare DIR

bw:          dst.copy_(src) on uint8 tensors; GB/s counts bytes read plus bytes
             written (2 x size), as perfrepro-gpu's copy kernel.  Its column
             group is named "copy", the kernel's name, though what runs is
             dst.copy_(src).
gemm:        torch.matmul at perfrepro-gpu's shapes (square sizes, then four
             transformer shapes at 8192 tokens, hidden 4096): fp32 (TF32 off),
             tf32 (allow_tf32), fp16, bf16, and fp8 through torch._scaled_mm
             (e4m3 inputs, unit scales, bf16 output) where it exists;
             TFLOP/s = 2MNK / time.
all_reduce:  torch.distributed.all_reduce (NCCL, in place) over G processes,
             one per GPU; busbw = size / time x 2(G-1)/G, as nccl-tests.
compare:     reads DIR/{bw,gemm,all_reduce}.txt (perfrepro-gpu) and
             DIR/torch_{bw,gemm,all_reduce}.txt (this script) and prints a
             Markdown table: each quantity from both and torch / perfrepro-gpu.

Timing: CUDA events around n iterations after w warm-up iterations, the
same as perfrepro-gpu.  Output: perfrepro-gpu's own table layout (its bw,
gemm and nccl-tests tables: the same group names, copy and fp32 ... fp8,
and the same columns), so the same perfrepro parse rules read both, e.g.
{"profile": "perfrepro-gpu", "variant": "copy"} or "variant": "fp16".
Without torch or a GPU: a message on stderr and exit status 3.
"""

import argparse
import os
import re
import sys

TRANSFORMER = [(8192, 4096, 4096), (8192, 12288, 4096), (8192, 16384, 4096), (8192, 4096, 16384)]
PRECS = ["fp32", "tf32", "fp16", "bf16", "fp8"]


def size_arg(text):
    """A size as nccl-tests reads it: a number with an optional K, M or G."""
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]*)?)([KMGkmg]?)", text)
    if not m:
        raise argparse.ArgumentTypeError("invalid size %r" % text)
    v = float(m.group(1)) * {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()]
    if v != int(v):
        raise argparse.ArgumentTypeError("invalid size %r (not a whole number)" % text)
    return int(v)


def sweep(lo, hi, factor):
    out, s = [], lo
    while s <= hi:
        out.append(s)
        if factor <= 1:
            break
        s *= factor
    return out


def fmt_time(us):
    """nccl-tests' time column."""
    if us >= 10000:
        return "%7.0f" % us
    if us >= 100:
        return "%7.1f" % us
    return "%7.2f" % us


def centred(prefix, names, width):
    line = prefix
    for n in names:
        left = (width - len(n) + 1) // 2
        line += " " * left + n + " " * max(width - len(n) - left, 0)
    return line.rstrip()


def fail(msg):
    sys.stdout.flush()
    print("PERFREPRO_FAILURE: no_gpu: %s" % msg, file=sys.stderr)
    sys.exit(3)


def need_torch():
    try:
        import torch
    except ImportError as e:  # the comparison needs torch; say so and stop
        fail("torch is not importable: %s" % e)
    if not torch.cuda.is_available():
        fail("torch.cuda.is_available() is False")
    return torch


def timed(torch, fn, warmup, iters):
    """Seconds per call of fn: CUDA events around iters calls after warmup."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) / 1e3 / iters


def preamble(torch, what, extra):
    print("# torch_peers %s: torch %s, CUDA %s, %s" % (what, torch.__version__, torch.version.cuda, extra))
    print("#\n# Using devices")
    for d in range(torch.cuda.device_count()):
        print("#  device %2d %s" % (d, torch.cuda.get_device_name(d)))


# ---- bandwidth ----

def run_bw(a):
    torch = need_torch()
    preamble(torch, "bw", "dst.copy_(src), uint8")
    sizes = sweep(a.b or (1 << 20), a.e or (1 << 30), a.f)
    print("#")
    if a.peak:
        print("# Theoretical peak : %.2f GB/s (from perfrepro-gpu env)" % a.peak)
    print("# GB/s counts bytes read plus bytes written (copy: dst.copy_(src) moves 2 x size)")
    print("#")
    # the group is named after perfrepro-gpu's copy kernel so one rule reads both
    print(centred("#           ", ["copy"], 35))
    print("# %10s  %7s  %8s  %6s  %6s" % ("size", "time", "GB/s", "%peak", "#wrong"))
    print("# %10s  %7s  %8s  %6s" % ("(B)", "(us)", "(GB/s)", "(%)"))
    src = torch.empty(sizes[-1], dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    last = None
    for s in sizes:
        x, y = src[:s], dst[:s]
        x.random_(0, 256)
        sec = timed(torch, lambda: y.copy_(x), a.w, a.n)
        wrong = int((y != x).sum().item()) if a.c else -1
        gbs = 2 * s / sec / 1e9
        pct = "%.1f" % (gbs / a.peak * 100) if a.peak else "N/A"
        print("%12d  %s  %8.2f  %6s  %6s" % (s, fmt_time(sec * 1e6), gbs, pct,
                                            "N/A" if wrong < 0 else "%g" % wrong))
        sys.stdout.flush()
        last = (s, gbs, pct)
    s, gbs, pct = last
    print("# Bandwidth copy : %.2f GB/s%s at %d B" % (gbs, " (%s%% of peak)" % pct if a.peak else "", s))
    print("#")


# ---- GEMM ----

def run_gemm(a):
    torch = need_torch()
    # once each: a group name twice would make the table unreadable by name
    precs = list(dict.fromkeys(a.d.split(","))) if a.d else PRECS
    bad = [p for p in precs if p not in PRECS]
    if bad:
        print("torch_peers.py: unknown precision %s" % ",".join(bad), file=sys.stderr)
        sys.exit(2)
    cc = torch.cuda.get_device_capability()
    preamble(torch, "gemm", "torch.matmul / torch._scaled_mm")
    shapes = [(s, s, s) for s in sweep(a.b or 1024, a.e or 16384, a.f)] + TRANSFORMER
    print("#")
    print("# C(MxN) = A(MxK) B(KxN) with torch.matmul; TFLOP/s = 2MNK / time; #wrong: not checked (N/A)")
    print("#")
    print(centred("#                         ", precs, 28))
    print("#%7s %8s %8s" % ("M", "N", "K") + "".join("  %7s  %9s  %6s" % ("time", "TFLOP/s", "#wrong") for _ in precs))
    print(("#%7s %8s %8s" % ("", "", "") + "".join("  %7s  %9s  %6s" % ("(us)", "(TFLOP/s)", "") for _ in precs)).rstrip())
    best = {p: (0.0, None) for p in precs}
    for (m, n, k) in shapes:
        row = "%8d %8d %8d" % (m, n, k)
        for p in precs:
            try:
                sec = gemm_time(torch, p, m, n, k, cc, a)
            except (RuntimeError, AttributeError, TypeError) as e:
                print("# %s %dx%dx%d: %s" % (p, m, n, k, str(e).splitlines()[0][:160]), file=sys.stderr)
                sec = None
            if sec is None:
                row += "  %7s  %9s  %6s" % ("N/A", "N/A", "N/A")
                continue
            tf = 2.0 * m * n * k / sec / 1e12
            row += "  %7s  %9.2f  %6s" % (fmt_time(sec * 1e6), tf, "N/A")
            if tf > best[p][0]:
                best[p] = (tf, (m, n, k))
            torch.cuda.empty_cache()
        print(row)
        sys.stdout.flush()
    for p in precs:
        tf, at = best[p]
        if at is None:
            print("# Best %s TFLOP/s : N/A (not supported here)" % p)
        else:
            print("# Best %s TFLOP/s : %.2f at M=%d N=%d K=%d" % (p, tf, at[0], at[1], at[2]))
    print("#")


def gemm_time(torch, p, m, n, k, cc, a):
    torch.backends.cuda.matmul.allow_tf32 = p == "tf32"
    torch.backends.cudnn.allow_tf32 = p == "tf32"
    if p == "fp8":
        if cc < (8, 9) or not hasattr(torch, "_scaled_mm") or not hasattr(torch, "float8_e4m3fn"):
            return None
        if m % 16 or n % 16 or k % 16:
            return None
        x = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
        # _scaled_mm wants its second operand column-major
        y = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn).t()
        one = torch.ones((), device="cuda", dtype=torch.float32)
        return timed(torch, lambda: torch._scaled_mm(x, y, scale_a=one, scale_b=one,
                                                     out_dtype=torch.bfloat16), a.w, a.n)
    dt = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[p]
    x = torch.randn(m, k, device="cuda", dtype=dt)
    y = torch.randn(k, n, device="cuda", dtype=dt)
    out = torch.empty(m, n, device="cuda", dtype=dt)
    return timed(torch, lambda: torch.matmul(x, y, out=out), a.w, a.n)


# ---- all_reduce ----

def ar_worker(rank, world, a, port, sizes):
    import torch
    import torch.distributed as dist
    torch.cuda.set_device(rank)
    url = "tcp://127.0.0.1:%d" % port
    try:  # device_id (torch 2.3+) binds the communicator to the GPU at once
        dist.init_process_group("nccl", init_method=url, rank=rank, world_size=world,
                                device_id=torch.device("cuda", rank))
    except TypeError:
        dist.init_process_group("nccl", init_method=url, rank=rank, world_size=world)
    buf = torch.empty(sizes[-1] // 4, dtype=torch.float32, device="cuda")
    factor = 2.0 * (world - 1) / world
    total, count = 0.0, 0
    for s in sizes:
        x = buf[: s // 4]
        x.fill_(1.0)
        sec = timed(torch, lambda: dist.all_reduce(x), a.w, a.n)
        t = torch.tensor([sec], device="cuda", dtype=torch.float64)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        sec = t.item()
        wrong = -1
        if a.c:
            x.fill_(float(rank + 1))
            dist.all_reduce(x)
            want = world * (world + 1) / 2.0
            w = torch.tensor([int((x != want).sum().item())], device="cuda", dtype=torch.int64)
            dist.all_reduce(w)
            wrong = int(w.item())
        if rank == 0:
            alg = s / sec / 1e9
            bus = alg * factor
            total, count = total + bus, count + 1
            print("%12d  %12d  %8s  %6s  %6d  %7s  %6s  %6s  %5s  %7s  %6.2f  %6.2f  %5s" % (
                s, s // 4, "float", "sum", -1, "N/A", "N/A", "N/A", "N/A",
                fmt_time(sec * 1e6), alg, bus, "N/A" if wrong < 0 else "%g" % wrong))
            sys.stdout.flush()
    if rank == 0:
        print("# Out of bounds values : 0 OK")
        print("# Avg bus bandwidth    : %g " % (total / count if count else 0.0))
        print("#")
    dist.destroy_process_group()


def run_all_reduce(a):
    torch = need_torch()
    import torch.multiprocessing as mp
    world = a.g or torch.cuda.device_count()
    if world < 1 or world > torch.cuda.device_count():
        fail("all_reduce needs %d GPUs, %d visible" % (world, torch.cuda.device_count()))
    sizes = sweep(a.b or (1 << 20), a.e or (1 << 30), a.f)
    preamble(torch, "all_reduce", "torch.distributed (NCCL %s), %d processes, in place"
             % (".".join(map(str, torch.cuda.nccl.version())), world))
    print("#")
    print("# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          " % ("", "", "", "", ""))
    print("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s" % (
        "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
        "time", "algbw", "busbw", "#wrong"))
    print("# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s" % (
        "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", ""))
    sys.stdout.flush()
    port = 29500 + os.getpid() % 1000
    mp.spawn(ar_worker, args=(world, a, port, sizes), nprocs=world, join=True)


# ---- compare ----

def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def footer(text, pattern):
    m = re.search(pattern, text or "", re.M)
    return float(m.group(1)) if m else None


def gemm_rows(text):
    """{(m, n, k, prec): TFLOP/s} from a gemm table (perfrepro-gpu's or ours)."""
    out, precs = {}, None
    for line in (text or "").splitlines():
        if line.startswith("#") and precs is None:
            words = line[1:].split()
            if words and all(w in PRECS for w in words):
                precs = words
            continue
        cells = line.split()
        if precs is None or len(cells) != 3 + 3 * len(precs) or not cells[0].isdigit():
            continue
        m, n, k = (int(c) for c in cells[:3])
        for i, p in enumerate(precs):
            v = cells[3 + 3 * i + 1]
            if v != "N/A":
                out[(m, n, k, p)] = float(v)
    return out


def coll_rows(text, column):
    """{size: busbw} from an nccl-tests table; column 0 out-of-place, 1 in-place."""
    out = {}
    for line in (text or "").splitlines():
        cells = line.split()
        if len(cells) == 13 and cells[0].isdigit():
            v = cells[7 if column == 0 else 11]
            if v != "N/A":
                out[int(cells[0])] = float(v)
    return out


def ratio(ours, theirs):
    if ours is None or theirs is None or ours <= 0:
        return "—"
    return "%.3f" % (theirs / ours)


def num(v, fmt="%.2f"):
    return "—" if v is None else fmt % v


def run_compare(a):
    d = a.dir
    rows = []
    bw, tbw = read(os.path.join(d, "bw.txt")), read(os.path.join(d, "torch_bw.txt"))
    copy = footer(bw, r"^# Bandwidth copy : ([0-9.]+)")
    memcpy = footer(bw, r"^# Bandwidth memcpy : ([0-9.]+)")
    tcopy = footer(tbw, r"^# Bandwidth copy_? : ([0-9.]+)")  # copy_: files from before
    rows.append(("device memory copy, largest size (GB/s)", "copy kernel", copy, tcopy))
    rows.append(("device memory copy, largest size (GB/s)", "cudaMemcpy D2D", memcpy, tcopy))
    g, tg = gemm_rows(read(os.path.join(d, "gemm.txt"))), gemm_rows(read(os.path.join(d, "torch_gemm.txt")))
    for key in sorted(set(g) & set(tg), key=lambda t: (PRECS.index(t[3]), t[0] * t[1] * t[2], t)):
        m, n, k, p = key
        rows.append(("GEMM %s %dx%dx%d (TFLOP/s)" % (p, m, n, k), "cuBLASLt", g[key], tg[key]))
    for p in PRECS:
        ours = footer(read(os.path.join(d, "gemm.txt")), r"^# Best %s TFLOP/s : ([0-9.]+)" % p)
        theirs = footer(read(os.path.join(d, "torch_gemm.txt")), r"^# Best %s TFLOP/s : ([0-9.]+)" % p)
        if ours is not None or theirs is not None:
            rows.append(("GEMM %s, best shape (TFLOP/s)" % p, "cuBLASLt", ours, theirs))
    ar = coll_rows(read(os.path.join(d, "all_reduce.txt")), 1)
    tar = coll_rows(read(os.path.join(d, "torch_all_reduce.txt")), 1)
    for s in sorted(set(ar) & set(tar)):
        if s >= (1 << 20):
            rows.append(("all_reduce in place %d B, busbw (GB/s)" % s, "NCCL", ar[s], tar[s]))
    print("| quantity | perfrepro-gpu | perfrepro-gpu figure | PyTorch figure | PyTorch / perfrepro-gpu |")
    print("|---|---|---:|---:|---:|")
    for q, how, ours, theirs in rows:
        print("| %s | %s | %s | %s | %s |" % (q, how, num(ours), num(theirs), ratio(ours, theirs)))
    if not rows:
        print("| (no results found in %s) | | | | |" % d)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["bw", "gemm", "all_reduce", "compare"])
    p.add_argument("dir", nargs="?", help="compare: the folder with the result files")
    p.add_argument("-b", type=size_arg, help="smallest size (gemm: dimension)")
    p.add_argument("-e", type=size_arg, help="largest size (gemm: dimension)")
    p.add_argument("-f", type=int, default=2, help="size factor (default 2)")
    p.add_argument("-n", type=int, default=20, help="timed iterations (default 20)")
    p.add_argument("-w", type=int, default=5, help="warm-up iterations (default 5)")
    p.add_argument("-c", type=int, default=1, choices=[0, 1], help="check data (default 1)")
    p.add_argument("-d", help="gemm: precisions, comma-separated (default all)")
    p.add_argument("-g", type=int, help="all_reduce: GPUs (default all)")
    p.add_argument("--peak", type=float, help="bw: theoretical peak GB/s for the %%peak column")
    a = p.parse_args()
    if a.n < 1 or a.w < 0 or a.f < 1:
        p.error("-n must be >= 1, -w >= 0, -f >= 1")
    if a.what == "compare":
        if not a.dir:
            p.error("compare needs the folder")
        run_compare(a)
    elif a.what == "bw":
        run_bw(a)
    elif a.what == "gemm":
        run_gemm(a)
    else:
        run_all_reduce(a)


if __name__ == "__main__":
    main()
