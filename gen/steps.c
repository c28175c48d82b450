#include "steps.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "md.h"
#include "view.h"

/* Steps as one code block (or NULL when the suite gives none). */
static char *steps_block(const pr_suite *s, const char *key)
{
    json_t *a = s && s->steps ? json_object_get(s->steps, key) : NULL;
    if (!json_array_size(a))
        return NULL;
    pr_buf text = PR_BUF_INIT, out = PR_BUF_INIT;
    for (size_t i = 0; i < json_array_size(a); i++)
        pr_buf_printf(&text, "%s\n", json_string_value(json_array_get(a, i)));
    pr_md_code_block(&out, "bash", pr_buf_cstr(&text));
    pr_buf_free(&text);
    return pr_buf_detach(&out);
}

/* The per-task references a report's command shows as shell variables (the
 * node's launcher sets them); the other runner placeholders get an example
 * value. */
static const pr_var report_refs[] = {{"master_addr", "MASTER_ADDR"},
                                     {"node_rank", "NODE_RANK"},
                                     {"world_size", "WORLD_SIZE"},
                                     {"local_rank", "LOCAL_RANK"}};
enum { NREPORT_REFS = sizeof report_refs / sizeof *report_refs };

/* Appends "$NAME" (braced when the next byte would continue the name). */
static void put_ref(pr_buf *out, const char *var, char next)
{
    int braced = (next >= 'A' && next <= 'Z') || (next >= 'a' && next <= 'z') ||
                 (next >= '0' && next <= '9') || next == '_';
    pr_buf_printf(out, braced ? "${%s}" : "$%s", var);
}

/* Appends one expanded argv word: its text as shell words of data (quoted
 * where needed), each "\x01K\x02" sentinel as the reference report_refs[K]. */
static void put_command_word(pr_buf *out, const char *w)
{
    pr_buf piece = PR_BUF_INIT;
    int any = 0;
    for (const char *p = w;; p++) {
        int k = -1;
        if (*p == '\x01' && p[1] && p[2] == '\x02')
            k = p[1] - 'a';
        if (*p && (k < 0 || k >= NREPORT_REFS)) {
            pr_buf_putc(&piece, *p);
            continue;
        }
        if (piece.len) {
            pr_md_shell_word(out, pr_buf_cstr(&piece));
            pr_buf_clear(&piece);
            any = 1;
        }
        if (!*p)
            break;
        put_ref(out, report_refs[k].value, p[3]);
        any = 1;
        p += 2;
    }
    if (!any)
        pr_buf_puts(out, "''");
    pr_buf_free(&piece);
}

/* The command one case of the suite runs, placeholders filled the way the
 * local runner fills them: every value from the data is one shell word
 * (pr_md_shell_word), so that the block, pasted, runs the job with the
 * suite's values and nothing else.  With "shell": true the command string
 * is the suite's own shell code, kept as written, and only the values put
 * into it are quoted (as measure's runner does).  The caller frees the
 * result; NULL when no case matches. */
static char *case_command(const pr_suite *s, int gpus_wanted, int multi_node)
{
    const pr_case *pick = NULL;
    for (size_t i = 0; i < s->ncases && !pick; i++) {
        const pr_case *c = &s->cases[i];
        if (multi_node ? c->nodes > 1 : (c->nodes == 1 && c->gpus == gpus_wanted))
            pick = c;
    }
    if (!pick)
        return NULL;
    pr_buf st = PR_BUF_INIT, qst = PR_BUF_INIT, line = PR_BUF_INIT, out = PR_BUF_INIT;
    size_t nv;
    pr_var *vars = pr_suite_case_vars(s, pick, &st, &nv);
    pr_var extra[] = {{"log_dir", "logs/train_log"}, {"log_file", "logs/train_log/CASE"},
                      {"workdir", "."}, {"master_addr", "\x01" "a\x02"},
                      {"master_port", "29500"}, {"node_rank", "\x01" "b\x02"},
                      {"world_size", "\x01" "c\x02"}, {"local_rank", "\x01" "d\x02"},
                      {"hostfile", "hostfile"}};
    const size_t nextra = sizeof extra / sizeof *extra;
    /* Sentinels are trusted only when the data holds no such byte. */
    int sentinels = 1;
    for (size_t i = 0; i < json_array_size(s->command); i++)
        sentinels &= !strpbrk(json_string_value(json_array_get(s->command, i)), "\x01\x02");
    for (size_t i = 0; i < nv; i++)
        sentinels &= !strpbrk(vars[i].value, "\x01\x02");
    pr_err e;
    if (s->shell) {
        /* Each value quoted on its own, then put into the suite's shell code. */
        size_t nq = nv + nextra;
        size_t *off = pr_xmalloc(nq * sizeof *off);
        for (size_t i = 0; i < nq; i++) {
            off[i] = qst.len;
            const char *v = i < nv ? vars[i].value : extra[i - nv].value;
            if (i >= nv && v[0] == '\x01')
                pr_buf_printf(&qst, "$%s", report_refs[v[1] - 'a'].value);
            else
                pr_md_shell_word(&qst, v);
            pr_buf_putc(&qst, '\0');
        }
        pr_var *qvars = pr_xmalloc(nq * sizeof *qvars);
        for (size_t i = 0; i < nq; i++) {
            qvars[i].name = i < nv ? vars[i].name : extra[i - nv].name;
            qvars[i].value = qst.data + off[i];
        }
        const char *t = json_string_value(json_array_get(s->command, 0));
        if (pr_template_expand(t, qvars, nq, NULL, 0, &line, &e) < 0) {
            pr_buf_clear(&line);
            pr_buf_puts(&line, t);
        }
        free(qvars);
        free(off);
    }
    for (size_t i = 0; !s->shell && i < json_array_size(s->command); i++) {
        const char *t = json_string_value(json_array_get(s->command, i));
        pr_buf arg = PR_BUF_INIT;
        if (pr_template_expand(t, vars, nv, extra, nextra, &arg, &e) < 0) {
            pr_buf_clear(&arg);
            pr_buf_puts(&arg, t); /* the suite loader checked it: not reached */
        }
        if (i)
            pr_buf_putc(&line, ' ');
        if (sentinels) {
            put_command_word(&line, pr_buf_cstr(&arg));
        } else {
            /* A control byte in the data: the word is all data, quoted whole. */
            for (char *p = arg.data; p && *p; p++)
                if (*p == '\x01' || *p == '\x02')
                    *p = '?';
            pr_md_shell_word(&line, pr_buf_cstr(&arg));
        }
        pr_buf_free(&arg);
    }
    pr_buf_putc(&line, '\n');
    pr_md_code_block(&out, "bash", pr_buf_cstr(&line));
    free(vars);
    pr_buf_free(&st);
    pr_buf_free(&qst);
    pr_buf_free(&line);
    return pr_buf_detach(&out);
}

