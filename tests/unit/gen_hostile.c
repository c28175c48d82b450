/* gen under hostile data: what people type into data files (titles, notes,
 * steps, failure details quoted from logs) must come out of the reports as
 * inert text, and what could escape the report tree (ids, log paths, URLs,
 * partial names) must be refused with an error naming the file and field.
 * docs/hardening.md lists what each test covers. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmark-gfm.h>

#include "1-load/data.h"
#include "base/cmarkx.h"
#include "buf.h"
#include "cmd/report.h"
#include "fileio.h"
#include "jdoc.h"
#include "record.h"
#include "template/mustache.h"
#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

static int collect(void *ctx, const char *path, const char *data, size_t len, pr_err *err)
{
    (void)err;
    json_object_set_new(ctx, path, json_stringn(data, len));
    return 0;
}

/* Loads dir; returns the error message (static) or NULL when it loaded. */
static const char *load_error(const char *dir)
{
    static pr_err err;
    pr_dataset *d = NULL;
    if (data_load(dir, &d, &err) < 0)
        return err.msg;
    data_free(d);
    return NULL;
}

/* ------------------------------------------------------ hostile free text */

/* Titles, notes, steps and log lines with HTML, Markdown table and code
 * syntax, and newlines that would start headings. */
static const char suite_json[] =
    "{\"perfrepro\": 1, \"model\": \"Evil\",\n"
    " \"model_title\": \"<script>alert(1)</script> | `tick` **b** [x](javascript:alert(1))\\n# "
    "InjectedA\",\n"
    " \"framework\": \"Sh\", \"framework_title\": \"Fw<img src=x onerror=alert(1)>|pipe\",\n"
    " \"framework_version\": \"1.0</td><script>v</script>\",\n"
    " \"model_name\": \"m<script>\", \"mission_name\": \"<b>mission</b>|\", \"direction_id\": 0,\n"
    " \"unit\": \"img/s<script>\",\n"
    " \"description\": \"line1\\n\\n# InjectedB\\n<script>desc</script>\\n| a | b "
    "|\\n|---|---|\",\n"
    " \"source\": {\"repo\": \"https://example.com/y.git <script>x</script> `q` | *b*\", "
    "\"commit\": \"0123abcd\"},\n"
    " \"image\": \"img`x`<script>\",\n"
    " \"environment\": {\"gpu\": \"<script>gpu</script>|x\", \"os\": \"```\\n# InjectedD\"},\n"
    " \"steps\": {\"setup\": [[\"```\"], [\"# InjectedE\"], [\"echo\", \"`id`\", \"$(id)\", "
    "\"</code\", "
    "\"<script\"]]},\n"
    " \"command\": [\"python\", \"train.py\", \"--name\", \"{model_name}\", \"'; rm -rf / #\", "
    "\"```\"],\n"
    " \"case_name\": \"c_{batch_size}_{gpus}\",\n"
    " \"matrix\": {\"nodes\": [1], \"gpus_per_node\": [1, 8], \"batch_size\": [32], "
    "\"precision\": [\"fp32\"]},\n"
    " \"rule\": {\"keyword\": \"ips:\", \"scope\": \"global\"}}\n";

static const char pub_json[] =
    "{\"perfrepro\": 1, \"label\": \"Lab<script>|\",\n"
    " \"source\": {\"title\": \"T](javascript:alert(1))<script>\", \"url\": "
    "\"https://example.com/a b)<script>x\", \"date\": \"2020<script>\"},\n"
    " \"platform\": \"unstated\", \"tables\": [{\"model\": \"Evil\", \"framework\": \"Sh\", "
    "\"precision\": \"fp32\",\n"
    "   \"batch_size\": 32, \"unit\": \"img/s<script>\", \"variant\": \"v|`x`<script>\",\n"
    "   \"note\": \"n\\n# InjectedF\\n<img src=x onerror=alert(1)>\", \"batch_label\": "
    "\"<script>bl\",\n"
    "   \"rows\": [{\"nodes\": 1, \"gpus\": 1, \"throughput\": 100},\n"
    "            {\"nodes\": 1, \"gpus\": 8, \"throughput\": 700}]}]}\n";

