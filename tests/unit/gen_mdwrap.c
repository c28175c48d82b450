/* gen: md_wrap_prose (issue 34: no prose line over 1,000 characters),
 * rendered the same: only soft breaks at sentence ends, never in code,
 * tables, link texts, link targets or image alt texts. */
#include <criterion/criterion.h>
#include <string.h>

#include "base/md.h"
#include "buf.h"

/* s wrapped (caller frees). */
static char *wrapped(const char *s)
{
    pr_buf b = PR_BUF_INIT;
    md_wrap_prose(&b, s, strlen(s));
    char *out = strdup(pr_buf_cstr(&b));
    pr_buf_free(&b);
    return out;
}

/* A long list item of sentences "Sentence N is here. " (n of them). */
static void sentences(pr_buf *b, const char *lead, int n)
{
    pr_buf_puts(b, lead);
    for (int i = 0; i < n; i++)
        pr_buf_printf(b, "Sentence %03d says a few words about the figures here. ", i);
    pr_buf_puts(b, "End\n");
}

static size_t longest_line(const char *s)
{
    size_t best = 0;
    while (*s) {
        size_t n = strcspn(s, "\n");
        best = n > best ? n : best;
        s += n + (s[n] == '\n');
    }
    return best;
}

Test(mdwrap, long_item_broken_at_sentences_indented)
{
    pr_buf in = PR_BUF_INIT;
    sentences(&in, "- ", 40); /* about 2,200 characters */
    char *out = wrapped(pr_buf_cstr(&in));
    cr_assert_lt(longest_line(out), 1000, "%s", out);
    /* Every continuation is the item's: two spaces, then text. */
    for (const char *p = strchr(out, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
        cr_assert(strncmp(p + 1, "  Sentence", 10) == 0 || strncmp(p + 1, "  End", 5) == 0, "%.40s",
                  p + 1);
    /* Joined back (newline and indent to one space) it is the input. */
    pr_buf j = PR_BUF_INIT;
    for (const char *p = out; *p; p++) {
        if (*p == '\n' && p[1] == ' ' && p[2] == ' ') {
            pr_buf_putc(&j, ' ');
            p += 2;
        } else {
            pr_buf_putc(&j, *p);
        }
    }
    cr_assert_str_eq(pr_buf_cstr(&j), pr_buf_cstr(&in));
    free(out);
    pr_buf_free(&in);
    pr_buf_free(&j);
}

Test(mdwrap, short_lines_code_tables_images_untouched)
{
    pr_buf in = PR_BUF_INIT;
    pr_buf_puts(&in, "A short line. Another.\n```\n");
    sentences(&in, "", 40);
    pr_buf_puts(&in, "```\n| ");
    sentences(&in, "", 40);
    sentences(&in, "![", 40);
    char *out = wrapped(pr_buf_cstr(&in));
    cr_assert_str_eq(out, pr_buf_cstr(&in));
    free(out);
    pr_buf_free(&in);
}

Test(mdwrap, never_inside_code_link_text_or_target)
{
    pr_buf in = PR_BUF_INIT, code = PR_BUF_INIT;
    sentences(&code, "", 30);
    pr_buf_printf(&in, "- `%.*s` [", (int)code.len - 1, pr_buf_cstr(&code));
    pr_buf_printf(&in, "%.*s](a. b) ", (int)code.len - 1, pr_buf_cstr(&code));
    sentences(&in, "", 20);
    char *out = wrapped(pr_buf_cstr(&in));
    /* The code span and the link text are whole on the first line. */
    size_t first = strcspn(out, "\n");
    cr_assert_gt(first, 2 * (code.len - 1), "first line %zu", first);
    cr_assert(strchr(out, '\n') != NULL && strchr(out, '\n')[1] != '\0');
    free(out);
    pr_buf_free(&in);
    pr_buf_free(&code);
}

Test(mdwrap, no_block_markup_starts_a_continuation)
{
    pr_buf in = PR_BUF_INIT;
    for (int i = 0; i < 30; i++)
        pr_buf_printf(&in,
                      "Item %02d of a list of things that are written out here. - not a list. "
                      "1. not a number. ",
                      i);
    pr_buf_putc(&in, '\n');
    char *out = wrapped(pr_buf_cstr(&in));
    for (const char *p = strchr(out, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
        cr_assert(p[1] != '-' && (p[1] < '0' || p[1] > '9'), "%.20s", p + 1);
    free(out);
    pr_buf_free(&in);
}
