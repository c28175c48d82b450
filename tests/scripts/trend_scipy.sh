#!/bin/sh
# lib/trend against an independent computation: Debian's python3-scipy
# (scipy.stats.t.cdf, t.ppf polished by Newton on t.cdf (t.ppf alone is
# good to about 1e-9, compared at 1e-7), scipy.stats.ttest_ind(equal_var=False)) on
# seeded random cases, and a plain Python E-divisive means (the energy
# statistic at every split, the change points with the defaults) on a few
# series.  The cases go to a JSON file that the Criterion test
# build/tests/lib_trend (suite trend_scipy) reads through
# PERFREPRO_TREND_CASES and compares to 1e-9 relative.
# Skips (77) where scipy or the test binary is missing.
. tests/scripts/lib/preamble.sh
set -e
PY=/usr/bin/python3
BIN="${BUILD:-build}/tests/lib_trend"
if ! "$PY" -c 'import scipy' >/dev/null 2>&1; then
  echo "trend_scipy: python3-scipy is not installed ($PY -c 'import scipy' fails): skipped"
  exit 77
fi
if [ ! -x "$BIN" ]; then
  echo "trend_scipy: $BIN is missing (make $BIN): skipped"
  exit 77
fi

"$PY" - "$tmp/cases.json" <<'EOF' || die "the Python side failed"
import json, math, sys
import numpy as np
from scipy import stats

rng = np.random.default_rng(20261126)
out = {"cdf": [], "ppf": [], "welch": [], "energy": []}

def df_draw():
    # log-uniform over [0.3, 500], non-integer, and some integers
    if rng.random() < 0.25:
        return float(rng.integers(1, 60))
    return float(math.exp(rng.uniform(math.log(0.3), math.log(500))))

for _ in range(300):
    df = df_draw()
    t = float(rng.uniform(-12, 12)) if rng.random() < 0.8 else float(rng.uniform(-60, 60))
    out["cdf"].append([t, df, float(stats.t.cdf(t, df))])
for _ in range(300):
    df = df_draw()
    u = rng.random()
    if u < 0.2:
        p = float(10 ** rng.uniform(-6, -1))
    elif u < 0.4:
        p = 1 - float(10 ** rng.uniform(-6, -1))
    else:
        p = float(rng.uniform(0.01, 0.99))
    raw = float(stats.t.ppf(p, df))
    # scipy's t.ppf (cdflib's stdtrit) is good to about 1e-9 only (0.975
    # at 10 df: 2.2281388519649385, where the quantile is 2.22813885198627):
    # polish it with Newton steps on scipy's own t.cdf / t.sf (Boost's
    # incomplete beta, accurate to a few ulps), the upper tail above 1/2.
    t = raw
    for _ in range(3):
        if p < 0.5:
            f = stats.t.cdf(t, df) - p
        else:
            f = (1 - p) - stats.t.sf(t, df)
        d = stats.t.pdf(t, df)
        if d > 0:
            t -= f / d
    out["ppf"].append([p, df, float(t), raw])
for _ in range(150):
    nx, ny = int(rng.integers(2, 13)), int(rng.integers(2, 13))
    x = (math.log(100) + rng.normal(0, 10 ** rng.uniform(-3, -1), nx)).tolist()
    y = (math.log(100) + rng.uniform(-0.1, 0.1)
         + rng.normal(0, 10 ** rng.uniform(-3, -1), ny)).tolist()
    r = stats.ttest_ind(x, y, equal_var=False)
    se2 = np.var(x, ddof=1) / nx + np.var(y, ddof=1) / ny
    df = se2 ** 2 / ((np.var(x, ddof=1) / nx) ** 2 / (nx - 1)
                     + (np.var(y, ddof=1) / ny) ** 2 / (ny - 1))
    out["welch"].append({"x": x, "y": y, "t": float(r.statistic), "df": float(df),
                         "p": float(r.pvalue)})

# E-divisive means, written out plainly (trend.c's comment says the variant).
def energy(x, tau):
    a, b = x[:tau], x[tau:]
    m, k = len(a), len(b)
    between = sum(abs(u - v) for u in a for v in b)
    left = sum(abs(a[i] - a[j]) for i in range(m) for j in range(i + 1, m))
    right = sum(abs(b[i] - b[j]) for i in range(k) for j in range(i + 1, k))
    e = 2 * between / (m * k)
    if m > 1:
        e -= left / (m * (m - 1) / 2)
    if k > 1:
        e -= right / (k * (k - 1) / 2)
    return m * k / (m + k) * e

def change_points(x, max_p=0.001, min_mag=0.0, ms=3):  # trend.h defaults
    found = []
    def seg(a, b):
        if b - a < 2 * ms:
            return
        best, bq = None, -math.inf
        for tau in range(a + ms, b - ms + 1):
            q = energy(x[a:b], tau - a)
            if q > bq:
                best, bq = tau, q
        left, right = x[a:best], x[best:b]
        p = stats.ttest_ind(left, right, equal_var=False).pvalue
        if not p < max_p or not abs(math.expm1(np.mean(right) - np.mean(left))) >= min_mag:
            return
        found.append(best)
        seg(a, best)
        seg(best, b)
    seg(0, len(x))
    return sorted(found)

def series(levels, n_each, sd):
    x = []
    for lv, n in zip(levels, n_each):
        x += (math.log(lv) + rng.normal(0, sd, n)).tolist()
    return x

shapes = [
    series([100, 90], [8, 8], 0.005),
    series([100, 90, 95], [7, 6, 9], 0.004),
    series([100], [25], 0.01),
    series([100, 105], [12, 12], 0.02),
    series([50, 60, 55, 40], [5, 5, 5, 5], 0.01),
    series([100, 98], [3, 3], 0.001),
    series([200], [6], 0.02),
    series([100, 80], [20, 10], 0.03),
]
for x in shapes:
    out["energy"].append({"x": x, "q": [energy(x, tau) for tau in range(1, len(x))],
                          "cps": change_points(x)})

with open(sys.argv[1], "w") as f:
    json.dump(out, f)
EOF

PERFREPRO_TREND_CASES="$tmp/cases.json" "$BIN" --filter='trend_scipy/*' >"$tmp/out" 2>&1 || {
  cat "$tmp/out"
  die "lib/trend disagrees with scipy"
}
grep -q 'Tested: 3 | Passing: 3 | Failing: 0' "$tmp/out" || { cat "$tmp/out"; die "the trend_scipy tests did not all run"; }
echo "trend_scipy: 300 cdf, 300 ppf, 150 Welch cases and 8 series agree with scipy to 1e-9"