void steps_view(const pr_suite *s, json_t *view)
{
    pr_buf b = PR_BUF_INIT;
    if (s->source_repo) {
        pr_buf code = PR_BUF_INIT;
        /* The folder git clone makes: the last part of the URL without .git. */
        const char *base = strrchr(s->source_repo, '/');
        base = base && base[1] ? base + 1 : s->source_repo;
        size_t blen = strlen(base);
        if (blen > 4 && strcmp(base + blen - 4, ".git") == 0)
            blen -= 4;
        /* Every value from the suite is one shell word: pasted, the block
         * runs git and cd, nothing the data spells. */
        char *folder = pr_xstrndup(base, blen);
        pr_buf_puts(&code, "git clone ");
        pr_md_shell_word(&code, s->source_repo);
        pr_buf_puts(&code, "\ncd ");
        pr_md_shell_word(&code, folder);
        pr_buf_putc(&code, '\n');
        free(folder);
        if (s->source_commit) {
            pr_buf_puts(&code, "git checkout ");
            pr_md_shell_word(&code, s->source_commit);
            pr_buf_putc(&code, '\n');
        }
        if (s->source_path) {
            pr_buf_puts(&code, "cd ");
            pr_md_shell_word(&code, s->source_path);
            pr_buf_putc(&code, '\n');
        }
        pr_md_code_block(&b, "bash", pr_buf_cstr(&code));
        vw_md(view, "source_block", &b);
        pr_buf_free(&code);
        vw_text(view, "source_repo", s->source_repo);
        vw_text(view, "source_commit", s->source_commit);
    }
    char *blk;
    if ((blk = steps_block(s, "setup")))
        json_object_set_new(view, "setup_block", json_string(blk)), free(blk);
    if ((blk = steps_block(s, "single_node")))
        json_object_set_new(view, "single_block", json_string(blk)), free(blk);
    if ((blk = steps_block(s, "multi_node")))
        json_object_set_new(view, "multi_block", json_string(blk)), free(blk);
    if ((blk = case_command(s, 1, 0)))
        json_object_set_new(view, "cmd_1gpu", json_string(blk)), free(blk);
    int maxg = 0;
    for (size_t i = 0; i < s->ncases; i++)
        if (s->cases[i].nodes == 1 && s->cases[i].gpus > maxg)
            maxg = s->cases[i].gpus;
    if (maxg > 1 && (blk = case_command(s, maxg, 0))) {
        json_object_set_new(view, "cmd_ngpu", json_string(blk));
        json_object_set_new(view, "ngpu", json_integer(maxg));
        free(blk);
    }
    if ((blk = case_command(s, 0, 1))) {
        json_object_set_new(view, "cmd_multinode", json_string(blk));
        free(blk);
        /* The multi-node cases through Slurm, one command per node count. */
        pr_buf cmd = PR_BUF_INIT, block = PR_BUF_INIT;
        int seen[64] = {0};
        for (size_t i = 0; i < s->ncases; i++) {
            const pr_case *k = &s->cases[i];
            if (k->nodes < 2 || k->nodes >= 64 || seen[k->nodes]++)
                continue;
            pr_buf_printf(&cmd, "salloc -N%d --gpus-per-node=%d --exclusive \\\n"
                          "  bin/perfrepro-measure run ", k->nodes, k->gpus_per_node);
            pr_md_shell_word(&cmd, s->path);
            pr_buf_printf(&cmd, " --launcher slurm --only '*_%d' \\\n  --out ", k->gpus);
            char *dir = pr_xasprintf("data/runs/%s-%s-%d", s->model, s->framework, k->gpus);
            pr_md_shell_word(&cmd, dir);
            pr_buf_putc(&cmd, '\n');
            free(dir);
        }
        pr_md_code_block(&block, "bash", pr_buf_cstr(&cmd));
        vw_md(view, "slurm_block", &block);
        pr_buf_free(&cmd);
    }
    pr_buf run = PR_BUF_INIT;
    char *dir = pr_xasprintf("data/runs/%s-%s", s->model, s->framework);
    pr_buf_puts(&run, "bin/perfrepro-measure run ");
    pr_md_shell_word(&run, s->path);
    pr_buf_puts(&run, " --out ");
    pr_md_shell_word(&run, dir);
    pr_buf_putc(&run, '\n');
    free(dir);
    pr_md_code_block(&b, "bash", pr_buf_cstr(&run));
    vw_md(view, "measure_block", &b);
    pr_buf_free(&run);
    pr_buf_free(&b);
}
