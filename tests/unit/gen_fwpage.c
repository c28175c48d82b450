/* gen: a framework page a reader finishes (issue 23, item 3).  The main
 * platform first, then by amount of data, CPU machines last; a source's
 * newest revision in the platform's published table and its older ones in
 * the "published over time" table only; every figure of the data on its
 * page; the parse rules in words, their JSON without float noise. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "1-load/data.h"
#include "2-model/rmodel.h"
#include "3-tables/mdtable.h"
#include "3-tables/rule_words.h"
#include "cmd/report.h"
#include "gentest.h"
#include "template/lang.h"
#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

static json_t *render(const char *data_dir)
{
    char *out = pr_fileio_path_join(data_dir, "out");
    json_t *pages = gt_render(data_dir, out, 0);
    free(out);
    return pages;
}

static void platform(const char *d, const char *id, const char *title, const char *kind)
{
    char *rel = pr_xasprintf("platforms/%s.json", id);
    char *text = pr_xasprintf("{\"perfrepro\": 1, \"title\": {\"zh\": \"%s\", \"en\": \"%s\"},\n"
                              " \"device\": {\"kind\": \"%s\", \"model\": \"%s device\","
                              " \"per_node\": 8}}\n",
                              title, title, kind, title);
    put(d, rel, text);
    free(rel);
    free(text);
}

/* A record of framework F (model M, fp32, BS 64) on `gpus` devices of
 * one node on platform plat, in run `run`; origin "measured" or "parsed". */
static void record(const char *d, const char *run, int gpus, int repeat, double v,
                   const char *origin, const char *plat)
{
    char *case_name =
        pr_xasprintf("clas_M_%s_bs64_fp32_%d_r%d", gpus > 1 ? "mp" : "sp", gpus, repeat);
    char *log = pr_xasprintf("logs/train_log/%s", case_name);
    json_t *r = json_pack(
        "{s:s,s:s,s:s,s:i,s:s,s:i,s:i,s:f,s:i,s:s,s:i,s:s,s:s,s:s,s:s,s:i,"
        "s:i,s:i,s:i,s:s,s:s,s:s}",
        "log_file", log, "model_name", "clas_M", "mission_name", "x", "direction_id", 0, "run_mode",
        gpus > 1 ? "mp" : "sp", "index", 1, "gpu_num", gpus, "FINAL_RESULT", v, "JOB_FAIL_FLAG", 0,
        "UNIT", "images/s", "perfrepro", 1, "model", "M", "framework", "F", "case", case_name,
        "precision", "fp32", "batch_size", 64, "nodes", 1, "gpus_per_node", gpus, "repeat", repeat,
        "origin", origin, "started_at", "2026-11-20T10:00:00Z", "platform", plat);
    if (strcmp(origin, "parsed") == 0)
        json_object_set_new(r, "source",
                            json_pack("{s:s,s:s,s:s,s:s}", "repo", "Someone/logs", "commit",
                                      "0123456789abcdef", "path", "log.txt", "url",
                                      "https://example.com/someone/log.txt"));
    char *text = json_dumps(r, JSON_INDENT(1));
    char *rel = pr_xasprintf("runs/%s/logs/index/%s_speed", run, case_name);
    char *log_rel = pr_xasprintf("runs/%s/%s", run, log);
    put(d, rel, text);
    put(d, log_rel, "ips: 1\n");
    free(case_name);
    free(log);
    free(text);
    free(rel);
    free(log_rel);
    json_decref(r);
}

/* A published table of framework F (fp32, BS 64) on plat, from revision
 * commit (dated date) of one source file. */