static const char rec_fail[] =
    "{\"log_file\": \"logs/train_log/c_32_1\", \"model_name\": \"m<script>\",\n"
    " \"mission_name\": \"<b>mission</b>|\", \"direction_id\": 0, \"run_mode\": \"sp\", \"index\": "
    "1,\n"
    " \"gpu_num\": 1, \"FINAL_RESULT\": null, \"JOB_FAIL_FLAG\": 1, \"UNIT\": \"img/s<script>\",\n"
    " \"perfrepro\": 1, \"model\": \"Evil\", \"framework\": \"Sh\", \"case\": \"c_32_1\",\n"
    " \"framework_version\": \"2.0<script>\",\n"
    " \"precision\": \"fp32\", \"batch_size\": 32, \"nodes\": 1, \"gpus_per_node\": 1, \"repeat\": "
    "1,\n"
    " \"origin\": \"measured\", \"failure\": {\"reason\": \"oom\", \"detail\": \"CUDA out of "
    "memory "
    "<script>alert(1)</script> | `x` \\n# InjectedG \\u001b[31m red [l](javascript:alert(1))\"}}\n";

static const char rec_ok[] =
    "{\"log_file\": \"logs/train_log/c_32_8\", \"model_name\": \"m<script>\",\n"
    " \"mission_name\": \"\", \"direction_id\": 0, \"run_mode\": \"mp\", \"index\": 1,\n"
    " \"gpu_num\": 8, \"FINAL_RESULT\": 650.5, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"img/s<script>\",\n"
    " \"perfrepro\": 1, \"model\": \"Evil\", \"framework\": \"Sh\", \"case\": \"c_32_8\",\n"
    " \"precision\": \"fp32\", \"batch_size\": 32, \"nodes\": 1, \"gpus_per_node\": 8, \"repeat\": "
    "1,\n"
    " \"origin\": \"measured\", \"command\": [\"python\", \"'; rm -rf / #\", \"<script>\"]}\n";

static void make_hostile_data(const char *dir)
{
    put(dir, "suites/Evil/Sh.json", suite_json);
    put(dir, "published/00-evil.json", pub_json);
    put(dir, "runs/r1/logs/index/c_32_1_speed", rec_fail);
    put(dir, "runs/r1/logs/index/c_32_8_speed", rec_ok);
    put(dir, "runs/r1/logs/train_log/c_32_1", "CUDA out of memory <script>\n");
    put(dir, "runs/r1/logs/train_log/c_32_8", "ips: 650.5\n");
}

