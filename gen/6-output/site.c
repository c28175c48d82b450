/* site: the reports rendered to a self-contained static HTML site. */
#include "site.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cmarkx.h"
#include "fileio.h"
#include "site_int.h"

#define SITE_MARKER ".perfrepro-site"

/* Notes that rel is a file of this build (not to be pruned). */
static void record_written(site *s, const char *rel)
{
    if (s->nwritten == s->wcap)
        s->written =
            pr_xrealloc(s->written, (s->wcap = s->wcap ? s->wcap * 2 : 64) * sizeof *s->written);
    s->written[s->nwritten++] = pr_xstrdup(rel);
}

/* Staging: the path of rel in the staging tree (malloc'd), its folder
 * created; NULL with err set when it cannot be. */
static char *stage_path(site *s, const char *rel, pr_err *err)
{
    char *dst = pr_fileio_path_join(s->sd.stage, rel);
    char *dir = pr_fileio_path_dirname(dst);
    if (pr_fileio_mkdirs(dir, err) < 0) {
        free(dst);
        dst = NULL;
    }
    free(dir);
    return dst;
}

/* Writes rel of the site: into the staging tree (a hard link to OUT's file
 * when it holds data already), or in place only when it changed.  No fsync
 * (it made a fresh 1,000-page build ten times slower: bench/site_bench.sh);
 * readers still never see a part of a file. */
static int write_out(site *s, const char *rel, const void *data, size_t len, pr_err *err)
{
    record_written(s, rel);
    char *path = pr_fileio_path_join(s->out, rel);
    char *dst = NULL;
    int rc = -1, changed = 0;
    if (s->sd.stage) {
        if ((dst = stage_path(s, rel, err)))
            rc = pr_fileio_stage_write(path, dst, data, len, &changed, err);
    } else {
        changed = !pr_fileio_equals(path, data, len);
        rc = changed ? pr_fileio_write_if_changed(path, data, len, err) : 0;
    }
    if (rc == 0 && changed) {
        s->st.written++;
        s->changed = 1;
    }
    free(dst);
    free(path);
    return rc;
}

/* Copies the file src to rel of the site, streaming, as write_out writes. */
static int copy_out(site *s, const char *rel, const char *src, pr_err *err)
{
    record_written(s, rel);
    char *path = pr_fileio_path_join(s->out, rel);
    char *dst = NULL;
    int rc = -1, changed = 0;
    if (!s->sd.stage)
        rc = pr_fileio_copy_if_changed(src, path, &changed, err);
    else if ((dst = stage_path(s, rel, err)))
        rc = pr_fileio_stage_copy(src, path, dst, &changed, err);
    if (rc == 0 && changed) {
        s->st.written++;
        s->changed = 1;
    }
    free(dst);
    free(path);
    return rc;
}

/* How deep the walk follows folders: linked folders may loop. */
#define SITE_MAX_DEPTH 32

/* Appends the README*.md pages under dir to pages.  A page or folder that
 * resolves outside the root (a symbolic link), or a page that is a special
 * file, is an error: it would be published. */
static int collect_pages(site *s, const char *dir, const char *rel, int depth, char ***pages,
                         size_t *n, size_t *cap, pr_err *err)
{
    char **names;
    size_t count;
    if (depth > SITE_MAX_DEPTH)
        return pr_err_set(err, dir, 0, 0, NULL, "more than %d folders deep (a symbolic link loop?)",
                          SITE_MAX_DEPTH);
    if (pr_fileio_list_dir(dir, &names, &count, err) < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        const char *name = names[i];
        if (name[0] == '.')
            continue;
        char *fs = pr_fileio_path_join(dir, name);
        char *r = *rel ? pr_fileio_path_join(rel, name) : pr_xstrdup(name);
        int page = cmarkx_readme_name(name, NULL, NULL);
        struct stat st;
        int found = lstat(fs, &st) == 0;
        if (found && S_ISLNK(st.st_mode)) {
            found = stat(fs, &st) == 0;
            if (found && (S_ISDIR(st.st_mode) || page) &&
                pr_fileio_path_within(s->abs_root, fs, err) < 0)
                rc = -1;
        }
        if (rc < 0) {
            /* err says where it leads */
        } else if (found && S_ISDIR(st.st_mode)) {
            if (st.st_dev != s->out_dev || st.st_ino != s->out_ino) /* not our own output */
                rc = collect_pages(s, fs, r, depth + 1, pages, n, cap, err);
        } else if (found && page && !S_ISREG(st.st_mode)) {
            rc = pr_err_set(err, fs, 0, 0, NULL, "is %s, not a regular file",
                            pr_fileio_mode_name(st.st_mode));
        } else if (found && page) {
            if (*n == *cap)
                *pages = pr_xrealloc(*pages, (*cap = *cap ? *cap * 2 : 64) * sizeof **pages);
            (*pages)[(*n)++] = r;
            r = NULL;
        }
        free(r);
        free(fs);
    }
    pr_fileio_strv_free(names);
    return rc;
}

