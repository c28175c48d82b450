/* Tests for gen/mustache: the official spec (../shared/spec/mustache, or
 * $PERFREPRO_SHARED/spec/mustache), errors, loaders, escaping, limits. */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "err.h"
#include "fileio.h"
#include "template/mustache.h"

/* ---------- the spec ---------- */

static const char *shared_dir(void)
{
    const char *s = getenv("PERFREPRO_SHARED");
    return s && *s ? s : "../shared";
}

/* A JSON-quoted copy of [s, s+n) for messages; the caller frees it. */
static char *quoted(const char *s, size_t n)
{
    json_t *j = json_stringn(s, n);
    char *q = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    return q ? q : strdup("(not UTF-8)");
}

static void run_spec(const char *file)
{
    char *dir = pr_xasprintf("%s/spec/mustache", shared_dir());
    int have = pr_fileio_is_dir(dir);
    free(dir);
    if (!have)
        cr_skip_test("%s/spec/mustache not found", shared_dir());
    char *path = pr_xasprintf("%s/spec/mustache/%s", shared_dir(), file);
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    cr_assert_not_null(doc, "cannot load %s: %s", path, jerr.text);
    json_t *tests = json_object_get(doc, "tests");
    cr_assert(json_is_array(tests) && json_array_size(tests) > 0, "%s: no tests", path);

    int failed = 0, ran = 0;
    size_t i;
    json_t *tc;
    json_array_foreach(tests, i, tc)
    {
        const char *name = json_string_value(json_object_get(tc, "name"));
        json_t *tmpl = json_object_get(tc, "template");
        json_t *exp = json_object_get(tc, "expected");
        cr_assert(name && json_is_string(tmpl) && json_is_string(exp), "%s: malformed case %zu",
                  file, i);
        pr_mustache_opts o = {0};
        o.name = name;
        o.load_partial = mustache_json_loader;
        o.partial_ctx = json_object_get(tc, "partials");
        pr_buf out = PR_BUF_INIT;
        pr_err err = {{0}};
        int rc = mustache_render(json_string_value(tmpl), json_string_length(tmpl),
                                 json_object_get(tc, "data"), &o, &out, &err);
        ran++;
        if (rc != 0 || out.len != json_string_length(exp) ||
            memcmp(pr_buf_cstr(&out), json_string_value(exp), out.len) != 0) {
            failed++;
            char *qt = quoted(json_string_value(tmpl), json_string_length(tmpl));
            char *qe = quoted(json_string_value(exp), json_string_length(exp));
            char *qg = rc == 0 ? quoted(pr_buf_cstr(&out), out.len) : pr_xstrdup(err.msg);
            cr_log_error("%s: case '%s' failed\n  template: %s\n  expected: %s\n  got:      %s%s",
                         file, name, qt, qe, rc == 0 ? "" : "error: ", qg);
            free(qt);
            free(qe);
            free(qg);
        }
        pr_buf_free(&out);
    }
    json_decref(doc);
    free(path);
    cr_expect_gt(ran, 0);
    cr_assert_eq(failed, 0, "%s: %d of %d spec cases failed (see the log)", file, failed, ran);
}

Test(spec, comments)
{
    run_spec("comments.json");
}
Test(spec, delimiters)
{
    run_spec("delimiters.json");
}
Test(spec, interpolation)
{
    run_spec("interpolation.json");
}
Test(spec, inverted)
{
    run_spec("inverted.json");
}
Test(spec, partials)
{
    run_spec("partials.json");
}
Test(spec, sections)
{
    run_spec("sections.json");
}
Test(spec, inheritance)
{
    run_spec("~inheritance.json");
}
Test(spec, dynamic_names)
{
    run_spec("~dynamic-names.json");
}

/* ---------- helpers ---------- */

/* Renders tmpl with data given as JSON text (NULL: no data) and partials as
 * a JSON object text (NULL: none).  Returns rc; out and err are filled. */