/* Walks a rendered page and fails on anything hostile that became markup. */
static void check_page_inert(const char *name, const char *md)
{
    pr_cmarkx_doc d;
    cmarkx_parse(&d, md, strlen(md), CMARK_OPT_DEFAULT);
    cmark_iter *it = cmark_iter_new(d.root);
    cmark_event_type ev;
    pr_buf plain = PR_BUF_INIT;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        if (ev != CMARK_EVENT_ENTER)
            continue;
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        const char *lit = cmark_node_get_literal(n);
        if (t == CMARK_NODE_HEADING) {
            pr_buf_clear(&plain);
            cmarkx_plain(n, &plain);
            /* A title may be (part of) a heading; a newline in data must not
             * start one of its own. */
            cr_expect(strncmp(pr_buf_cstr(&plain), "Injected", 8) != 0,
                      "%s:%d: data made a heading: %s", name, cmarkx_line(n), pr_buf_cstr(&plain));
        }
        if (t == CMARK_NODE_HTML_INLINE || t == CMARK_NODE_HTML_BLOCK) {
            cr_expect(lit && !strcasestr(lit, "script") && !strcasestr(lit, "<img") &&
                          !strcasestr(lit, "<b>") && !strcasestr(lit, "</td>") &&
                          !strcasestr(lit, "</code>"),
                      "%s:%d: data made raw HTML: %s", name, cmarkx_line(n), lit ? lit : "");
        }
        if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
            const char *url = cmark_node_get_url(n);
            cr_expect(url && strncasecmp(url, "javascript:", 11) != 0 &&
                          strncasecmp(url, "file:", 5) != 0 && !strstr(url, "<script") &&
                          url[0] != '/',
                      "%s:%d: a link to %s", name, cmarkx_line(n), url ? url : "(null)");
        }
        if (t == CMARK_NODE_TEXT && cmarkx_in_table(n) && lit)
            cr_expect(strncmp(lit, "pipe", 4) != 0, "%s:%d: a '|' in data split a table cell", name,
                      cmarkx_line(n));
    }
    cmark_iter_free(it);
    /* Rendered as GitHub would, but without its sanitizer: nothing from the
     * data may come out as a tag. */
    char *html = cmark_render_html(d.root, CMARK_OPT_UNSAFE, cmarkx_extensions(&d));
    cr_expect(!strcasestr(html, "<script"), "%s: <script> in the HTML", name);
    cr_expect(!strcasestr(html, "<img src=x"), "%s: <img> in the HTML", name);
    cr_expect(!strstr(html, "\x1b"), "%s: an escape character in the HTML", name);
    free(html);
    pr_buf_free(&plain);
    cmarkx_free(&d);
}

Test(hostile, free_text_is_inert)
{
    char *dir = tmpdir();
    make_hostile_data(dir);
    pr_dataset *d = NULL;
    pr_err err;
    cr_assert(data_load(dir, &d, &err) == 0, "%s", err.msg);
    json_t *pages = json_object();
    pr_report_opts o = {"templates", "reports", 0, 0, NULL, 0};
    cr_assert(report_render(d, &o, collect, pages, &err) == 0, "%s", err.msg);
    const char *path;
    json_t *v;
    int n = 0, seen_title = 0;
    json_object_foreach(pages, path, v)
    {
        size_t l = strlen(path);
        if (l < 3 || strcmp(path + l - 3, ".md") != 0)
            continue;
        check_page_inert(path, json_string_value(v));
        /* The hostile text is shown, as text, not dropped. */
        seen_title |= strstr(json_string_value(v), "alert(1)") != NULL;
        n++;
    }
    cr_expect(n >= 6, "only %d pages", n);
    cr_expect(seen_title, "the hostile title does not appear at all");
    json_decref(pages);
    data_free(d);
    rm_rf(dir);
    free(dir);
}

/* Run-set titles (runset.json) reach several sentences of the framework
 * page, among them the one naming the run sets whose README items are alike
 * (issue 31, 9: that one pasted them raw). Two run sets of one platform
 * declaring the same environment group give that sentence. */
static const char env_json[] =
    "{\"perfrepro\": 1, \"source\": {\"repo\": \"o/r\", \"commit\": \"0123abcd\", \"path\": "
    "\"README.md\", \"url\": \"https://github.com/o/r/blob/0123abcd/README.md\"},\n"
    " \"groups\": [{\"title\": \"G\", \"section\": \"S\", \"line\": 3, \"items\": [\n"
    "   {\"key\": \"GPU\", \"kind\": \"gpu\", \"value\": \"V100\", \"line\": 4}]}]}\n";
static const char runset_json[] =
    "{\"perfrepro\": 1, \"title\": \"T%d <script>alert(1)</script> [l](javascript:alert(1))"
    "\\n# InjectedR | pipe\",\n"
    " \"environment\": [{\"file\": \"e1\", \"group\": \"G\"}]}\n";

