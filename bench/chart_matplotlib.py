#!/usr/bin/python3
"""Draws perfrepro's sample scaling chart with matplotlib, for comparison
with gen/4-charts/chart.c (chart_render_png).

    /usr/bin/python3 bench/chart_matplotlib.py OUT.png [N]

Renders the same chart N times (default 1) to OUT.png, 720x400 pixels, and
prints one line on stdout:

    matplotlib N=<N> ms_per_chart=<ms> cpu_ms_per_chart=<ms> (import <ms> ms, first chart <ms> ms)

ms_per_chart is the mean wall time over the N renders (figure creation,
plotting and PNG encoding), excluding the import of matplotlib;
cpu_ms_per_chart the same in process CPU time (steadier on a busy
machine).  The first chart (font cache warm-up) is counted in the means and
also reported alone.

Needs python3-matplotlib and fonts-noto-cjk.
"""

import sys
import time

T_IMPORT = time.perf_counter()
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402
from matplotlib.ticker import FixedLocator, FixedFormatter  # noqa: E402

IMPORT_MS = (time.perf_counter() - T_IMPORT) * 1e3

# matplotlib reads only the first face of a .ttc collection, which for
# fonts-noto-cjk's NotoSansCJK-Regular.ttc is "Noto Sans CJK JP"; it holds the
# same Han characters (Japanese forms for a few), so it serves when the SC
# face is not listed.
FAMILIES = ["Noto Sans CJK SC", "Noto Sans CJK JP"]
GPUS = [1, 2, 4, 8, 16, 32]
MEASURED = [347.12, 604.11, 899.41, 1404.55, 2384.3, 5552.77]
PUBLISHED = [380, 740, 1450, 2850, 5500, 10600]
TITLE = "ResNet50 v1.5 吞吐扩展 (images/s)"
X_LABEL = "GPU 数量"
Y_LABEL = "吞吐 (images/s)"

# Okabe-Ito, in the order gen/4-charts/chart.c uses.
BLUE, VERMILLION, GREY = "#0072B2", "#D55E00", "#8C8C8C"


def pick_font():
    names = {f.name for f in font_manager.fontManager.ttflist}
    for family in FAMILIES:
        if family in names:
            return family
    sys.exit("chart_matplotlib.py: none of the font families %s found; install fonts-noto-cjk"
             % ", ".join(FAMILIES))


def draw(path):
    fig, ax = plt.subplots(figsize=(7.2, 4.0), dpi=100)
    ax.plot(GPUS, MEASURED, color=BLUE, linewidth=2, marker="o", markersize=7,
            label="本次测量 (PyTorch, FP16)")
    ax.plot(GPUS, PUBLISHED, color=VERMILLION, linewidth=1.2, marker="s", markersize=7,
            markerfacecolor="white", markeredgewidth=1.6, label="公开数据 (NVIDIA)")
    ideal = [MEASURED[0] * g / GPUS[0] for g in GPUS]
    ax.plot(GPUS, ideal, color=GREY, linewidth=1.6, linestyle=(0, (5, 3.5)),
            label="理想线性扩展")
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(GPUS))
    ax.xaxis.set_major_formatter(FixedFormatter([str(g) for g in GPUS]))
    ax.xaxis.set_minor_locator(FixedLocator([]))
    ax.set_ylim(bottom=0)
    ax.grid(True, color="#e6e6e6", linewidth=1)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_title(TITLE, fontsize=12, fontweight="bold")
    ax.set_xlabel(X_LABEL, fontsize=10)
    ax.set_ylabel(Y_LABEL, fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, frameon=False,
              fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: chart_matplotlib.py OUT.png [N]")
    path = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) == 3 else 1
    if n < 1:
        sys.exit("chart_matplotlib.py: N must be at least 1")
    plt.rcParams["font.family"] = "sans-serif"
    plt.rcParams["font.sans-serif"] = [pick_font()]
    plt.rcParams["axes.unicode_minus"] = False
    t0 = time.perf_counter()
    c0 = time.process_time()
    draw(path)
    first_ms = (time.perf_counter() - t0) * 1e3
    for _ in range(n - 1):
        draw(path)
    total_ms = (time.perf_counter() - t0) * 1e3
    cpu_ms = (time.process_time() - c0) * 1e3
    print("matplotlib N=%d ms_per_chart=%.3f cpu_ms_per_chart=%.3f (import %.1f ms, first chart %.1f ms)"
          % (n, total_ms / n, cpu_ms / n, IMPORT_MS, first_ms))


if __name__ == "__main__":
    main()
