#!/bin/sh
# lib/abstat against an independent computation: Debian's python3-scipy
# gives the exact Mann–Whitney null distribution (scipy.stats.mannwhitneyu,
# method='exact', alternative='less', on samples built to have U = u, for
# every u of every m, n in 1..10 and a few larger pairs); from it Python
# takes the Moses k and coverage for 2..10 a side, and, for seeded random
# run sets, the Hodges–Lehmann ratio, the interval, the verdict and the
# runs needed.  The unit binary's abstat_scipy test reads the cases
# (PERFREPRO_ABSTAT_CASES) and compares to 1e-12 relative.
# Skipped (77) without scipy or without ${BUILD:-build}/tests/lib_abstat.
. tests/scripts/lib/preamble.sh
BUILD="${BUILD:-build}"
bin="$BUILD/tests/lib_abstat"
/usr/bin/python3 -c 'import scipy' 2>/dev/null || { echo "no scipy for /usr/bin/python3 (Debian: apt-get install python3-scipy)"; exit 77; }
[ -x "$bin" ] || { echo "$bin not built (make $bin)"; exit 77; }

/usr/bin/python3 - "$tmp/cases.json" <<'EOF' || { echo "FAIL: the Python side failed"; exit 1; }
import json, math, random, sys
from scipy.stats import mannwhitneyu

def cdf(m, n, u):
    """P(U <= u) by scipy: x and y with exactly u pairs x_i > y_j."""
    lam, left = [], u
    for _ in range(m):
        t = min(n, left)
        lam.append(t)
        left -= t
    x = [l - 0.5 for l in lam]  # x_i lies above lam_i of the y's
    y = list(range(n))
    res = mannwhitneyu(x, y, alternative='less', method='exact')
    assert res.statistic == u, (m, n, u, res.statistic)
    return float(res.pvalue)

cdfs, table = [], {}
pairs = [(m, n) for m in range(1, 11) for n in range(1, 11)]
for m, n in pairs:
    table[m, n] = [cdf(m, n, u) for u in range(m * n + 1)]
    cdfs += [[m, n, u, p] for u, p in enumerate(table[m, n])]
for m, n, us in [(50, 50, [0, 1, 7, 300, 1100, 1249, 1250, 1251, 2000, 2499]),
                 (20, 37, [0, 3, 200, 369, 370, 500, 739]),
                 (2, 50, [0, 1, 10, 49, 50, 51, 99])]:
    cdfs += [[m, n, u, cdf(m, n, u)] for u in us]
table[13, 11] = [cdf(13, 11, u) for u in range(13 * 11 + 1)]
cdfs += [[13, 11, u, p] for u, p in enumerate(table[13, 11])]

def moses(m, n):
    """The largest k with 1 - 2 P(U <= k-1) >= 0.95, else 1."""
    t = table[m, n]
    k = 1
    while k < len(t) and 1 - 2 * t[k] >= 0.95:
        k += 1
    return k, 1 - 2 * t[k - 1]

moses_cases = []
for m, n in pairs + [(13, 11)]:
    if m >= 2 and n >= 2:
        k, cov = moses(m, n)
        moses_cases.append([m, n, k, cov])

Z = 1.959963984540054
def mean(v):
    s = 0.0
    for x in v:
        s += x
    return s / len(v)

def compare(a, b, delta):
    la = [math.log(x) for x in a]
    lb = [math.log(x) for x in b]
    d = sorted(y - x for x in la for y in lb)
    mn = len(d)
    hl = d[mn // 2] if mn % 2 else (d[mn // 2 - 1] + d[mn // 2]) / 2
    out = {"a": a, "b": b, "delta": delta, "ratio": math.exp(hl), "lo": None, "hi": None,
           "k": 0, "coverage": 0.0, "verdict": "insufficient", "runs_needed": 0}
    m, n = len(a), len(b)
    if m < 2 or n < 2:
        return out
    k, cov = moses(m, n)
    ratio, lo, hi = math.exp(hl), math.exp(d[k - 1]), math.exp(d[mn - k])
    out.update(k=k, coverage=cov, lo=lo, hi=hi)
    above, below = lo > 1, hi < 1
    if above and ratio >= 1 + delta:
        v = "faster"
    elif below and ratio <= 1 - delta:
        v = "slower"
    elif above or below:
        v = "changed_small"
    elif lo >= 1 - delta and hi <= 1 + delta:
        v = "equivalent"
    else:
        v = "inconclusive"
    out["verdict"] = v
    if v == "inconclusive":
        ma, mb, ss = mean(la), mean(lb), 0.0
        for x in la:
            ss += (x - ma) * (x - ma)
        for y in lb:
            ss += (y - mb) * (y - mb)
        s = math.sqrt(ss / (m + n - 2))
        up, down = math.log1p(delta), math.log1p(-delta)
        h = min(abs(hl), abs(hl - up), abs(hl - down))
        h = max(h, up / 4)
        t = Z * s / h
        need = max(math.ceil(2 * t * t), max(m, n) + 1)
        out["runs_needed"] = min(need, 1000)
    return out

cmp = []
for seed in range(400):
    rng = random.Random(seed)
    m, n = rng.randint(1, 10), rng.randint(1, 10)
    base = rng.uniform(50, 5000)
    spread = rng.choice([0.002, 0.01, 0.03, 0.1])
    effect = rng.choice([0.8, 0.94, 0.97, 0.99, 1.0, 1.0, 1.02, 1.06, 1.25])
    delta = rng.choice([0.05, 0.05, 0.02, 0.10])
    a = [round(base * math.exp(rng.gauss(0, spread)), 2) for _ in range(m)]
    b = [round(base * effect * math.exp(rng.gauss(0, spread)), 2) for _ in range(n)]
    cmp.append(compare(a, b, delta))
seen = {c["verdict"] for c in cmp}
want = {"faster", "slower", "changed_small", "equivalent", "inconclusive", "insufficient"}
assert seen == want, "verdicts not all drawn: %s" % sorted(want - seen)
with open(sys.argv[1], "w") as f:
    json.dump({"cdf": cdfs, "moses": moses_cases, "compare": cmp}, f)
print("scipy: %d cdf values, %d k, %d comparisons (%s)" % (
    len(cdfs), len(moses_cases), len(cmp),
    ", ".join("%s %d" % (v, sum(c["verdict"] == v for c in cmp)) for v in sorted(want))))
EOF

PERFREPRO_ABSTAT_CASES="$tmp/cases.json" "$bin" --filter 'abstat_scipy/*' --verbose >"$tmp/log" 2>&1
rc=$?
cat "$tmp/log"
[ "$rc" -eq 0 ] || { echo "FAIL: $bin exited $rc"; exit 1; }
grep -q 'Passing: 1 | Failing: 0' "$tmp/log" || { echo "FAIL: the abstat_scipy test did not pass"; exit 1; }
grep -q 'abstat_scipy: compared [1-9][0-9]* cdf values, [1-9][0-9]* k, [1-9][0-9]* comparisons' "$tmp/log" ||
  { echo "FAIL: the cases were not compared"; exit 1; }
echo "abstat_scipy: ok"