Test(hostile, runset_titles_are_inert)
{
    char *dir = tmpdir();
    make_hostile_data(dir);
    put(dir, "environments/e1.json", env_json);
    put(dir, "runs/r2/logs/index/c_32_8_speed", rec_ok);
    put(dir, "runs/r2/logs/train_log/c_32_8", "ips: 650.5\n");
    for (int i = 1; i <= 2; i++) {
        char rel[64], text[sizeof runset_json + 8];
        snprintf(rel, sizeof rel, "runs/r%d/runset.json", i);
        snprintf(text, sizeof text, runset_json, i);
        put(dir, rel, text);
    }
    pr_dataset *d = NULL;
    pr_err err;
    cr_assert(data_load(dir, &d, &err) == 0, "%s", err.msg);
    json_t *pages = json_object();
    pr_report_opts o = {"templates", "reports", 0, 0, NULL, 0};
    cr_assert(report_render(d, &o, collect, pages, &err) == 0, "%s", err.msg);
    const char *path;
    json_t *v;
    int shared = 0;
    json_object_foreach(pages, path, v)
    {
        size_t l = strlen(path);
        if (l < 3 || strcmp(path + l - 3, ".md") != 0)
            continue;
        check_page_inert(path, json_string_value(v));
        /* The sentence under test is there (else the test proves nothing). */
        shared |= strstr(json_string_value(v), "states alike for run sets") != NULL;
    }
    cr_expect(shared, "no page names the run sets whose items are alike");
    json_decref(pages);
    data_free(d);
    rm_rf(dir);
    free(dir);
}

/* -------------------------------------- ids, paths and URLs are refused */

/* Writes a record with one field replaced (a JSON fragment) and loads. */
static void expect_record_refused(const char *field, const char *value, const char *want)
{
    char *dir = tmpdir();
    json_error_t je;
    json_t *r = json_loads(rec_ok, 0, &je);
    cr_assert(r, "%s", je.text);
    json_t *v = json_loads(value, JSON_DECODE_ANY, &je);
    cr_assert(v, "%s", je.text);
    json_object_set_new(r, field, v);
    char *text = json_dumps(r, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    put(dir, "runs/r1/logs/index/c_32_8_speed", text);
    put(dir, "runs/r1/logs/train_log/c_32_8", "ips: 1\n");
    const char *e = load_error(dir);
    cr_expect(e, "a record with %s %s loaded", field, value);
    if (e) {
        cr_expect(strstr(e, "c_32_8_speed:") && strstr(e, field) && strstr(e, want),
                  "message for %s %s: %s", field, value, e);
    }
    free(text);
    json_decref(r);
    rm_rf(dir);
    free(dir);
}

Test(hostile, record_paths_and_ids)
{
    expect_record_refused("log_file", "\"../../etc/passwd\"", "relative path inside the run");
    expect_record_refused("log_file", "\"/etc/passwd\"", "relative path inside the run");
    expect_record_refused("log_file", "\"logs/../../../etc/passwd\"", "relative path");
    expect_record_refused("env", "\"../env.json\"", "relative path inside the run");
    expect_record_refused("model", "\"../../x\"", "not a safe folder name");
    expect_record_refused("model", "\"/etc\"", "not a safe folder name");
    expect_record_refused("framework", "\"<script>\"", "not a safe folder name");
    expect_record_refused("framework", "\"..\"", "not a safe folder name");
}

static void expect_data_refused(const char *rel, const char *text, const char *want)
{
    char *dir = tmpdir();
    put(dir, rel, text);
    const char *e = load_error(dir);
    cr_expect(e, "%s loaded: %s", rel, text);
    if (e)
        cr_expect(strstr(e, rel) && strstr(e, want), "message: %s (wanted %s)", e, want);
    rm_rf(dir);
    free(dir);
}

Test(hostile, urls_ids_and_case_names)
{
    char *p = pr_xstrdup(pub_json);
    char *s;
    /* javascript: and file: sources. */
    static const char *const urls[] = {"javascript:alert(1)", "file:///etc/passwd",
                                       "JAVASCRIPT:alert(1)", " https://x", "data:text/html,x"};
    for (size_t i = 0; i < sizeof urls / sizeof *urls; i++) {
        json_error_t je;
        json_t *j = json_loads(pub_json, 0, &je);
        json_object_set_new(json_object_get(j, "source"), "url", json_string(urls[i]));
        s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        expect_data_refused("published/00-evil.json", s, "source.url");
        free(s);
        json_decref(j);
    }
    /* Ids name folders: no markup, no paths. */
    static const char *const ids[] = {"<script>", "../x", "a/b", ".hidden", "-rf", "a b", ""};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        json_error_t je;
        json_t *j = json_loads(suite_json, 0, &je);
        cr_assert(j, "%s", je.text);
        json_object_set_new(j, "model", json_string(ids[i]));
        s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        expect_data_refused("suites/Evil/Sh.json", s, "model");
        free(s);
        json_decref(j);
        j = json_loads(pub_json, 0, &je);
        json_object_set_new(json_array_get(json_object_get(j, "tables"), 0), "framework",
                            json_string(ids[i]));
        s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        expect_data_refused("published/00-evil.json", s, "framework");
        free(s);
        json_decref(j);
    }
    /* A case name template that makes a path. */
    static const char *const names[] = {"../{model}", "/tmp/{case}", "a/{batch_size}",
                                        "{model_name}"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        json_error_t je;
        json_t *j = json_loads(suite_json, 0, &je);
        json_object_set_new(j, "case_name", json_string(names[i]));
        s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        /* {model_name} is "m<script>": not a file name either. */
        expect_data_refused("suites/Evil/Sh.json", s, "not a safe file name");
        free(s);
        json_decref(j);
    }
    free(p);
}