static int render(const char *tmpl, const char *data_json, const char *partials_json, pr_buf *out,
                  pr_err *err)
{
    json_t *data = data_json ? json_loads(data_json, JSON_DECODE_ANY, NULL) : NULL;
    json_t *partials = partials_json ? json_loads(partials_json, 0, NULL) : NULL;
    if (data_json)
        cr_assert_not_null(data, "bad test data: %s", data_json);
    if (partials_json)
        cr_assert_not_null(partials, "bad test partials: %s", partials_json);
    pr_mustache_opts o = {0};
    o.name = "t.mustache";
    o.load_partial = mustache_json_loader;
    o.partial_ctx = partials;
    int rc = mustache_render(tmpl, strlen(tmpl), data, &o, out, err);
    json_decref(data);
    json_decref(partials);
    return rc;
}

/* Renders and expects success with exactly `want`. */
static void expect_render(const char *tmpl, const char *data_json, const char *partials_json,
                          const char *want)
{
    pr_buf out = PR_BUF_INIT;
    pr_err err = {{0}};
    int rc = render(tmpl, data_json, partials_json, &out, &err);
    cr_assert_eq(rc, 0, "template %s: unexpected error: %s", tmpl, err.msg);
    cr_expect_str_eq(pr_buf_cstr(&out), want, "template %s", tmpl);
    pr_buf_free(&out);
}

/* Renders and expects failure whose message contains `want`; out, which
 * starts as "keep", must be left as it was. */
static void expect_error(const char *tmpl, const char *data_json, const char *partials_json,
                         const char *want)
{
    pr_buf out = PR_BUF_INIT;
    pr_buf_puts(&out, "keep");
    pr_err err = {{0}};
    int rc = render(tmpl, data_json, partials_json, &out, &err);
    cr_assert_eq(rc, -1, "template %s: expected an error, got output %s", tmpl, pr_buf_cstr(&out));
    cr_expect(strstr(err.msg, want) != NULL, "template %s: message '%s' lacks '%s'", tmpl, err.msg,
              want);
    cr_expect_str_eq(pr_buf_cstr(&out), "keep", "output changed on error");
    pr_buf_free(&out);
}

/* ---------- syntax errors ---------- */

Test(errors, unclosed_section)
{
    expect_error("{{#a}}x", "{}", NULL, "t.mustache:1:1:");
    expect_error("{{#a}}x", "{}", NULL, "unclosed section '{{#a}}'");
    expect_error("line1\n  {{#a}}x", NULL, NULL, "t.mustache:2:3:");
    expect_error("{{#a}}{{#b}}{{/b}}", NULL, NULL, "t.mustache:1:1: unclosed section");
    expect_error("x\n{{<p}}{{$b}}{{/b}}", NULL, NULL, "t.mustache:2:1: unclosed section '{{<p}}'");
}

Test(errors, unclosed_tag)
{
    expect_error("{{a", NULL, NULL, "t.mustache:1:1: unclosed tag");
    expect_error("ab\n{{a", NULL, NULL, "t.mustache:2:1:");
    expect_error("ab\ncd {{{a}}", NULL, NULL, "t.mustache:2:4: unclosed tag");
    expect_error("{{=<% %>=}}\n<%a", NULL, NULL, "t.mustache:2:1: unclosed tag: no '%>'");
    expect_error("{{! never closed", NULL, NULL, "t.mustache:1:1: unclosed tag");
}

Test(errors, mismatched_and_stray)
{
    expect_error("{{#a}}{{/b}}", NULL, NULL, "t.mustache:1:7:");
    expect_error("{{#a}}{{/b}}", NULL, NULL, "does not match '{{#a}}' opened at line 1, column 1");
    expect_error("x{{/a}}", NULL, NULL, "t.mustache:1:2: closing tag '{{/a}}' without an opening");
    expect_error("{{<*p}}{{/p}}", NULL, NULL, "does not match");
}

Test(errors, bad_names_and_delimiters)
{
    expect_error("{{}}", NULL, NULL, "t.mustache:1:1: empty tag name");
    expect_error("{{a b}}", NULL, NULL, "whitespace inside a name");
    expect_error("{{a..b}}", NULL, NULL, "empty part in a dotted name");
    expect_error("{{#.a}}{{/.a}}", NULL, NULL, "empty part");
    expect_error("{{=<%=}}", NULL, NULL, "invalid set-delimiter tag");
    expect_error("{{=a b c=}}", NULL, NULL, "invalid set-delimiter tag");
    expect_error("{{>}}", NULL, NULL, "empty tag name");
}

