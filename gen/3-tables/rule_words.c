/* rule_words: a parse rule in words (rule_words.h). */
#include "rule_words.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/md.h"
#include "jdoc.h"

/* 1 when v holds a real somewhere (the precision matters). */
static int has_real(const json_t *v)
{
    const char *key;
    size_t i;
    json_t *x;
    if (json_is_real(v))
        return 1;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, x) if (has_real(x)) return 1;
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x) if (has_real(x)) return 1;
    }
    return 0;
}

char *rule_words_json_shortest(const json_t *v)
{
    /* Without a real every precision prints the same, and reads back as
     * itself: no round trip (a rule per record, 10^4 records a build). */
    if (!has_real(v))
        return json_dumps(v,
                          JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(1));
    /* The fewest significant digits at which every real of v reads back
     * as itself (Jansson's default, 17, prints 0.05 as
     * 0.050000000000000003). */
    for (int p = 1; p < 17; p++) {
        char *s =
            json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(p));
        json_t *back = s ? json_loads(s, JSON_DECODE_ANY, NULL) : NULL;
        int same = back && json_equal(back, (json_t *)v);
        json_decref(back);
        if (same)
            return s;
        free(s);
    }
    return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
}

const char *rule_words_shortest_of(rule_words_last *last, const json_t *rule)
{
    if (!last->text || !json_equal((json_t *)rule, (json_t *)last->rule) ||
        pr_jdoc_json_has_zero_real(rule)) {
        free(last->text);
        last->text = rule_words_json_shortest(rule);
        last->rule = rule;
    }
    return last->text;
}

void rule_words_last_free(rule_words_last *last)
{
    free(last->text);
    last->text = NULL;
    last->rule = NULL;
}

/* The word for one of the values a key may take (fwp_rw_<value>); NULL
 * when the value is none of known (the caller shows it as written). */
static const char *word(const lang *l, const char *value, const char *const *known)
{
    for (; value && *known; known++)
        if (strcmp(*known, value) == 0) {
            char key[64];
            snprintf(key, sizeof key, "fwp_rw_%s", value);
            return lang_str(l, key);
        }
    return NULL;
}

/* Sets k in v to s as a code span. */
static void set_code(json_t *v, const char *k, const char *s)
{
    pr_buf b = PR_BUF_INIT;
    md_code_span(&b, s);
    json_object_set_new(v, k, json_string(pr_buf_cstr(&b)));
    pr_buf_free(&b);
}

/* Sets k in v to the word for value (a code span when it has none). */
static void set_word(const lang *l, json_t *v, const char *k, const char *value,
                     const char *const *known)
{
    const char *w = word(l, value, known);
    if (w) {
        pr_buf b = PR_BUF_INIT;
        md_text(&b, w);
        json_object_set_new(v, k, json_string(pr_buf_cstr(&b)));
        pr_buf_free(&b);
    } else if (value) {
        set_code(v, k, value);
    }
}