/* A data file nested 10,000 levels deep: Jansson's depth limit, reported
 * with the file, line and column. */
Test(hostile, nesting_depth)
{
    size_t n = 10000;
    char *text = pr_xmalloc(2 * n + 2);
    memset(text, '[', n);
    memset(text + n, ']', n);
    text[2 * n] = '\n';
    text[2 * n + 1] = '\0';
    expect_data_refused("published/00-deep.json", text, "depth");
    /* The same inside an object, where a record would be. */
    char *obj = pr_xasprintf("{\"tables\": %s}", text);
    char *dir = tmpdir();
    put(dir, "published/01-deep.json", obj);
    const char *e = load_error(dir);
    cr_expect(e && strstr(e, "published/01-deep.json:1:"), "no position: %s", e ? e : "(loaded)");
    rm_rf(dir);
    free(dir);
    free(obj);
    free(text);
}

/* ------------------------------------------------ partials outside templates */

Test(hostile, partial_names_escaping_the_templates)
{
    pr_mustache_dir md = {"templates/en", ".mustache"};
    static const char *const bad[] = {"../../etc/passwd", "/etc/passwd", "../zh/notes", "a/../../b",
                                      ".."};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pr_buf out = PR_BUF_INIT;
        pr_err err;
        cr_expect(mustache_dir_loader(&md, bad[i], &out, &err) < 0, "partial %s loaded", bad[i]);
        cr_expect(strstr(err.msg, "escapes the template directory") ||
                      strstr(err.msg, "not a safe"),
                  "partial %s: %s", bad[i], err.msg);
        pr_buf_free(&out);
    }
    /* Through a real template tree: a template naming such a partial stops
     * the build with the template's name and position; a dynamic name taken
     * from the data ({{>*x}}) is checked the same way. */
    char *t = tmpdir();
    char *cmd = pr_xasprintf("cp -R templates/. '%s'/", t);
    cr_assert(system(cmd) == 0);
    free(cmd);
    char *notes = pr_fileio_path_join(t, "en/notes.mustache");
    pr_buf b = PR_BUF_INIT;
    pr_err err;
    cr_assert(pr_fileio_read_file(notes, &b, &err) == 0, "%s", err.msg);
    pr_buf_puts(&b, "\n{{>../../../../etc/passwd}}\n");
    cr_assert(pr_fileio_write_atomic(notes, b.data, b.len, &err) == 0, "%s", err.msg);
    pr_buf_free(&b);
    char *dir = tmpdir();
    make_hostile_data(dir);
    pr_dataset *d = NULL;
    cr_assert(data_load(dir, &d, &err) == 0, "%s", err.msg);
    json_t *pages = json_object();
    pr_report_opts o = {t, "reports", 0, 0, NULL, 0};
    cr_expect(report_render(d, &o, collect, pages, &err) < 0, "a partial outside rendered");
    cr_expect(strstr(err.msg, "notes:") && strstr(err.msg, "escapes the template"), "message: %s",
              err.msg);
    json_decref(pages);
    data_free(d);
    free(notes);
    rm_rf(t);
    rm_rf(dir);
    free(t);
    free(dir);
}