Test(errors, nesting_limit)
{
    pr_buf t = PR_BUF_INIT;
    for (int i = 0; i <= PR_MUSTACHE_MAX_NESTING; i++)
        pr_buf_puts(&t, "{{#a}}");
    for (int i = 0; i <= PR_MUSTACHE_MAX_NESTING; i++)
        pr_buf_puts(&t, "{{/a}}");
    expect_error(pr_buf_cstr(&t), NULL, NULL, "nested more than");
    /* One level less is fine. */
    pr_buf_clear(&t);
    for (int i = 0; i < PR_MUSTACHE_MAX_NESTING; i++)
        pr_buf_puts(&t, "{{#a}}");
    pr_buf_puts(&t, "x");
    for (int i = 0; i < PR_MUSTACHE_MAX_NESTING; i++)
        pr_buf_puts(&t, "{{/a}}");
    expect_render(pr_buf_cstr(&t), "{\"a\": true}", NULL, "x");
    pr_buf_free(&t);
}

Test(errors, error_inside_partial_names_both_places)
{
    expect_error("ok\n  {{>p}}", NULL, "{\"p\": \"\\n{{#x}}\"}", "t.mustache:2:3: in partial 'p'");
    expect_error("ok\n  {{>p}}", NULL, "{\"p\": \"\\n{{#x}}\"}", "p:2:1: unclosed section");
}

/* ---------- recursion limits ---------- */

Test(limits, self_including_partial)
{
    expect_error("{{>self}}", "{}", "{\"self\": \"{{>self}}\"}", "nested more than 100 deep");
    expect_error("{{>self}}", "{}", "{\"self\": \"x\\n  {{>self}}\\n\"}", "self:2:3:");
    expect_error("{{<p}}{{/p}}", "{}", "{\"p\": \"{{<p}}{{$b}}x{{/b}}{{/p}}\"}",
                 "nested more than");
    expect_error("{{>*t}}", "{\"t\": \"self\"}", "{\"self\": \"{{>*t}}\"}", "nested more than");
}

Test(limits, recursion_bounded_by_data_is_fine)
{
    expect_render("{{>node}}",
                  "{\"c\": 1, \"kids\": [{\"c\": 2, \"kids\": [{\"c\": 3, \"kids\": []}]}]}",
                  "{\"node\": \"{{c}}({{#kids}}{{>node}}{{/kids}})\"}", "1(2(3()))");
}

Test(limits, deep_sections_through_partials)
{
    expect_error("{{>r}}", "{\"a\": [1]}",
                 "{\"r\": \"{{#a}}{{#a}}{{#a}}{{#a}}{{#a}}{{#a}}{{>r}}{{/a}}{{/a}}{{/a}}{{/a}}"
                 "{{/a}}{{/a}}\"}",
                 "deeper than");
}

/* ---------- loaders ---------- */

Test(loaders, dir_loader_rejects_escaping_names)
{
    pr_mustache_dir d = {"/tmp", ".mustache"};
    const char *bad[] = {"../etc/passwd", "/etc/passwd", "a/../../b", ".."};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pr_buf out = PR_BUF_INIT;
        pr_err err = {{0}};
        cr_expect_eq(mustache_dir_loader(&d, bad[i], &out, &err), -1, "%s accepted", bad[i]);
        char *want = pr_xasprintf("partial name '%s' escapes the template directory", bad[i]);
        cr_expect(strstr(err.msg, want) != NULL, "message '%s' for %s", err.msg, bad[i]);
        cr_expect_eq(out.len, 0);
        free(want);
        pr_buf_free(&out);
    }
    pr_buf out = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_expect_eq(mustache_dir_loader(&d, "a//b", &out, &err), -1);
    cr_expect(strstr(err.msg, "invalid partial name 'a//b'") != NULL, "%s", err.msg);

    /* Through a template, static and dynamic. */
    pr_mustache_opts o = {0};
    o.name = "page";
    o.load_partial = mustache_dir_loader;
    o.partial_ctx = &d;
    const char *t1 = "x\n{{>../etc/passwd}}";
    cr_expect_eq(mustache_render(t1, strlen(t1), NULL, &o, &out, &err), -1);
    cr_expect(strstr(err.msg, "page:2:1: partial name '../etc/passwd' escapes") != NULL, "%s",
              err.msg);
    json_t *data = json_pack("{s:s}", "p", "/etc/passwd");
    const char *t2 = "{{>*p}}";
    cr_expect_eq(mustache_render(t2, strlen(t2), data, &o, &out, &err), -1);
    cr_expect(strstr(err.msg, "'/etc/passwd' escapes the template directory") != NULL, "%s",
              err.msg);
    cr_expect_eq(out.len, 0);
    json_decref(data);
    pr_buf_free(&out);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char *path = pr_fileio_path_join(dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    free(path);
}