static void published(const char *d, const char *file, const char *plat, const char *commit,
                      const char *date, const char *rows)
{
    char *rel = pr_xasprintf("published/%s.json", file);
    char *text = pr_xasprintf(
        "{\"perfrepro\": 1, \"label\": \"Vendor\", \"source\": {\"title\": \"Vendor README\","
        " \"repo\": \"vendor/repo\"}, \"platform\": \"%s\", \"tables\": [\n"
        " {\"model\": \"M\", \"framework\": \"F\", \"precision\": \"fp32\", \"batch_size\": 64,"
        "  \"unit\": \"images/s\", \"variant\": \"%s\", \"source\": {\"commit\": \"%s\","
        "  \"path\": \"README.md\", \"date\": \"%s\", \"url\": "
        "\"https://example.com/vendor/repo/blob/%s/README.md\"}, \"rows\": [%s]}]}\n",
        plat, date, commit, date, commit, rows);
    put(d, rel, text);
    free(rel);
    free(text);
}

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The results' "### " headings of md, in order, joined by '|'; the caller
 * frees it. */
static char *sections(const char *md, const char *results)
{
    const char *r = strstr(md, results);
    cr_assert(r, "no %s in:\n%s", results, md);
    pr_buf b = PR_BUF_INIT;
    for (const char *p = strstr(r, "\n### "); p; p = strstr(p + 1, "\n### ")) {
        const char *next_h2 = strstr(r + 1, "\n## ");
        if (next_h2 && p > next_h2)
            break;
        const char *e = strchr(p + 5, '\n');
        pr_buf_put(&b, p + 5, (size_t)(e - p - 5));
        pr_buf_putc(&b, '|');
    }
    return pr_buf_detach(&b);
}

/* ---------------------------------------------------------------- order */

Test(fwpage, main_platform_first_then_by_data_cpu_last)
{
    char *d = tmpdir();
    platform(d, "a", "Amach", "gpu");
    platform(d, "b", "Bmach", "gpu");
    platform(d, "m", "Mmach", "gpu");
    platform(d, "c", "Cmach", "cpu");
    /* The CPU machine has the most figures, B more than A, M the fewest
     * but it is the model's representative platform. */
    published(d, "a", "a", "aaaaaaaa11", "2020-01-01",
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 10},"
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 70}");
    published(d, "b", "b", "bbbbbbbb11", "2020-01-01",
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 11},"
              "{\"nodes\": 1, \"gpus\": 4, \"throughput\": 40},"
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 80}");
    published(d, "c", "c", "cccccccc11", "2020-01-01",
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 1},"
              "{\"nodes\": 1, \"gpus\": 2, \"throughput\": 2},"
              "{\"nodes\": 1, \"gpus\": 4, \"throughput\": 3},"
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 4}");
    published(d, "m", "m", "dddddddd11", "2020-01-01",
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 90}");
    put(d, "models/M.json",
        "{\"perfrepro\": 1, \"headline\": {\"platform\": \"m\", \"precision_class\": \"fp32\","
        " \"batch_size\": 64, \"gpus\": 8}}\n");
    json_t *pages = render(d);
    /* A page of published figures: its results are section 2. */
    char *zh = sections(gt_page(pages, "M/F/README.md"), "\n## 二、");
    char *en = sections(gt_page(pages, "M/F/README.en.md"), "\n## 2. ");
    cr_expect(strstr(zh, "Mmach|Bmach|Amach|Cmach|"), "%s\n%s", zh,
              gt_page(pages, "M/F/README.md"));
    cr_expect(strstr(en, "Mmach|Bmach|Amach|Cmach|"), "%s", en);
    free(zh);
    free(en);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* ---------------------------------------------------------------- revisions */