/* ------------------------------------- values in command blocks (bash) */

/* Every value of the suite that reaches a ```bash block is one shell word:
 * pasted, the block runs git, cd and the job with the suite's values and
 * nothing they spell.  tests/scripts/hostile_gen_values.sh runs the blocks
 * through a shell. */
#define EVIL "a'b; touch PWN $(id) `id` #?&|<>"
#define EVIL_Q "'a'\\''b; touch PWN $(id) `id` #?&|<>'"

static const char evil_suite[] =
    "{\"perfrepro\": 1, \"model\": \"Evil\", \"framework\": \"Sh\", \"model_name\": \"" EVIL "\",\n"
    " \"mission_name\": \"x\", \"direction_id\": 0, \"unit\": \"img/s\",\n"
    " \"source\": {\"repo\": \"https://ex.com/" EVIL "\", \"path\": \"sub dir/" EVIL "\",\n"
    "            \"commit\": \"0123abcd\"},\n"
    " \"command\": [\"python\", \"t.py\", \"--name={model_name}\", "
    "\"--addr={master_addr}:{master_port}\",\n"
    "             \"{node_rank}x\", \"\"],\n"
    " \"case_name\": \"c_{gpus}\",\n"
    " \"matrix\": {\"nodes\": [1, 2], \"gpus_per_node\": [1, 8], \"batch_size\": [32], "
    "\"precision\": [\"fp32\"]},\n"
    " \"rule\": {\"keyword\": \"ips:\", \"scope\": \"global\"}}\n";

static json_t *render_dir(const char *dir)
{
    pr_dataset *d = NULL;
    pr_err err;
    cr_assert(data_load(dir, &d, &err) == 0, "%s", err.msg);
    json_t *pages = json_object();
    pr_report_opts o = {"templates", "reports", 0, 0, NULL, 0};
    cr_assert(report_render(d, &o, collect, pages, &err) == 0, "%s", err.msg);
    data_free(d);
    return pages;
}

