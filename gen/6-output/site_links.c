/* site_links: a page's links rewritten to the site's files; what is copied, under an inert name. */
#include "site.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cmarkx.h"
#include "fileio.h"
#include "site_int.h"

#define SITE_FILES "files" /* where files from outside the reports folder go */

static void add_job(site *s, const char *dest, const char *src)
{
    if (s->njobs == s->jcap)
        s->jobs = pr_xrealloc(s->jobs, (s->jcap = s->jcap ? s->jcap * 2 : 64) * sizeof *s->jobs);
    s->jobs[s->njobs].dest = pr_xstrdup(dest);
    s->jobs[s->njobs].src = pr_xstrdup(src);
    s->jobs[s->njobs].page = pr_xstrdup(s->page);
    s->njobs++;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

/* Hardening: a log named x.html (or .svg, .js, .xhtml, ...) was copied under
 * its own name and served as an active page from the site: stored XSS.
 * Every copied file gets a name a web server serves as inert content: its
 * own when it ends in one of these (lower case), else NAME.txt.  The charts
 * gen draws into the reports (*.svg, *.png inside the reports folder) and
 * its Atom feeds (*.atom there) keep their names.  Returns a malloc'd dest. */
static char *inert_dest(const char *dest, int in_reports)
{
    static const char *const inert[] = {".txt", ".log", ".json", ".csv", ".png", NULL};
    for (const char *const *e = inert; *e; e++)
        if (ends_with(dest, *e))
            return pr_xstrdup(dest);
    if (in_reports && (ends_with(dest, ".svg") || ends_with(dest, ".atom")))
        return pr_xstrdup(dest);
    return pr_xasprintf("%s.txt", dest);
}

/* The path inside the reports folder of target (relative to the root), or
 * NULL when target is outside it.  Points into target. */
static const char *in_reports(const site *s, const char *target)
{
    size_t n = strlen(s->reports_rel);
    if (n == 0)
        return target;
    if (strncmp(target, s->reports_rel, n) != 0)
        return NULL;
    if (target[n] == '\0')
        return target + n;
    return target[n] == '/' ? target + n + 1 : NULL;
}

/* The destination in OUT of the relative link path (decoded), or NULL when
 * it cannot be resolved.  Queues the copy of a plain file. */
static char *link_dest(site_page_ctx *pc, const char *path)
{
    site *s = pc->s;
    char *target = cmarkx_resolve(pc->root_dir, path);
    if (!target)
        return NULL;
    char *fs = *target ? pr_fileio_path_join(s->abs_root, target) : pr_xstrdup(s->abs_root);
    const char *rep = in_reports(s, target);
    char *dest = NULL;
    struct stat st;
    int found = stat(fs, &st) == 0;
    if (found && S_ISDIR(st.st_mode)) {
        char *readme = pr_fileio_path_join(fs, "README.md");
        if (rep && pr_fileio_is_file(readme))
            dest = *rep ? pr_fileio_path_join(rep, "index.html") : pr_xstrdup("index.html");
        free(readme);
    } else if (found && S_ISREG(st.st_mode)) {
        char *html = NULL;
        const char *base = strrchr(target, '/');
        base = base ? base + 1 : target;
        if (rep && cmarkx_readme_name(base, NULL, &html)) {
            char *dir = pr_fileio_path_dirname(rep);
            dest = pr_fileio_path_join(dir, html);
            free(dir);
            free(html);
        } else {
            char *plain = rep ? pr_xstrdup(rep) : pr_xasprintf(SITE_FILES "/%s", target);
            dest = inert_dest(plain, rep != NULL);
            free(plain);
            add_job(s, dest, fs);
        }
    } else if (found && !s->failed) {
        /* A FIFO blocks the copy, a device never ends: refused, not skipped,
         * so that nobody wonders where the file went. */
        s->failed = 1;
        pr_err_set(&s->lerr, s->page, 0, 0, NULL, "link '%s': %s is %s, not a regular file", path,
                   fs, pr_fileio_mode_name(st.st_mode));
    }
    free(fs);
    free(target);
    return dest;
}

void site_rewrite_link(site_page_ctx *pc, cmark_node *n)
{
    const char *url = cmark_node_get_url(n);
    if (!url || !*url || url[0] == '#' || cmarkx_has_scheme(url, NULL))
        return;
    if (url[0] == '/') {
        pc->s->st.unresolved++;
        return;
    }
    size_t plen = strcspn(url, "?#");
    pr_buf path = PR_BUF_INIT;
    cmarkx_percent_decode(&path, url, plen);
    char *dest = plen ? link_dest(pc, pr_buf_cstr(&path)) : NULL;
    if (dest) {
        char *rel = pr_fileio_path_relative(pc->site_dir, dest);
        pr_buf nu = PR_BUF_INIT;
        cmarkx_percent_encode(&nu, rel);
        pr_buf_puts(&nu, url + plen);
        cmark_node_set_url(n, pr_buf_cstr(&nu));
        pr_buf_free(&nu);
        free(rel);
        free(dest);
    } else if (plen) {
        pc->s->st.unresolved++;
    }
    pr_buf_free(&path);
}