Test(fwpage, newest_revision_in_the_table_older_over_time)
{
    char *d = tmpdir();
    platform(d, "a", "Amach", "gpu");
    published(d, "1-old", "a", "0123456789aa", "2019-05-27",
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 363.1},"
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 2857.9}");
    published(d, "2-new", "a", "fedcba987654", "2021-04-20",
              "{\"nodes\": 1, \"gpus\": 1, \"throughput\": 367},"
              "{\"nodes\": 1, \"gpus\": 8, \"throughput\": 2855}");
    json_t *pages = render(d);
    const char *md = gt_page(pages, "M/F/README.md");
    const char *over = strstr(md, "#### 公布数据随时间");
    cr_assert(over, "no over-time table:\n%s", md);
    /* The newest: a row of the platform's table, before the over-time one. */
    const char *newest = strstr(md, "| 367† | 2855† · ×7.78 · 97.2% |");
    cr_expect(newest && newest < over, "%s", md);
    cr_expect_eq(count(md, "blob/fedcba987654/"), 1, "%s", md);
    /* The older: one row of the over-time table, naming its commit and date. */
    const char *older = strstr(
        md, "[Vendor @ 01234567](https://example.com/vendor/repo/blob/0123456789aa/README.md)");
    cr_expect(older && older > over, "%s", md);
    cr_expect(strstr(over, "2019-05-27") && strstr(over, "| 363.1† | 2857.9† · ×7.87 · 98.4% |"),
              "%s", over);
    cr_expect_eq(count(md, "363.1†"), 1, "the older figure reprinted:\n%s", md);
    cr_expect(!strstr(md, "同一格的其他来源"), "%s", md);
    json_decref(pages);
    rm_rf(d);
    free(d);
}

/* ---------------------------------------------------------------- figures */

/* Every figure of the shipped data is on its framework page, in both
 * languages: each cell's median as tables print it, each published row's
 * figure as its source printed it (older revisions included). */
Test(fwpage, every_figure_is_on_its_page)
{
    pr_dataset *ds = NULL;
    pr_err err;
    cr_assert(data_load("data", &ds, &err) == 0, "%s", err.msg);
    rmodel_world *w = rmodel_build(ds, "out");
    json_t *pages = render("data");
    size_t checked = 0;
    pr_buf fig = PR_BUF_INIT;
    for (size_t m = 0; m < w->nmodels; m++)
        for (size_t k = 0; k < w->models[m]->nfws; k++) {
            const rmodel_fw *f = w->models[m]->fws[k];
            for (int en = 0; en < 2; en++) {
                char *path =
                    pr_xasprintf("%s/%s/README%s.md", f->model, f->framework, en ? ".en" : "");
                const char *md = gt_page(pages, path);
                for (size_t i = 0; i < f->ncfgs; i++) {
                    const rmodel_cfg *c = &f->cfgs[i];
                    for (size_t r = 0; r < c->ncells; r++) {
                        if (!c->cells[r].n_ok)
                            continue;
                        pr_buf_clear(&fig);
                        mdtable_value(&fig, c->cells[r].median);
                        cr_expect(strstr(md, pr_buf_cstr(&fig)), "%s: %s missing", path,
                                  pr_buf_cstr(&fig));
                        checked++;
                    }
                    for (size_t t = 0; t < f->npubs; t++) {
                        if (!rmodel_pub_of(f->pubs[t], c))
                            continue;
                        for (size_t r = 0; r < f->pubs[t]->nrows; r++) {
                            const pr_pub_row *row = &f->pubs[t]->rows[r];
                            if (!row->has_value)
                                continue;
                            pr_buf_clear(&fig);
                            mdtable_pub_value(&fig, row);
                            pr_buf_puts(&fig, "†");
                            cr_expect(strstr(md, pr_buf_cstr(&fig)), "%s: %s (%s) missing", path,
                                      pr_buf_cstr(&fig), f->pubs[t]->file);
                            checked++;
                        }
                    }
                }
                free(path);
            }
        }
    cr_expect(checked > 500, "only %zu figures checked", checked);
    pr_buf_free(&fig);
    json_decref(pages);
    rmodel_free(w);
    data_free(ds);
}

/* ---------------------------------------------------------------- rules */

