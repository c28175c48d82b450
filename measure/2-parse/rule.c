/* rule: a checked parse rule (lib/rulecfg.c) with its compiled pattern. */
#include "rule.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "numbers.h"

struct pr_rule {
    pr_rulecfg_def d; /* the settings and their strings */
    pcre2_code *re;
    pcre2_match_data *md;
};

const char *rule_profile_name(pr_rulecfg_profile p)
{
    return pr_rulecfg_profile_name(p);
}

const char *rule_value_name(pr_rulecfg_value_kind v)
{
    return pr_rulecfg_value_name(v);
}

/* rulecfg's hook: compiles the "match" pattern into the rule (arg). */
static int compile_regex(const pr_rulecfg_ctx *x, const pr_jdoc_jcur *where, const char *pattern,
                         void *arg)
{
    pr_rule *r = arg;
    int code;
    PCRE2_SIZE off;
    r->re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);
    if (!r->re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        return pr_rulecfg_fail(x, where, "invalid regular expression at offset %zu: %s",
                               (size_t)off, (const char *)msg);
    }
    uint32_t groups = 0;
    pcre2_pattern_info(r->re, PCRE2_INFO_CAPTURECOUNT, &groups);
    if (groups != 1)
        return pr_rulecfg_fail(x, where,
                               "the pattern has %u capture groups; it needs exactly one, around "
                               "the number (use (?:...) for other groups)",
                               (unsigned)groups);
    /* JIT is an optimisation: without it (unsupported CPU) matching still
     * works through the interpreter. */
    (void)pcre2_jit_compile(r->re, PCRE2_JIT_COMPLETE);
    r->md = pcre2_match_data_create_from_pattern(r->re, NULL);
    return 0;
}

static int from_jcur(const pr_jdoc_jcur *c, int nopos, pr_rule **out, pr_err *err)
{
    pr_rule *r = pr_xcalloc(1, sizeof *r);
    if (pr_rulecfg_check(c, nopos, compile_regex, r, &r->d, err) < 0) {
        rule_free(r);
        return -1;
    }
    *out = r;
    return 0;
}

int rule_from_jcur(const pr_jdoc_jcur *c, pr_rule **out, pr_err *err)
{
    return from_jcur(c, 0, out, err);
}

int rule_from_json(json_t *v, const char *name, pr_rule **out, pr_err *err)
{
    pr_jdoc_json_init();
    if (!json_is_object(v))
        return pr_err_set(err, name, 0, 0, "rule", "expected an object");
    char *text = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
    pr_jdoc *doc = NULL;
    int rc = pr_jdoc_parse(name, text, strlen(text), &doc, err);
    free(text);
    if (rc < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    rc = from_jcur(&root, 1, out, err);
    pr_jdoc_free(doc);
    return rc;
}

int rule_parse(const char *name, const char *text, size_t len, pr_rule **out, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_parse(name, text, len, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = rule_from_jcur(&root, out, err);
    pr_jdoc_free(doc);
    return rc;
}

int rule_load(const char *path, pr_rule **out, pr_err *err)
{
    pr_jdoc *doc = NULL;
    if (pr_jdoc_load(path, &doc, err) < 0)
        return -1;
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    int rc = rule_from_jcur(&root, out, err);
    pr_jdoc_free(doc);
    return rc;
}

void rule_free(pr_rule *r)
{
    if (!r)
        return;
    pcre2_match_data_free(r->md);
    pcre2_code_free(r->re);
    pr_rulecfg_clear(&r->d);
    free(r);
}

const pr_rulecfg_cfg *rule_get(const pr_rule *r)
{
    return &r->d.cfg;
}

json_t *rule_to_json(const pr_rule *r)
{
    return pr_rulecfg_to_json(&r->d.cfg);
}

int rule_regex(const pr_rule *r, const char *s, size_t len, const char **cap, size_t *cap_len,
               int *edges)
{
    int rc = pcre2_match(r->re, (PCRE2_SPTR)s, len, 0, 0, r->md, NULL);
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    if (rc < 0)
        return -1;
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(r->md);
    if (rc < 2 || ov[2] == PCRE2_UNSET)
        return 0;
    *cap = s + ov[2];
    *cap_len = ov[3] - ov[2];
    *edges = (ov[2] == ov[0] ? PR_NUM_EDGE_START : 0) | (ov[3] == ov[1] ? PR_NUM_EDGE_END : 0);
    return 1;
}