void rule_words(const lang *l, const json_t *rule, pr_buf *out, pr_err *err)
{
    static const char *const reduces[] = {"mean", "median", "last", "trimmed_mean",
                                          "best", "max",    "min",  NULL};
    static const char *const values[] = {
        "throughput", "seconds_per_step", "ms_per_step", "steps_per_second", "raw", NULL};
    static const char *const scopes[] = {"per_card", "global", NULL};
    /* The keys the words say; any other is listed as written. */
    static const char *const said[] = {
        "profile", "step", "keyword", "match", "source",      "line_filter", "value", "scope",
        "rank",    "skip", "reduce",  "trim",  "min_records", "round",       "files", NULL};
    json_t *v = json_object();
    const char *s;
    if ((s = json_string_value(json_object_get(rule, "profile"))))
        set_code(v, "profile", s);
    if ((s = json_string_value(json_object_get(rule, "step"))))
        set_code(v, "step", s);
    if ((s = json_string_value(json_object_get(rule, "keyword"))))
        set_code(v, "keyword", s);
    if ((s = json_string_value(json_object_get(rule, "match"))))
        set_code(v, "match", s);
    if ((s = json_string_value(json_object_get(rule, "line_filter"))) && *s)
        set_code(v, "line_filter", s);
    s = json_string_value(json_object_get(rule, "source"));
    if (s && strcmp(s, "records") != 0)
        set_code(v, "source", s);
    /* Commas only between the parts there are. */
    int reads = json_object_get(v, "keyword") || json_object_get(v, "match") ||
                json_object_get(v, "source");
    int profile = json_object_get(v, "profile") != NULL;
    json_object_set_new(v, "both", json_boolean(reads && profile));
    json_object_set_new(v, "lead", json_boolean(reads || profile));
    s = json_string_value(json_object_get(rule, "value"));
    set_word(l, v, "value", s ? s : "throughput", values);
    set_word(l, v, "scope", json_string_value(json_object_get(rule, "scope")), scopes);
    json_t *rank = json_object_get(rule, "rank");
    if (json_is_integer(rank)) {
        /* A string: rank 0 is a rank, and mustache takes the number 0 for
         * "no". */
        char r[32];
        snprintf(r, sizeof r, "%lld", (long long)json_integer_value(rank));
        json_object_set_new(v, "rank", json_string(r));
    } else if (json_is_string(rank))
        json_object_set_new(v, "rank_all", json_true());
    json_int_t skip = json_integer_value(json_object_get(rule, "skip"));
    if (skip > 0)
        json_object_set_new(v, "from", json_integer(skip + 1));
    s = json_string_value(json_object_get(rule, "reduce"));
    set_word(l, v, "reduce", s ? s : "mean", reduces);
    if (s && strcmp(s, "trimmed_mean") == 0) {
        /* docs/parse-rules.md: {"fraction": 0.05, "min": 5} unless given. */
        json_t *trim = json_object_get(rule, "trim");
        json_t *fr = json_object_get(trim, "fraction"), *mn = json_object_get(trim, "min");
        double fraction = fr ? json_number_value(fr) : 0.05;
        char pct[32];
        snprintf(pct, sizeof pct, "%.10g", 100.0 * fraction);
        json_object_set_new(v, "trim", json_true());
        json_object_set_new(v, "trim_pct", json_string(pct));
        json_object_set_new(v, "trim_min", json_integer(mn ? json_integer_value(mn) : 5));
    }
    json_t *minr = json_object_get(rule, "min_records");
    json_int_t min_records = minr ? json_integer_value(minr) : 1;
    json_object_set_new(v, "min_records", json_integer(min_records));
    json_object_set_new(v, "one_record", json_boolean(min_records == 1));
    json_t *round = json_object_get(rule, "round");
    if (json_is_integer(round)) {
        char r[32]; /* a string: "round": 0 is a rule too */
        snprintf(r, sizeof r, "%lld", (long long)json_integer_value(round));
        json_object_set_new(v, "round", json_string(r));
    }
    s = json_string_value(json_object_get(rule, "files"));
    if (s && strcmp(s, "parts") == 0)
        json_object_set_new(v, "parts", json_true());
    pr_buf others = PR_BUF_INIT;
    const char *k;
    json_t *val;
    json_object_foreach((json_t *)rule, k, val)
    {
        int known = 0;
        for (const char *const *p = said; *p && !known; p++)
            known = strcmp(*p, k) == 0;
        if (known)
            continue;
        char *text = rule_words_json_shortest(val);
        pr_buf kv = PR_BUF_INIT;
        pr_buf_printf(&kv, "%s=%s", k, text);
        if (others.len)
            pr_buf_puts(&others, lang_str(l, "value_sep"));
        md_code_span(&others, pr_buf_cstr(&kv));
        pr_buf_free(&kv);
        free(text);
    }
    if (others.len)
        json_object_set_new(v, "others", json_string(pr_buf_cstr(&others)));
    pr_buf_free(&others);
    lang_fmt(l, "fwp_rule_words", v, out, err);
    json_decref(v);
}

/* The keys that decide which records count and how they are combined. */
static const char *const estimator_keys[] = {"source", "table", "step", "skip",
                                             "reduce", "trim",  NULL};

char *rule_words_estimator_key(const json_t *rule)
{
    if (!rule)
        return NULL;
    json_t *k = json_object();
    for (const char *const *p = estimator_keys; *p; p++) {
        json_t *v = json_object_get(rule, *p);
        /* A copy: the record's rule is read by pages on other threads, and
         * a reference would write its count. */
        if (v)
            json_object_set_new(k, *p, json_deep_copy(v));
    }
    char *s = rule_words_json_shortest(k);
    json_decref(k);
    return s;
}

void rule_words_estimator(const lang *l, const json_t *rule, pr_buf *out, pr_err *err)
{
    static const char *const reduces[] = {"mean", "median", "last", "trimmed_mean",
                                          "best", "max",    "min",  NULL};
    if (!rule)
        return;
    json_t *v = json_object();
    const char *s = json_string_value(json_object_get(rule, "source"));
    const char *table = json_string_value(json_object_get(rule, "table"));
    if (s && strcmp(s, "summary_table") == 0) {
        /* The log's own summary: its figure is the tool's, not a reducer's. */
        set_code(v, "table", table ? table : s);
        lang_fmt(l, "rw_estimator_summary", v, out, err);
        json_decref(v);
        return;
    }
    if ((s = json_string_value(json_object_get(rule, "step"))))
        set_code(v, "step", s);
    json_int_t skip = json_integer_value(json_object_get(rule, "skip"));
    if (skip > 0)
        json_object_set_new(v, "from", json_integer(skip + 1));
    s = json_string_value(json_object_get(rule, "reduce"));
    set_word(l, v, "reduce", s ? s : "mean", reduces);
    if (s && strcmp(s, "trimmed_mean") == 0) {
        json_t *fr = json_object_get(json_object_get(rule, "trim"), "fraction");
        char pct[32];
        snprintf(pct, sizeof pct, "%.10g", 100.0 * (fr ? json_number_value(fr) : 0.05));
        json_object_set_new(v, "trim", json_true());
        json_object_set_new(v, "trim_pct", json_string(pct));
    }
    lang_fmt(l, "rw_estimator", v, out, err);
    json_decref(v);
}