static int cmp_job(const void *a, const void *b)
{
    return strcmp(((const site_copy_job *)a)->dest, ((const site_copy_job *)b)->dest);
}

static int build_page(site *s, const char *rel, pr_err *err)
{
    char *src = pr_fileio_path_join(s->reports, rel);
    pr_buf md = PR_BUF_INIT, html = PR_BUF_INIT;
    int rc = pr_fileio_read_file(src, &md, err);
    if (rc == 0) {
        const char *base = strrchr(rel, '/');
        base = base ? base + 1 : rel;
        char *lang = NULL, *name = NULL;
        cmarkx_readme_name(base, &lang, &name);
        char *site_dir = pr_fileio_path_dirname(rel);
        if (strcmp(site_dir, ".") == 0)
            site_dir[0] = '\0';
        char *root_dir = cmarkx_resolve(s->reports_rel, site_dir);
        char *css = pr_fileio_path_relative(site_dir, "style.css");
        /* The top page in the page's language: "index" and the page's
         * language suffix ("history.en.html" -> "index.en.html"). */
        char *home_name = pr_xasprintf("index%s", strchr(name, '.'));
        char *home = pr_fileio_path_relative(site_dir, home_name);
        free(home_name);
        /* The page's stem names its tables' CSV files. */
        char *stem = pr_xstrndup(name, strlen(name) - strlen(".html"));
        site_page_ctx pc = {s, root_dir, site_dir, NULL, PR_BUF_INIT, 0, stem, NULL, 0, NULL};
        /* The index links the regressions' feed of its language in its head
         * (page_history.h: regressions.atom, regressions.en.atom). */
        if (!site_dir[0] && !strncmp(name, "index.", 6)) {
            char *feed = pr_xasprintf("regressions%s", name + 5), *at = strrchr(feed, '.');
            strcpy(at, ".atom"); /* "index.en.html" -> "regressions.en.atom" */
            char *fs = pr_fileio_path_join(s->reports, feed);
            if (pr_fileio_is_file(fs))
                pc.feed = feed;
            else
                free(feed);
            free(fs);
        }
        s->page = src;
        site_render(&pc, pr_buf_cstr(&md), md.len, lang, css, home, &html);
        s->page = NULL;
        char *dest = pr_fileio_path_join(site_dir, name);
        rc = write_out(s, dest, html.data, html.len, err);
        s->st.pages++;
        for (size_t i = 0; i < pc.ncsvs; i++) {
            char *csv = site_table_csv_name(stem, i + 1),
                 *cdest = pr_fileio_path_join(site_dir, csv);
            if (rc == 0)
                rc = write_out(s, cdest, pc.csvs[i].data, pc.csvs[i].len, err);
            pr_buf_free(&pc.csvs[i]);
            free(cdest);
            free(csv);
        }
        free(pc.csvs);
        free(stem);
        free(dest);
        pr_buf_free(&pc.title);
        free(pc.feed);
        free(home);
        free(css);
        free(root_dir);
        free(site_dir);
        free(lang);
        free(name);
    }
    if (rc < 0 && err->msg[0] == '\0')
        pr_err_set(err, src, 0, 0, NULL, "cannot render");
    pr_buf_free(&md);
    pr_buf_free(&html);
    free(src);
    return rc;
}

/* Staging: counts the files under OUT/rel that this build did not produce
 * (they go with the swap), and notes when the new tree lacks a folder of
 * OUT: either makes the trees differ. */