Test(loaders, dir_loader_loads_partials)
{
    char dir[] = "/tmp/pr-mustache-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char *sub = pr_fileio_path_join(dir, "sub");
    cr_assert_eq(mkdir(sub, 0700), 0);
    write_file(dir, "hdr.mustache", "Hello {{name}}!\n");
    write_file(sub, "item.mustache", "- {{.}}\n");

    pr_mustache_dir d = {dir, ".mustache"};
    pr_mustache_opts o = {0};
    o.name = "page";
    o.load_partial = mustache_dir_loader;
    o.partial_ctx = &d;
    json_t *data = json_pack("{s:s,s:[s,s]}", "name", "World", "items", "a", "b");
    const char *t = "{{>hdr}}\n<ul>\n  {{#items}}\n  {{>sub/item}}\n  {{/items}}\n</ul>\n";
    pr_buf out = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_expect_eq(mustache_render(t, strlen(t), data, &o, &out, &err), 0, "%s", err.msg);
    cr_expect_str_eq(pr_buf_cstr(&out), "Hello World!\n<ul>\n  - a\n  - b\n</ul>\n");

    /* A missing partial is an error naming the file looked for. */
    pr_buf_clear(&out);
    const char *t2 = "{{>nope}}";
    cr_expect_eq(mustache_render(t2, strlen(t2), data, &o, &out, &err), -1);
    char *want = pr_xasprintf("page:1:1: no partial 'nope' (looked for %s/nope.mustache)", dir);
    cr_expect_str_eq(err.msg, want);
    free(want);

    pr_buf_free(&out);
    json_decref(data);
    char *p1 = pr_fileio_path_join(dir, "hdr.mustache");
    char *p2 = pr_fileio_path_join(sub, "item.mustache");
    unlink(p1);
    unlink(p2);
    rmdir(sub);
    rmdir(dir);
    free(p1);
    free(p2);
    free(sub);
}

Test(loaders, json_loader)
{
    json_t *parts = json_pack("{s:s,s:i}", "a", "A{{x}}", "n", 5);
    pr_buf out = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_expect_eq(mustache_json_loader(parts, "a", &out, &err), 1);
    cr_expect_str_eq(pr_buf_cstr(&out), "A{{x}}");
    cr_expect_eq(mustache_json_loader(parts, "missing", &out, &err), 0);
    cr_expect_eq(mustache_json_loader(parts, "n", &out, &err), 0);
    cr_expect_eq(mustache_json_loader(NULL, "a", &out, &err), 0);
    cr_expect_str_eq(pr_buf_cstr(&out), "A{{x}}");
    json_decref(parts);
    pr_buf_free(&out);
}

/* Counts loads to show each partial is loaded once per render. */
static int counting_loader(void *ctx, const char *name, pr_buf *out, pr_err *err)
{
    (void)err;
    int *count = ctx;
    (*count)++;
    pr_buf_printf(out, "[%s]", name);
    return 1;
}

Test(loaders, partials_loaded_once_per_render)
{
    int count = 0;
    pr_mustache_opts o = {0};
    o.load_partial = counting_loader;
    o.partial_ctx = &count;
    json_t *data = json_pack("{s:[i,i,i]}", "l", 1, 2, 3);
    const char *t = "{{#l}}{{>p}}{{/l}}{{>q}}{{>p}}";
    pr_buf out = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_assert_eq(mustache_render(t, strlen(t), data, &o, &out, &err), 0, "%s", err.msg);
    cr_expect_str_eq(pr_buf_cstr(&out), "[p][p][p][q][p]");
    cr_expect_eq(count, 2);
    json_decref(data);
    pr_buf_free(&out);
}

/* ---------- escaping and values ---------- */

