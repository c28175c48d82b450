#include "config_words.h"

#include <stdlib.h>
#include <string.h>

#include "1-load/platform.h"
#include "buf.h"

/* The view the config_name string renders: the platform's title in l's
 * language, upper-case precision, and the batch label or size.  A new
 * reference the caller owns. */
static json_t *config_view(const lang *l, const rmodel_cfg *c)
{
    json_t *v = json_object();
    char *up = pr_xstrdup(c->precision);
    for (char *p = up; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    json_object_set_new(v, "precision", json_string(up));
    free(up);
    if (c->batch_label)
        json_object_set_new(v, "batch", json_string(c->batch_label));
    else if (!c->hardware)
        json_object_set_new(v, "batch", json_integer(c->bs));
    if (c->platform)
        json_object_set_new(v, "platform",
                            json_string(strcmp(l->code, "zh") == 0 ? c->platform->title_zh
                                                                   : c->platform->title_en));
    else
        json_object_set_new(v, "platform", json_string(lang_str(l, "platform_unknown")));
    return v;
}

void config_words_name(const lang *l, const rmodel_cfg *c, pr_buf *out, pr_err *err)
{
    json_t *v = config_view(l, c);
    lang_fmt(l, "config_name", v, out, err);
    json_decref(v);
}

/* A configuration's name without its platform, for a chart legend (the
 * chart's title names the platform), marked "(published)" when its figures
 * are published ones; the caller frees it. */
char *config_words_short(const lang *l, const rmodel_cfg *c, int measured, pr_err *err)
{
    json_t *v = config_view(l, c);
    json_object_del(v, "platform");
    if (!measured)
        json_object_set_new(v, "published", json_true());
    char *s = lang_fmt_plain(l, "config_short", v, err);
    json_decref(v);
    return s;
}

/* The configuration's name as plain text (charts, table heads); the caller
 * frees it. */
char *config_words_plain(const lang *l, const rmodel_cfg *c, pr_err *err)
{
    json_t *v = config_view(l, c);
    char *s = lang_fmt_plain(l, "config_name", v, err);
    json_decref(v);
    return s;
}
