#include "bitext.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

static const char *const lang_keys[] = {"zh", "en", NULL};

/* Fills out from obj.key; on error out keeps what was copied, for the
 * caller's pr_bitext_free. */
int pr_bitext_jbitext(const pr_jdoc_jcur *obj, const char *key, int required, pr_bitext *out,
                      pr_err *err)
{
    pr_jdoc_jcur c = pr_jdoc_jchild(obj, key);
    const char *zh = NULL, *en = NULL;
    int rc = -1;
    memset(out, 0, sizeof *out);
    if (c.v && !json_is_object(c.v) && !json_is_string(c.v)) {
        pr_jdoc_jfail(&c, err, "expected a string or {\"zh\": \"...\", \"en\": \"...\"}");
        goto out;
    }
    if (!json_is_object(c.v)) {
        /* absent or a plain string: pr_jdoc_jstr words the missing case */
        rc = pr_jdoc_jstr(obj, key, required, &zh, err);
        if (rc == 1) {
            out->zh = pr_xstrdup(zh);
            out->en = pr_xstrdup(zh);
        }
        goto out;
    }
    if (pr_jdoc_jobject(&c, lang_keys, err) < 0 || pr_jdoc_jstr(&c, "zh", 1, &zh, err) < 0 ||
        pr_jdoc_jstr(&c, "en", 1, &en, err) < 0)
        goto out;
    /* An empty side would print an empty sentence on one page only. */
    if (!zh[0] || !en[0]) {
        pr_jdoc_jcur side = pr_jdoc_jchild(&c, zh[0] ? "en" : "zh");
        pr_jdoc_jfail(&side, err, "empty: each language needs its text");
        goto out;
    }
    out->zh = pr_xstrdup(zh);
    out->en = pr_xstrdup(en);
    rc = 1;
out:
    return rc;
}

const char *pr_bitext_in(const pr_bitext *t, const char *code)
{
    return code && strcmp(code, "zh") == 0 ? t->zh : t->en;
}

void pr_bitext_free(pr_bitext *t)
{
    free(t->zh);
    free(t->en);
    t->zh = t->en = NULL;
}