static void bracket_escape(void *ctx, pr_buf *out, const char *s, size_t len)
{
    int *calls = ctx;
    (*calls)++;
    pr_buf_putc(out, '[');
    pr_buf_put(out, s, len);
    pr_buf_putc(out, ']');
}

Test(escape, custom_callback_only_for_escaped_tags)
{
    int calls = 0;
    pr_mustache_opts o = {0};
    o.escape = bracket_escape;
    o.escape_ctx = &calls;
    json_t *data = json_pack("{s:s}", "x", "<a&b>");
    const char *t = "{{x}}|{{{x}}}|{{&x}}|{{ x }}";
    pr_buf out = PR_BUF_INIT;
    pr_err err = {{0}};
    cr_assert_eq(mustache_render(t, strlen(t), data, &o, &out, &err), 0, "%s", err.msg);
    cr_expect_str_eq(pr_buf_cstr(&out), "[<a&b>]|<a&b>|<a&b>|[<a&b>]");
    cr_expect_eq(calls, 2);
    json_decref(data);
    pr_buf_free(&out);
}

Test(escape, default_html_set)
{
    expect_render("{{x}}|{{{x}}}", "{\"x\": \"& \\\" < > '\"}", NULL,
                  "&amp; &quot; &lt; &gt; '|& \" < > '");
}

Test(values, numbers_and_scalars)
{
    expect_render("{{i}} {{r}} {{s}} {{big}} {{neg}} {{third}} {{whole}}",
                  "{\"i\": 42, \"r\": 1.5, \"s\": 0.1, \"big\": 1e300, \"neg\": -3, "
                  "\"third\": 0.3333333333333333, \"whole\": 2.0}",
                  NULL, "42 1.5 0.1 1e+300 -3 0.3333333333333333 2");
    expect_render("{{t}} {{f}} [{{n}}] {{{o}}} {{{a}}} {{o}}",
                  "{\"t\": true, \"f\": false, \"n\": null, \"o\": {\"k\": 1}, \"a\": [1, \"x\"]}",
                  NULL, "true false [] {\"k\":1} [1,\"x\"] {&quot;k&quot;:1}");
}

Test(values, truthiness)
{
    const char *t = "{{#v}}T{{/v}}{{^v}}F{{/v}}";
    expect_render(t, "{\"v\": \"\"}", NULL, "F");
    expect_render(t, "{\"v\": 0}", NULL, "F");
    expect_render(t, "{\"v\": 0.0}", NULL, "F");
    expect_render(t, "{\"v\": []}", NULL, "F");
    expect_render(t, "{\"v\": null}", NULL, "F");
    expect_render(t, "{\"v\": false}", NULL, "F");
    expect_render(t, "{}", NULL, "F");
    expect_render(t, "{\"v\": \"0\"}", NULL, "T");
    expect_render(t, "{\"v\": 1}", NULL, "T");
    expect_render(t, "{\"v\": {}}", NULL, "T");
    expect_render(t, "{\"v\": [0]}", NULL, "T");
}

Test(values, null_data_and_appending)
{
    pr_buf out = PR_BUF_INIT;
    pr_buf_puts(&out, "X");
    pr_err err = {{0}};
    const char *t1 = "a{{b}}{{#c}}no{{/c}}{{.}}d";
    cr_assert_eq(mustache_render(t1, strlen(t1), NULL, NULL, &out, &err), 0, "%s", err.msg);
    cr_expect_str_eq(pr_buf_cstr(&out), "Xad");
    /* No loader: partials and parents render as nothing. */
    const char *t2 = "[{{>p}}{{<q}}{{/q}}]";
    cr_assert_eq(mustache_render(t2, strlen(t2), NULL, NULL, &out, &err), 0, "%s", err.msg);
    cr_expect_str_eq(pr_buf_cstr(&out), "Xad[]");
    pr_buf_free(&out);
}

/* ---------- indentation beyond the spec's cases ---------- */

Test(indent, nested_standalone_partials)
{
    expect_render("a\n  {{>p}}\nb\n", "{\"v\": \"x\\ny\"}",
                  "{\"p\": \"1\\n  {{>q}}\\n2\\n\", \"q\": \"{{v}}\\n\\n3\\n\"}",
                  "a\n  1\n    x\ny\n    \n    3\n  2\nb\n");
}