static void count_stale(site *s, const char *rel)
{
    char *dir = *rel ? pr_fileio_path_join(s->out, rel) : pr_xstrdup(s->out);
    char **names;
    pr_err ignored;
    if (pr_fileio_list_dir(dir, &names, NULL, &ignored) == 0) {
        for (char **p = names; *p; p++) {
            char *r = *rel ? pr_fileio_path_join(rel, *p) : pr_xstrdup(*p);
            char *fs = pr_fileio_path_join(dir, *p);
            char *staged = pr_fileio_path_join(s->sd.stage, r);
            struct stat st, ss;
            if (lstat(fs, &st) == 0 && S_ISDIR(st.st_mode)) {
                count_stale(s, r);
                if (lstat(staged, &ss) < 0 || !S_ISDIR(ss.st_mode))
                    s->changed = 1;
            } else if (!bsearch(&r, s->written, s->nwritten, sizeof *s->written,
                                pr_fileio_strv_cmp)) {
                s->st.removed++;
                s->changed = 1;
            }
            free(staged);
            free(fs);
            free(r);
        }
        pr_fileio_strv_free(names);
    }
    free(dir);
}

/* In place: removes the files under OUT/rel that this build did not
 * produce, and the folders left empty. */
static void prune(site *s, const char *rel)
{
    char *dir = *rel ? pr_fileio_path_join(s->out, rel) : pr_xstrdup(s->out);
    char **names;
    pr_err ignored;
    if (pr_fileio_list_dir(dir, &names, NULL, &ignored) == 0) {
        for (char **p = names; *p; p++) {
            char *r = *rel ? pr_fileio_path_join(rel, *p) : pr_xstrdup(*p);
            char *fs = pr_fileio_path_join(dir, *p);
            struct stat st;
            if (lstat(fs, &st) == 0 && S_ISDIR(st.st_mode)) {
                prune(s, r);
                rmdir(fs); /* fails, as it should, when not empty */
            } else if (strcmp(r, SITE_MARKER) != 0 &&
                       !bsearch(&r, s->written, s->nwritten, sizeof *s->written,
                                pr_fileio_strv_cmp)) {
                if (unlink(fs) == 0)
                    s->st.removed++;
            }
            free(fs);
            free(r);
        }
        pr_fileio_strv_free(names);
    }
    free(dir);
}

/* Checks that OUT may be replaced (a site's, or empty, or new), then opens
 * its staging folder (removing what killed sites left beside it). */
static int prepare_out(site *s, int *had_marker, pr_err *err)
{
    struct stat st;
    *had_marker = 0;
    if (!pr_fileio_is_dir(s->out) && stat(s->out, &st) == 0)
        return pr_err_set(err, s->out, 0, 0, NULL, "exists and is not a folder");
    char *marker = pr_fileio_path_join(s->out, SITE_MARKER);
    *had_marker = pr_fileio_is_file(marker);
    free(marker);
    if (!*had_marker && pr_fileio_is_dir(s->out)) {
        char **names;
        size_t n;
        if (pr_fileio_list_dir(s->out, &names, &n, err) < 0)
            return -1;
        pr_fileio_strv_free(names);
        if (n > 0)
            return pr_err_set(
                err, s->out, 0, 0, NULL,
                "is not empty and was not written by perfrepro-gen site (no " SITE_MARKER
                "): refusing to write there");
    }
    if (pr_fileio_swapdir_open(&s->sd, s->out, err) < 0)
        return -1;
    /* OUT, or the staging folder while OUT is new (its name starts with a
     * dot: not crawled either). */
    const char *self = s->sd.real ? s->sd.real : s->sd.stage;
    if (stat(self, &st) < 0)
        return pr_err_errno(err, self, "cannot stat");
    s->out_dev = st.st_dev;
    s->out_ino = st.st_ino;
    return 0;
}

