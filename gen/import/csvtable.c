/* csvtable: a CSV or TSV file as the one Markdown pipe table it makes (csvtable.h). */
#include "csvtable.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int csvtable_line(const csvtable_lines *lm, int line)
{
    return lm->map && line >= 1 && (size_t)line <= lm->n ? lm->map[line - 1] : line;
}

char csvtable_separator(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && strcasecmp(path + n - 4, ".csv") == 0)
        return ',';
    return n > 4 && strcasecmp(path + n - 4, ".tsv") == 0 ? '\t' : 0;
}

static void map_line(csvtable_lines *lm, int csv_line)
{
    if (lm->n == lm->cap) /* doubling: a realloc per line was quadratic */
        lm->map = pr_xrealloc(lm->map, (lm->cap = lm->cap ? 2 * lm->cap : 64) * sizeof *lm->map);
    lm->map[lm->n++] = csv_line;
}

int csvtable_to_markdown(const char *p, size_t len, char sep, size_t max_bytes, pr_buf *md,
                         csvtable_lines *lm)
{
    const char *e = p + len;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3; /* a UTF-8 byte order mark (spreadsheets write one): not the first header's */
    int line = 1, records = 0;
    size_t cols = 0;
    while (p < e) {
        int start = line;
        size_t ncells = 0;
        pr_buf row = PR_BUF_INIT;
        int any = 0;
        for (;;) { /* one field */
            pr_buf_puts(&row, ncells ? " | " : "| ");
            ncells++;
            int quoted = p < e && *p == '"';
            p += quoted;
            while (p < e) {
                char c = *p;
                if (quoted && c == '"') {
                    if (p + 1 < e && p[1] == '"') {
                        p++;
                    } else {
                        p++;
                        quoted = 0;
                        continue;
                    }
                } else if (!quoted && (c == sep || c == '\n' || c == '\r')) {
                    break;
                }
                if (c == '\n' || c == '\r') {
                    line += c == '\n';
                    c = ' ';
                }
                if (c == '\t')
                    c = ' ';
                if (c != ' ')
                    any = 1;
                if (c == '|' || (c > ' ' && c < 0x7f && !isalnum((unsigned char)c)))
                    pr_buf_putc(&row, '\\');
                pr_buf_putc(&row, c);
                p++;
            }
            if (p < e && *p == sep) {
                p++;
                continue;
            }
            break;
        }
        if (p < e && *p == '\r')
            p++;
        if (p < e && *p == '\n') {
            p++;
            line++;
        }
        if (md->len + row.len > max_bytes) {
            pr_buf_free(&row);
            return -1;
        }
        if (any) {
            pr_buf_put(md, row.data, row.len);
            pr_buf_puts(md, " |\n");
            map_line(lm, start);
            if (records++ == 0) {
                cols = ncells;
                pr_buf_putc(md, '|');
                for (size_t i = 0; i < cols; i++)
                    pr_buf_puts(md, "---|");
                pr_buf_putc(md, '\n');
                map_line(lm, start);
            }
        }
        pr_buf_free(&row);
        if (md->len > max_bytes)
            return -1;
    }
    return 0;
}