Test(indent, parent_block_arguments)
{
    expect_render("<body>\n  {{<layout}}\n    {{$main}}\n      <p>{{x}}</p>\n      <p>two</p>\n"
                  "    {{/main}}\n  {{/layout}}\n</body>\n",
                  "{\"x\": \"X\"}",
                  "{\"layout\": \"<div>\\n  {{$main}}\\n  default\\n  {{/main}}\\n</div>\\n\"}",
                  "<body>\n  <div>\n    <p>X</p>\n    <p>two</p>\n  </div>\n</body>\n");
}

/* The examples the reindentation rules were proposed with (mustache/spec
 * pull request 131 and issue 135), with the outputs given there. */
Test(indent, spec_discussion_examples)
{
    expect_render("{{<parent}}\n        {{$block}}\n        Hello\n        {{/block}}\n{{/parent}}",
                  NULL, "{\"parent\": \"I say,\\n  {{$block}}\\n  Hi there!\\n  {{/block}}\"}",
                  "I say,\n  Hello\n");
    expect_render(
        "* a\n* b\n* {{<parent}}{{$block}}\n                {{! notice this big indent }}\n"
        "                c{{/block}}{{/parent}}\n* d\n* e",
        NULL, "{\"parent\": \"{{$block}}x{{/block}}\"}", "* a\n* b\n* c\n* d\n* e");
}

/* ---------- robustness: random templates must never crash ---------- */

Test(robust, random_templates)
{
    static const char *frag[] = {
        "{{",     "}}",      "{",       "}",           "{{#a}}", "{{/a}}",  "{{^a}}",
        "{{#l}}", "{{/l}}",  "{{>p}}",  "{{>q}}",      "{{<p}}", "{{/p}}",  "{{$b}}",
        "{{/b}}", "{{$c}}",  "{{/c}}",  "{{=<% %>=}}", "<%",     "%>",      "<%={{ }}=%>",
        "\n",     "\r\n",    "  ",      "\t",          "x",      "{{{a}}}", "{{&a}}",
        "{{!c}}", "{{>*d}}", "{{<*d}}", "{{/*d}}",     "{{.}}",  "{{a.b}}", "{{=",
        "=}}",    "{{/",     "{{#",     "{{>",         "{{<",    "{{$",     "{{!",
        "*",      ".",       "{{..}}",  "{{#.}}",      "{{/.}}"};
    const size_t nfrag = sizeof frag / sizeof *frag;
    json_t *data = json_loads("{\"a\": {\"b\": \"<&>\"}, \"l\": [1, [2], {\"a\": 0}], \"d\": "
                              "\"p\", \"b\": true}",
                              0, NULL);
    json_t *parts = json_loads("{\"p\": \"{{$b}}B\\n{{/b}}{{>q}}\", \"q\": \"  {{#l}}\\n{{.}}"
                               "{{$c}}{{/c}}\\n{{/l}}\", \"r\": \"{{>r}}\"}",
                               0, NULL);
    cr_assert(data && parts);
    pr_mustache_opts o = {0};
    o.name = "rand";
    o.load_partial = mustache_json_loader;
    o.partial_ctx = parts;
    unsigned long long seed = 0x9e3779b97f4a7c15ULL;
    int ok = 0, errs = 0;
    pr_buf t = PR_BUF_INIT, out = PR_BUF_INIT;
    for (int iter = 0; iter < 20000; iter++) {
        pr_buf_clear(&t);
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        int n = (int)((seed >> 33) % 24);
        for (int k = 0; k < n; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            pr_buf_puts(&t, frag[(seed >> 33) % nfrag]);
        }
        pr_buf_clear(&out);
        pr_err err = {{0}};
        int rc = mustache_render(t.data ? t.data : "", t.len, data, &o, &out, &err);
        cr_assert(rc == 0 || rc == -1, "rc %d", rc);
        if (rc == 0) {
            ok++;
        } else {
            errs++;
            cr_assert(err.msg[0] != '\0', "error without message for %s", pr_buf_cstr(&t));
            cr_assert_eq(out.len, 0);
        }
    }
    cr_expect_gt(ok, 1000);
    cr_expect_gt(errs, 1000);
    pr_buf_free(&t);
    pr_buf_free(&out);
    json_decref(data);
    json_decref(parts);
}