Test(fwpage, rules_in_words_and_json_without_float_noise)
{
    json_t *rule = json_pack("{s:s,s:s,s:s,s:i,s:s,s:{s:f,s:i},s:i}", "profile", "paddle-ips",
                             "keyword", "ips:", "scope", "per_card", "skip", 10, "reduce",
                             "trimmed_mean", "trim", "fraction", 0.05, "min", 5, "min_records", 5);
    char *s = rule_words_json_shortest(rule);
    cr_expect(strstr(s, "\"fraction\":0.05,") || strstr(s, "\"fraction\":0.05}"), "%s", s);
    cr_expect(!strstr(s, "0000000000"), "%s", s);
    free(s);
    /* Without a real (no round trip taken): the keys sorted, compact. */
    json_t *plain =
        json_pack("{s:s,s:[i,s,{s:n}]}", "scope", "per_card", "keyword", 1, "a\u00e9", "z", NULL);
    s = rule_words_json_shortest(plain);
    cr_expect_str_eq(s, "{\"keyword\":[1,\"a\u00e9\",{\"z\":null}],\"scope\":\"per_card\"}");
    free(s);
    json_decref(plain);
    lang en = {.code = "en"};
    pr_err err;
    cr_assert(lang_load(&en, "templates", &err) == 0, "%s", err.msg);
    pr_buf b = PR_BUF_INIT;
    rule_words(&en, rule, &b, &err);
    cr_expect(strstr(pr_buf_cstr(&b),
                     "per run the trimmed mean of records 11 to the end, 5 % "
                     "trimmed from each end (at least 5 each), at least 5 records"),
              "%s", pr_buf_cstr(&b));
    cr_expect(strstr(pr_buf_cstr(&b), "one card's rate, times the GPUs"), "%s", pr_buf_cstr(&b));
    pr_buf_free(&b);
    lang_free(&en);
    json_decref(rule);
}

/* A walk's rule texts (export rows, the page's rule list) are made once per
 * run of equal rules, and are still each rule's own text: an equal rule
 * gets the text kept, another rule its own, and a real 0 (json_equal to
 * -0.0, printed apart) is never taken from the one before. */
Test(fwpage, rule_text_kept_for_equal_rules_only)
{
    json_t *a = json_pack("{s:s,s:f}", "keyword", "ips:", "skip_ratio", 0.05);
    json_t *b = json_pack("{s:f,s:s}", "skip_ratio", 0.05, "keyword", "ips:"); /* equal to a */
    json_t *c = json_pack("{s:s,s:f}", "keyword", "ips:", "skip_ratio", 0.1);
    json_t *z = json_pack("{s:s,s:f}", "keyword", "ips:", "skip_ratio", 0.0);
    json_t *m = json_pack("{s:s,s:f}", "keyword", "ips:", "skip_ratio", -0.0);
    rule_words_last last = {NULL, NULL};
    const json_t *rules[] = {a, b, c, a, z, m, z};
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        char *own = rule_words_json_shortest(rules[i]);
        const char *text = rule_words_shortest_of(&last, rules[i]);
        cr_expect_str_eq(text, own, "rule %zu", i);
        if (i == 1)
            cr_expect_eq(last.rule, a, "an equal rule keeps the text made for the first");
        free(own);
    }
    rule_words_last_free(&last);
    json_decref(a);
    json_decref(b);
    json_decref(c);
    json_decref(z);
    json_decref(m);
}

/* ---------------------------------------------------------------- left out */

/* A cell of runs measured here leaves its imported records out: the page
 * says so under the table (it was a line of the cell's "other sources"). */
Test(fwpage, imported_records_left_out_are_said)
{
    char *d = tmpdir();
    platform(d, "a", "Amach", "gpu");
    record(d, "r1", 1, 1, 100.0, "measured", "a");
    record(d, "r2", 1, 2, 90.0, "parsed", "a");
    json_t *pages = render(d);
    const char *zh = gt_page(pages, "M/F/README.md"), *en = gt_page(pages, "M/F/README.en.md");
    cr_expect(strstr(zh, "- 1机1卡：另有 1 条导入日志的记录未采用"), "%s", zh);
    cr_expect(strstr(en, "- 1 node × 1 GPU: 1 record from imported logs left out"), "%s", en);
    json_decref(pages);
    rm_rf(d);
    free(d);
}
