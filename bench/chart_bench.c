/* Times gen/4-charts/chart.c on the sample scaling chart that bench/chart_matplotlib.py
 * draws with matplotlib, so the two can be compared in one run.
 *   chart_bench N OUT_PREFIX
 * prints: perfrepro N=<N> png_ms_per_chart=<ms> svg_ms_per_chart=<ms>
 * (CPU time per chart of this process, steadier than wall time on a busy
 * machine) and writes OUT_PREFIX.png and OUT_PREFIX.svg of the last render. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "4-charts/chart.h"
#include "fileio.h"

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static pr_chart *sample(void)
{
    static const double gpus[] = {1, 2, 4, 8, 16, 32};
    static const double measured[] = {347.12, 604.11, 899.41, 1404.55, 2384.3, 5552.77};
    static const double published[] = {380, 740, 1450, 2850, 5500, 10600};
    pr_chart *c = chart_new(PR_CHART_LINE_LOG2X, "ResNet50 v1.5 吞吐扩展 (images/s)", "GPU 数量",
                            "吞吐 (images/s)");
    chart_set_lang(c, PR_CHART_LANG_ZH);
    int m = chart_add_series(c, "本次测量 (PyTorch, FP32)", PR_CHART_SOLID);
    int p = chart_add_series(c, "公开数据 (NVIDIA)", PR_CHART_HOLLOW_MARKERS);
    for (int i = 0; i < 6; i++) {
        chart_add_point(c, m, gpus[i], measured[i]);
        chart_add_point(c, p, gpus[i], published[i]);
    }
    chart_add_ideal(c, 1, measured[0]);
    return c;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: chart_bench N OUT_PREFIX\n");
        return 2;
    }
    char *end;
    long n = strtol(argv[1], &end, 10);
    if (*end || n < 1 || n > 100000) {
        fprintf(stderr, "chart_bench: bad N '%s'\n", argv[1]);
        return 2;
    }
    pr_err err;
    pr_buf png = PR_BUF_INIT, svg = PR_BUF_INIT;
    pr_chart *c = sample();
    /* The first render pays for font loading, as matplotlib's first chart does. */
    double t0 = cpu_ms();
    for (long i = 0; i < n; i++) {
        pr_buf_clear(&png);
        if (chart_render_png(c, 720, 400, &png, &err) < 0)
            goto fail;
    }
    double t1 = cpu_ms();
    for (long i = 0; i < n; i++) {
        pr_buf_clear(&svg);
        if (chart_render_svg(c, 720, 400, &svg, &err) < 0)
            goto fail;
    }
    double t2 = cpu_ms();
    printf("perfrepro N=%ld png_ms_per_chart=%.3f svg_ms_per_chart=%.3f\n", n, (t1 - t0) / n,
           (t2 - t1) / n);
    char *p = pr_xasprintf("%s.png", argv[2]), *s = pr_xasprintf("%s.svg", argv[2]);
    int rc = pr_fileio_write_atomic(p, png.data, png.len, &err) < 0 ||
             pr_fileio_write_atomic(s, svg.data, svg.len, &err) < 0;
    if (rc)
        fprintf(stderr, "chart_bench: %s\n", err.msg);
    free(p);
    free(s);
    chart_free(c);
    pr_buf_free(&png);
    pr_buf_free(&svg);
    return rc;
fail:
    fprintf(stderr, "chart_bench: %s\n", err.msg);
    return 1;
}