Test(hostile, command_block_values_are_shell_words)
{
    char *dir = tmpdir();
    put(dir, "suites/Evil/Sh ) x'y #?.json", evil_suite);
    json_t *pages = render_dir(dir);
    const char *md = json_string_value(json_object_get(pages, "Evil/Sh/README.en.md"));
    cr_assert(md, "no page");
    static const char *const want[] = {
        "\ngit clone 'https://ex.com/a'\\''b; touch PWN $(id) `id` #?&|<>'\n",
        "\ncd " EVIL_Q "\n",
        "\ngit checkout 0123abcd\n",
        "\ncd 'sub dir/a'\\''b; touch PWN $(id) `id` #?&|<>'\n",
        "\"$PERFREPRO\"/bin/perfrepro-measure run '",
        "/suites/Evil/Sh ) x'\\''y #?.json' --out \"$PERFREPRO\"/data/runs/Evil-Sh\n",
        "/suites/Evil/Sh ) x'\\''y #?.json' --launcher slurm --only c_2 \\\n"
        "  --out \"$PERFREPRO\"/data/runs/Evil-Sh-2\n",
        /* One node: the runner's own values; on two, node 0's address and
         * port are the reader's variables and one block serves every node,
         * each with its NODE_RANK. */
        "\nCUDA_VISIBLE_DEVICES=0 python t.py '--name=a'\\''b; touch PWN $(id) `id` #?&|<>' "
        "--addr=127.0.0.1:29500 0x ''\n",
        "\n: \"${MASTER_ADDR:?}\" \"${MASTER_PORT:?}\" "
        "\"${NODE_RANK:?}\"\nCUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 "
        "python t.py '--name=a'\\''b; touch PWN $(id) `id` #?&|<>' "
        "--addr=\"$MASTER_ADDR\":\"$MASTER_PORT\" \"$NODE_RANK\"x ''\n",
        /* The suite file is linked under its own name, encoded. */
        "/suites/Evil/Sh%20%29%20x'y%20%23%3F.json)",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect(strstr(md, want[i]), "the page lacks %s\n%s", want[i], md);
    cr_expect(!strstr(md, "git checkout abc;"), "unquoted");
    json_decref(pages);
    rm_rf(dir);
    free(dir);
}

/* "shell": true: the command string is the suite's shell code, kept; each
 * value put into it is quoted, as measure's runner does. */
Test(hostile, shell_command_values_are_quoted)
{
    char *dir = tmpdir();
    json_error_t je;
    json_t *j = json_loads(evil_suite, 0, &je);
    cr_assert(j, "%s", je.text);
    json_object_set_new(j, "shell", json_true());
    json_object_set_new(j, "command",
                        json_pack("[s]", "cd x && python t.py --name {model_name} "
                                         "--rank {node_rank} $([ {precision} = fp16 ] && echo y)"));
    char *s = json_dumps(j, JSON_INDENT(1));
    put(dir, "suites/Evil/Sh.json", s);
    json_t *pages = render_dir(dir);
    const char *md = json_string_value(json_object_get(pages, "Evil/Sh/README.en.md"));
    cr_assert(md);
    cr_expect(strstr(md, "\ncd x && python t.py --name " EVIL_Q
                         " --rank 0 $([ fp32 = fp16 ] && echo y)\n"),
              "%s", md);
    json_decref(pages);
    json_decref(j);
    free(s);
    rm_rf(dir);
    free(dir);
}

/* Values that cannot be valid are refused at load, naming the field. */
Test(hostile, source_values_that_cannot_be_valid)
{
    static const struct {
        const char *key, *value, *want;
    } bad[] = {
        {"commit", "abc; touch /tmp/x", "source.commit: \"abc; touch /tmp/x\" is not a commit id"},
        {"commit", "abc", "not a commit id"},
        {"commit", "0123456789abcdef0123456789abcdef012345678", "not a commit id"},
        {"commit", "HEAD~1", "not a commit id"},
        {"repo", "--upload-pack=touch PWN", "source.repo: must not be empty or start with '-'"},
        {"repo", "https://x/y\n# z", "source.repo: control character"},
        {"path", "-x", "source.path: must not be empty or start with '-'"},
        {"path", "a\rb", "source.path: control character"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_error_t je;
        json_t *j = json_loads(evil_suite, 0, &je);
        json_object_set_new(json_object_get(j, "source"), bad[i].key, json_string(bad[i].value));
        char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        expect_data_refused("suites/Evil/Sh.json", s, bad[i].want);
        free(s);
        json_decref(j);
    }
    /* A published table's commit too (it is printed as repo@commit). */
    json_error_t je;
    json_t *j = json_loads(pub_json, 0, &je);
    json_object_set_new(json_object_get(j, "source"), "commit", json_string("main; x"));
    char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    expect_data_refused("published/00-evil.json", s, "source.commit: \"main; x\" is not a commit");
    free(s);
    json_decref(j);
}

/* ------------------------------------------------- log_file and logs */

Test(hostile, empty_log_file_and_bad_logs_elements)
{
    /* A figure with no log behind it. */
    expect_record_refused("log_file", "\"\"", "empty: a case with a FINAL_RESULT needs its log");
    /* Each element of logs is a log path like log_file. */
    expect_record_refused("logs", "[\"logs/train_log/c_32_8\", 3]", "logs[1]: expected a path");
    expect_record_refused("logs", "[\"../../etc/passwd\"]",
                          "logs[0]: \"../../etc/passwd\" must be a relative path");
    expect_record_refused("logs", "[\"/etc/passwd\"]",
                          "logs[0]: \"/etc/passwd\" must be a relative");
    expect_record_refused("logs", "[\"\"]", "logs[0]: expected a path");
    expect_record_refused("logs", "[\"logs/train_log/c_32_8\", \"logs/train_log/none\"]",
                          "logs[1]: \"logs/train_log/none\" does not exist");
    expect_record_refused("logs", "[\"logs/train_log\"]", "logs[0]: \"logs/train_log\" is");
    /* A failed case may have no log (it never started). */
    char *dir = tmpdir();
    put(dir, "runs/r1/logs/index/c_32_1_speed", rec_fail);
    json_error_t je;
    json_t *r = json_loads(rec_fail, 0, &je);
    json_object_set_new(r, "log_file", json_string(""));
    char *text = json_dumps(r, JSON_INDENT(1));
    put(dir, "runs/r1/logs/index/c_32_1_speed", text);
    cr_expect(load_error(dir) == NULL, "a failed case without a log: %s", load_error(dir));
    /* And the logs of a record that lists them load. */
    json_object_set_new(r, "logs", json_pack("[s]", "logs/train_log/c_32_1.rank0"));
    free(text);
    text = json_dumps(r, JSON_INDENT(1));
    put(dir, "runs/r1/logs/index/c_32_1_speed", text);
    put(dir, "runs/r1/logs/train_log/c_32_1.rank0", "x\n");
    cr_expect(load_error(dir) == NULL, "logs: %s", load_error(dir));
    free(text);
    json_decref(r);
    rm_rf(dir);
    free(dir);
}

/* ------------------------------------------------------------ long text */

/* Text from data costs the site ~170 bytes per escaped character (cmark-gfm
 * makes a node of each): a string is at most PR_TEXT_MAX bytes, refused at
 * load with its field, so validate and build fail alike. */
Test(hostile, text_longer_than_the_limit)
{
    char *big = pr_xmalloc(PR_TEXT_MAX + 2);
    memset(big, '_', PR_TEXT_MAX + 1);
    big[PR_TEXT_MAX + 1] = '\0';
    json_error_t je;
    json_t *j = json_loads(evil_suite, 0, &je);
    json_object_set_new(j, "description", json_string(big));
    char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    expect_data_refused("suites/Evil/Sh.json", s,
                        "description: 16385 bytes of text: at most 16384");
    free(s);
    json_decref(j);
    j = json_loads(pub_json, 0, &je);
    json_object_set_new(j, "label", json_string(big));
    s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    expect_data_refused("published/00-evil.json", s, "label: 16385 bytes of text");
    free(s);
    json_decref(j);
    char *v = pr_xasprintf("\"%s\"", big);
    expect_record_refused("mission_name", v, "16385 bytes of text");
    free(v);
    /* At the limit it loads. */
    big[PR_TEXT_MAX] = '\0';
    j = json_loads(evil_suite, 0, &je);
    json_object_set_new(j, "description", json_string(big));
    s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    char *dir = tmpdir();
    put(dir, "suites/Evil/Sh.json", s);
    cr_expect(load_error(dir) == NULL, "%s", load_error(dir));
    rm_rf(dir);
    free(dir);
    free(s);
    json_decref(j);
    free(big);
}