int site_build(const pr_site_opts *o, pr_site_stats *stats, pr_err *err)
{
    site s;
    memset(&s, 0, sizeof s);
    s.reports = o->reports ? o->reports : "reports";
    s.out = o->out ? o->out : "build/site";
    s.templates = o->templates ? o->templates : "templates";
    err->msg[0] = '\0';
    char **pages = NULL;
    size_t npages = 0, pcap = 0;
    pr_buf css = PR_BUF_INIT;
    int rc = -1, had_marker = 0;

    s.abs_reports = realpath(s.reports, NULL);
    if (!s.abs_reports || !pr_fileio_is_dir(s.abs_reports)) {
        pr_err_set(err, s.reports, 0, 0, NULL, "not a folder of reports");
        goto out;
    }
    if (o->root) {
        s.abs_root = realpath(o->root, NULL);
        if (!s.abs_root || !pr_fileio_is_dir(s.abs_root)) {
            pr_err_set(err, o->root, 0, 0, NULL, "the root is not a folder");
            goto out;
        }
    } else {
        s.abs_root = pr_fileio_path_dirname(s.abs_reports);
    }
    size_t rl = strlen(s.abs_root);
    if (strcmp(s.abs_reports, s.abs_root) == 0) {
        s.reports_rel = pr_xstrdup("");
    } else if (strcmp(s.abs_root, "/") == 0) {
        s.reports_rel = pr_xstrdup(s.abs_reports + 1);
    } else if (strncmp(s.abs_reports, s.abs_root, rl) == 0 && s.abs_reports[rl] == '/') {
        s.reports_rel = pr_xstrdup(s.abs_reports + rl + 1);
    } else {
        pr_err_set(err, s.reports, 0, 0, NULL, "not inside the root %s", s.abs_root);
        goto out;
    }
    char *css_path = pr_fileio_path_join(s.templates, "site/style.css");
    int css_rc = pr_fileio_check_regular_within(s.templates, css_path, err);
    if (css_rc == 0)
        css_rc = pr_fileio_read_file(css_path, &css, err);
    free(css_path);
    if (css_rc < 0 || prepare_out(&s, &had_marker, err) < 0)
        goto out;
    if (collect_pages(&s, s.reports, "", 0, &pages, &npages, &pcap, err) < 0)
        goto out;
    pr_qsort(pages, npages, sizeof *pages, pr_fileio_strv_cmp);
    for (size_t i = 0; i < npages; i++) {
        if (build_page(&s, pages[i], err) < 0)
            goto out;
        if (s.failed) {
            *err = s.lerr;
            goto out;
        }
    }
    /* Copy the linked files, each once, streaming (logs can be large). */
    pr_qsort(s.jobs, s.njobs, sizeof *s.jobs, cmp_job);
    for (size_t i = 0; i < s.njobs; i++) {
        const site_copy_job *j = &s.jobs[i], *prev = i > 0 ? &s.jobs[i - 1] : NULL;
        if (prev && strcmp(j->dest, prev->dest) == 0) {
            if (strcmp(j->src, prev->src) == 0)
                continue;
            /* "x" and "x.txt" both become x.txt */
            pr_err_set(err, j->page, 0, 0, NULL, "%s and %s would both be published as %s",
                       prev->src, j->src, j->dest);
            goto out;
        }
        /* Hardening: what a link leads to must stay inside the root. */
        if (pr_fileio_path_within(s.abs_root, j->src, err) < 0) {
            pr_err_prefix(err, "%s: refusing to publish a link", j->page);
            goto out;
        }
        if (copy_out(&s, j->dest, j->src, err) < 0)
            goto out;
        s.st.files++;
    }
    if (write_out(&s, "style.css", css.data, css.len, err) < 0)
        goto out;
    static const char marker[] = "Generated by perfrepro-gen site: every file here is rewritten "
                                 "from the reports; files no longer produced are removed.\n";
    if (write_out(&s, SITE_MARKER, marker, sizeof marker - 1, err) < 0)
        goto out;
    pr_qsort(s.written, s.nwritten, sizeof *s.written, pr_fileio_strv_cmp);
    if (s.sd.stage) {
        if (s.sd.real)
            count_stale(&s, "");
        /* Nothing changed: OUT stays as it is (the staging tree goes). */
        if ((s.changed || !s.sd.real) && pr_fileio_swapdir_swap(&s.sd, "site", err) < 0)
            goto out;
    } else if (had_marker) {
        prune(&s, "");
    }
    rc = 0;
out:
    pr_fileio_swapdir_free(&s.sd); /* the previous site, or one given up */
    if (stats)
        *stats = s.st;
    for (size_t i = 0; i < npages; i++)
        free(pages[i]);
    free(pages);
    for (size_t i = 0; i < s.njobs; i++) {
        free(s.jobs[i].dest);
        free(s.jobs[i].src);
        free(s.jobs[i].page);
    }
    free(s.jobs);
    for (size_t i = 0; i < s.nwritten; i++)
        free(s.written[i]);
    free(s.written);
    pr_buf_free(&css);
    free(s.abs_root);
    free(s.abs_reports);
    free(s.reports_rel);
    return rc;
}
