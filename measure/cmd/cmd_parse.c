/* `perfrepro-measure parse`: applies a parse rule to existing logs and
 * prints the case's record.  docs/parse-rules.md is the user's reference;
 * keep --help in step with it. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "2-parse/explain.h"
#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "3-fit/fit.h"
#include "3-fit/fitprobe.h"
#include "buf.h"
#include "cmd.h"
#include "err.h"
#include "fileio.h"
#include "record.h"
#include "suite.h"

static const char parse_usage[] =
    "usage: perfrepro-measure parse --rule JSON|@FILE [options] LOG...\n"
    "       perfrepro-measure parse --rule JSON|@FILE --explain [options] LOG...\n"
    "       perfrepro-measure parse [--rule JSON|@FILE] [options]\n"
    "                               --fit FIGURE [case options] LOG... [--fit ...]...\n"
    "\n"
    "Applies a parse rule to existing logs of one case and prints the case's record\n"
    "(JSON) on standard output.  Several logs are the case's repeats: each is reduced\n"
    "by the rule and the case value is the median of the per-run values (a rule with\n"
    "\"files\": \"parts\", as profile mllog, reads them as pieces of one log instead).\n"
    "\n"
    "options:\n"
    "  -r, --rule JSON|@FILE  the parse rule, inline or from a file (see\n"
    "                         docs/parse-rules.md)\n"
    "  -g, --gpus N           total GPU count of the case (needed for per_card and\n"
    "                         per-step values; default in the record: 1)\n"
    "      --nodes N          node count (default 1; N must divide --gpus)\n"
    "  -b, --batch-size B     batch size per GPU (needed for per-step values)\n"
    "      --seq-len L        tokens per sample (needed for per-step values in tokens/s)\n"
    "      --precision P      fp32 (default), tf32, fp16, amp, bf16 or fp8\n"
    "      --model M          model (report folder; default \"unknown\")\n"
    "      --framework F      framework (report sub-folder; default \"unknown\")\n"
    "      --case NAME        case name (default: the first log's file name)\n"
    "      --unit U           unit of the result (overrides the rule's)\n"
    "      --model-name NAME  the seeds' model_name (default: the case name)\n"
    "      --mission-name T   the seeds' mission_name (e.g. 图像分类)\n"
    "      --direction-id N   the seeds' direction_id: 0 CV, 1 NLP, 2 Rec\n"
    "      --platform ID      the platform (data/platforms/ID.json) the logs ran on,\n"
    "                         recorded in the record (else gen matches the run's env.json)\n"
    "      --source-repo OWNER/NAME, --source-commit SHA, --source-path PATH\n"
    "                         where an imported log was published (all three together):\n"
    "                         recorded in the record's \"source\", with the GitHub URL of\n"
    "                         the file at that commit (--source-url URL overrides it)\n"
    "  -o, --out DIR          also file the case into run folder DIR as measure run\n"
    "                         does: the logs copied to DIR/logs/train_log/, the record\n"
    "                         written to DIR/logs/index/<case>_speed (atomically), so\n"
    "                         DIR can go under data/runs/ and be rendered\n"
    "  -h, --help             this text\n"
    "\n"
    "Finding the rule behind a published figure:\n"
    "      --explain          print, instead of the record, every record the rule read\n"
    "                         (line, value, and kept, skipped (warm-up), trimmed (low or\n"
    "                         high end), not picked, ignored, not a clean number, other\n"
    "                         step or other rank), then the arithmetic of the result\n"
    "      --fit FIGURE       search the rules that reproduce FIGURE as printed (\"428\",\n"
    "                         \"19.428\": rounded to its decimals, as Python's round) from\n"
    "                         the LOGs after it: skip 0 to --max-skip, reduce mean,\n"
    "                         trimmed_mean (trim default, {0, 1}, {0.05, 0}, {0.1, 0},\n"
    "                         {0.25, 0}), median, last, best, max or min, the DLLogger step,\n"
    "                         and round (several runs).  The rule's other keys (profile,\n"
    "                         keyword, scope, value, ...) stay as given.  Repeat --fit\n"
    "                         FIGURE LOG... for several cases: rules that reproduce every\n"
    "                         figure come first.  After --fit FIGURE, --gpus, --batch-size,\n"
    "                         --seq-len and --unit apply to that case only; --rule there is\n"
    "                         the one rule of every case.  Without --rule, the profiles\n"
    "                         that read the LOGs are shown as rules to start from (a\n"
    "                         rate's scope, per_card or global, is yours to pick), or,\n"
    "                         when the only one needs no scope, the search starts from it.\n"
    "                         Lists the rules (as --rule takes them) simplest first: fewer\n"
    "                         keys away from their defaults, then the smaller skip.  Rules that\n"
    "                         match only when the value is truncated are listed apart;\n"
    "                         when none fits, those that reproduce some of the figures\n"
    "                         and the closest, with their differences\n"
    "      --limit N          --fit: rules listed per section (default 5; 0: all)\n"
    "      --max-skip N       --fit: the largest skip tried (default 200)\n"
    "      --json             --fit: print the report as one JSON object: \"figures\",\n"
    "                         \"reproduced\", \"truncated\" and \"closest\" (each a list\n"
    "                         of {\"rule\", \"values\", \"matches\"}; closest only when\n"
    "                         no rule reproduces every figure)\n"
    "\n"
    "exit status: 0 the case has a value (JOB_FAIL_FLAG 0); 1 the case failed\n"
    "(JOB_FAIL_FLAG 1, FINAL_RESULT null, the reason in \"failure\"; the record is still\n"
    "printed); 2 usage or rule error (message on standard error, nothing printed).\n"
    "--explain: 0 the case has a value, 1 it failed (the text says why), 2 usage.\n"
    "--fit: 0 a rule reproduces every figure, 1 none does, 2 usage or bad input.\n";

static int usage_error(const char *fmt, const char *a, const char *b)
{
    fputs("perfrepro-measure parse: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputs("\n(perfrepro-measure parse --help for usage)\n", stderr);
    return 2;
}

/* A whole decimal integer in [min, max]. */
static int parse_int(const char *opt, const char *s, long min, long max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || v < min || v > max) {
        char range[64];
        snprintf(range, sizeof range, "an integer from %ld to %ld", min, max);
        fprintf(stderr, "perfrepro-measure parse: %s: \"%s\" is not %s\n", opt, s, range);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

typedef struct opts {
    const char *rule, *precision, *model, *framework, *unit, *case_name;
    int gpus, nodes, batch, seq_len;
    const char *model_name, *mission_name, *out;
    int direction_id;
    int explain, limit, max_skip, json;
    const char *platform, *src_repo, *src_commit, *src_path, *src_url;
} opts;

static void parse_usage_print(FILE *f)
{
    fputs(parse_usage, f);
}

const pr_cli_command cmd_parse_command = {
    "parse", cmd_parse, NULL, "apply a parse rule to existing logs and print the record",
    parse_usage_print};

/* The options before the first --fit (argv[0..argc)) into o; the LOGs are
 * then argv[*first..argc).  Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, opts *o, int *first)
{
    const char *gpus = NULL, *nodes = NULL, *batch = NULL, *seq = NULL, *dir = NULL;
    const char *limit = NULL, *max_skip = NULL;
    const pr_cli_option rows[] = {
        {"--rule", 'r', .value = &o->rule},
        {"--gpus", 'g', .value = &gpus},
        {"--nodes", .value = &nodes},
        {"--batch-size", 'b', .value = &batch},
        {"--seq-len", .value = &seq},
        {"--precision", .value = &o->precision},
        {"--model", .value = &o->model},
        {"--framework", .value = &o->framework},
        {"--case", .value = &o->case_name},
        {"--unit", .value = &o->unit},
        {"--model-name", .value = &o->model_name},
        {"--mission-name", .value = &o->mission_name},
        {"--direction-id", .value = &dir},
        {"--out", 'o', .value = &o->out},
        {"--explain", .flag = &o->explain},
        {"--limit", .value = &limit},
        {"--max-skip", .value = &max_skip},
        {"--json", .flag = &o->json},
        {"--platform", .value = &o->platform},
        {"--source-repo", .value = &o->src_repo},
        {"--source-commit", .value = &o->src_commit},
        {"--source-path", .value = &o->src_path},
        {"--source-url", .value = &o->src_url},
    };
    int parsed = pr_cli_parse_args("perfrepro-measure", &cmd_parse_command, rows,
                                   sizeof rows / sizeof *rows, argc, argv, first);
    if (parsed != CLI_OK)
        return pr_cli_status(parsed);
    /* The numbers, each whole and in its range (the option's name in the
     * message). */
    const struct {
        const char *name, *text;
        long min, max;
        int *out;
    } numbers[] = {
        {"--gpus", gpus, 1, 1 << 20, &o->gpus},
        {"--nodes", nodes, 1, 1 << 16, &o->nodes},
        {"--batch-size", batch, 1, 1 << 24, &o->batch},
        {"--seq-len", seq, 1, 1 << 24, &o->seq_len},
        {"--direction-id", dir, 0, 2, &o->direction_id},
        {"--limit", limit, 0, 1 << 20, &o->limit},
        {"--max-skip", max_skip, 0, 1 << 20, &o->max_skip},
    };
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
        if (numbers[i].text && parse_int(numbers[i].name, numbers[i].text, numbers[i].min,
                                         numbers[i].max, numbers[i].out) < 0)
            return 2;
    return -1;
}

/* --fit may find its rule's profile (fit_without_rule); the others need it. */
static int need_rule(const opts *o)
{
    if (!o->rule)
        return usage_error("--rule is required (docs/parse-rules.md)%s%s", "", "");
    return -1;
}

static int check_identity(const opts *o, int nlogs)
{
    if (nlogs == 0)
        return usage_error("no LOG given%s%s", "", "");
    if (!pr_record_str_in(o->precision, pr_precisions))
        return usage_error("--precision: unknown precision \"%s\"%s (expected fp32, tf32, fp16, "
                           "amp, bf16 or fp8)",
                           o->precision, "");
    int gpus = o->gpus ? o->gpus : o->nodes;
    if (gpus % o->nodes != 0)
        return usage_error("--gpus must be a multiple of --nodes%s%s", "", "");
    if (o->unit && !*o->unit)
        return usage_error("--unit must not be empty%s%s", "", "");
    /* Hardening: they name report folders; gen refuses a record with "../x". */
    char why[160];
    const char *bad;
    if (o->model && (bad = pr_suite_name_unsafe_why(o->model, why, sizeof why)))
        return usage_error("--model: \"%s\" is not a safe folder name: %s", o->model, bad);
    if (o->framework && (bad = pr_suite_name_unsafe_why(o->framework, why, sizeof why)))
        return usage_error("--framework: \"%s\" is not a safe folder name: %s", o->framework, bad);
    if (o->platform && (bad = pr_suite_name_unsafe_why(o->platform, why, sizeof why)))
        return usage_error("--platform: \"%s\" is not a platform id: %s", o->platform, bad);
    int nsrc = !!o->src_repo + !!o->src_commit + !!o->src_path;
    if (nsrc != 0 && nsrc != 3)
        return usage_error("--source-repo, --source-commit and --source-path go together%s%s", "",
                           "");
    if (o->src_url && nsrc == 0)
        return usage_error("--source-url needs --source-repo, --source-commit and "
                           "--source-path%s%s",
                           "", "");
    return -1;
}

/* The record's "source" from --source-*: a new reference, or NULL with err
 * set when a value is not what the record schema takes (checked by the same
 * code that checks a loaded record). */
static json_t *source_object(const opts *o, pr_err *err)
{
    json_t *src = json_pack("{s:s,s:s,s:s}", "repo", o->src_repo, "commit", o->src_commit, "path",
                            o->src_path);
    if (!src) {
        pr_err_set(err, NULL, 0, 0, "--source-repo", "the values are not valid UTF-8");
        return NULL;
    }
    char *url = o->src_url ? pr_xstrdup(o->src_url)
                           : pr_xasprintf("https://github.com/%s/blob/%s/%s", o->src_repo,
                                          o->src_commit, o->src_path);
    json_object_set_new(src, "url", json_string(url));
    free(url);
    /* checked as a loaded record's source is, so gen will take it */
    char *text = json_dumps(src, JSON_COMPACT);
    pr_jdoc *doc = NULL;
    int ok = pr_jdoc_parse("--source-*", text, strlen(text), &doc, err) == 0;
    if (ok) {
        pr_jdoc_jcur root = pr_jdoc_root(doc);
        ok = pr_record_source_check(&root, err) == 0;
    }
    pr_jdoc_free(doc);
    free(text);
    if (!ok) {
        json_decref(src);
        return NULL;
    }
    return src;
}

static int load_rule(const char *arg, pr_rule **out, pr_err *err)
{
    if (arg[0] == '@')
        return rule_load(arg + 1, out, err);
    return rule_parse("<--rule>", arg, strlen(arg), out, err);
}

/* A LOG that is not there is a usage error (a typo), not a failed case; so
 * is one that is no regular file (a FIFO would block the parse forever). */
static int check_log(const char *path)
{
    pr_err err;
    int fd = pr_fileio_open_regular(path, &err);
    if (fd < 0) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        return -1;
    }
    close(fd);
    return 0;
}

static void fill_identity(const opts *o, char **logs, int nlogs, pr_record *rec)
{
    const char *first = logs[0];
    rec->log_file = pr_xstrdup(pr_fileio_path_is_safe_relative(first) ? first : base_name(first));
    rec->case_name = pr_xstrdup(o->case_name ? o->case_name : base_name(first));
    rec->model_name = pr_xstrdup(o->model_name ? o->model_name : rec->case_name);
    rec->mission_name = pr_xstrdup(o->mission_name ? o->mission_name : "");
    rec->direction_id = o->direction_id;
    rec->model = pr_xstrdup(o->model ? o->model : "unknown");
    rec->framework = pr_xstrdup(o->framework ? o->framework : "unknown");
    rec->precision = pr_xstrdup(o->precision);
    rec->nodes = o->nodes;
    rec->gpu_num = o->gpus ? o->gpus : o->nodes;
    rec->gpus_per_node = rec->gpu_num / o->nodes;
    strcpy(rec->run_mode, rec->gpu_num > 1 ? "mp" : "sp");
    rec->batch_size = o->batch; /* 0: not given (nccl-tests, MLPerf) */
    rec->seq_len = o->seq_len;
    rec->origin = pr_xstrdup("parsed");
    if (o->platform)
        rec->platform = pr_xstrdup(o->platform);
    if (nlogs > 1) {
        rec->logs = json_array();
        for (int i = 0; i < nlogs; i++)
            json_array_append_new(rec->logs, json_string(logs[i]));
    }
}

/* --out: copies the logs into DIR/logs/train_log/ (the first as <case>, the
 * others as <case>_run<N>), points the record at them and writes it to
 * DIR/logs/index/<case>_speed.  Everything is written to temporary files
 * first and renamed into place only when all of it succeeded, the record
 * last: a failure leaves an earlier import of the case as it was, and a
 * folder never holds a record whose logs are missing.  The temporary files
 * a killed parse --out (or measure run) left there go first, as measure
 * run removes them: only those of a process that is gone. */
static int file_case(const opts *o, char **logs, int nlogs, pr_record *rec, pr_err *err)
{
    char why[160];
    const char *bad = pr_suite_name_unsafe_why(rec->case_name, why, sizeof why);
    if (bad)
        return pr_err_set(err, NULL, 0, 0, "--case",
                          "\"%s\" is not a safe file name: %s; give --case NAME", rec->case_name,
                          bad);
    int rc = -1;
    size_t n = (size_t)nlogs + 1; /* the logs, then the record */
    char **dst = pr_xcalloc(n, sizeof *dst), **tmp = pr_xcalloc(n, sizeof *tmp);
    json_t *extra = nlogs > 1 ? json_array() : NULL;
    char *text = NULL;
    char *train = pr_fileio_path_join(o->out, "logs/train_log");
    char *index = pr_fileio_path_join(o->out, "logs/index");
    pr_fileio_remove_dead_temps(train, "");
    pr_fileio_remove_dead_temps(index, "_speed");
    free(index);
    free(train);
    for (int i = 0; i < nlogs; i++) {
        char *rel = i == 0 ? pr_xasprintf("logs/train_log/%s", rec->case_name)
                           : pr_xasprintf("logs/train_log/%s_run%d", rec->case_name, i + 1);
        dst[i] = pr_fileio_path_join(o->out, rel);
        if (i == 0) {
            free(rec->log_file);
            rec->log_file = pr_xstrdup(rel);
        } else {
            json_array_append_new(extra, json_string(rel));
        }
        free(rel);
        if (pr_fileio_copy_temp(logs[i], dst[i], &tmp[i], err) < 0)
            goto out;
    }
    json_decref(rec->logs);
    rec->logs = extra;
    extra = NULL;
    if (pr_record_check(rec, err) < 0)
        goto out;
    dst[nlogs] = pr_xasprintf("%s/logs/index/%s_speed", o->out, rec->case_name);
    text = pr_record_dumps(rec);
    if (pr_fileio_write_temp(dst[nlogs], text, strlen(text), 1, &tmp[nlogs], err) < 0)
        goto out;
    rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = pr_fileio_commit_temp(tmp[i], dst[i], err);
        free(tmp[i]);
        tmp[i] = NULL; /* committed, or removed by pr_fileio_commit_temp */
    }
out:
    for (size_t i = 0; i < n; i++) {
        if (tmp[i])
            unlink(tmp[i]);
        free(tmp[i]);
        free(dst[i]);
    }
    free(tmp);
    free(dst);
    free(text);
    json_decref(extra);
    return rc;
}

/* The rule as the user wrote it (a new reference), for --fit to print the
 * rules it lists as edits of it.  The rule has been checked already. */
static json_t *rule_object(const char *arg, pr_err *err)
{
    pr_buf b = PR_BUF_INIT;
    json_t *o = NULL;
    json_error_t je;
    if (arg[0] == '@') {
        if (pr_fileio_read_file(arg + 1, &b, err) < 0)
            goto out;
        o = json_loadb(b.data ? b.data : "", b.len, JSON_REJECT_DUPLICATES, &je);
    } else {
        o = json_loads(arg, JSON_REJECT_DUPLICATES, &je);
    }
    if (!json_is_object(o)) {
        json_decref(o);
        o = NULL;
        pr_err_set(err, arg[0] == '@' ? arg + 1 : "<--rule>", 0, 0, "rule", "expected an object");
    }
out:
    pr_buf_free(&b);
    return o;
}

static int is_fit(const char *a)
{
    return !strcmp(a, "--fit") || !strncmp(a, "--fit=", 6);
}

/* One --fit case's own options and LOGs: argv[0..argc) after its FIGURE
 * (argv[0] is a name for messages).  Fills c's logs (pointers into argv)
 * and its options over the common ones in o. */
static int parse_fit_case(int argc, char **argv, const opts *o, pr_fit_case *c, const char **rule)
{
    static const struct option longopts[] = {
        {"rule", required_argument, NULL, 'r'},       {"gpus", required_argument, NULL, 'g'},
        {"batch-size", required_argument, NULL, 'b'}, {"seq-len", required_argument, NULL, 'L'},
        {"unit", required_argument, NULL, 'U'},       {NULL, 0, NULL, 0},
    };
    c->args = (pr_parse_args){o->gpus, o->batch, o->seq_len, o->unit};
    int ch;
    optind = 0;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":r:g:b:", longopts, NULL)) != -1) {
        switch (ch) {
        case 'r':
            /* one rule for every case, wherever it is written: "--fit 12.3
             * --rule R LOG" reads R as the rule */
            if (*rule && strcmp(*rule, optarg))
                return usage_error("--rule given twice (one rule is searched for every "
                                   "--fit case)%s%s",
                                   "", "");
            *rule = optarg;
            break;
        case 'g':
            if (parse_int("--gpus", optarg, 1, 1 << 20, &c->args.gpus) < 0)
                return 2;
            break;
        case 'b':
            if (parse_int("--batch-size", optarg, 1, 1 << 24, &c->args.batch_size) < 0)
                return 2;
            break;
        case 'L':
            if (parse_int("--seq-len", optarg, 1, 1 << 24, &c->args.seq_len) < 0)
                return 2;
            break;
        case 'U':
            if (!*optarg)
                return usage_error("--unit must not be empty%s%s", "", "");
            c->args.unit = optarg;
            break;
        case ':':
            return usage_error("%s%s needs a value", "", argv[optind - 1]);
        default:
            return usage_error("%s: only --rule, --gpus, --batch-size, --seq-len and --unit may "
                               "follow --fit FIGURE (the other options go before the first --fit)",
                               argv[optind - 1], "");
        }
    }
    c->logs = (const char *const *)argv + optind;
    c->nlogs = (size_t)(argc - optind);
    if (c->nlogs == 0)
        return usage_error("--fit %s: no LOG after the figure%s", c->figure, "");
    for (size_t i = 0; i < c->nlogs; i++)
        if (check_log(c->logs[i]) < 0)
            return 2;
    return -1;
}

/* Prints out on stdout; -1 (with a message) when it cannot be written, a
 * full disk or a closed pipe: the exit status must not say it was. */
static int print_out(const pr_buf *out)
{
    fputs(pr_buf_cstr(out), stdout);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "perfrepro-measure parse: writing: %s\n", strerror(errno));
        return -1;
    }
    return 0;
}

/* --fit without --rule: the profiles that read every case's logs
 * (fitprobe.c).  One that needs no scope is the whole rule: its text goes
 * to *found and -1 is returned, the search goes on.  Otherwise the user
 * is told what --fit varies and shown the rules to start from; returns 2. */
static int fit_without_rule(const pr_fit_case *cases, size_t ncases, pr_buf *found)
{
    pr_fitprobe_hit hits[16];
    size_t nhits = 0;
    fitprobe(cases, ncases, hits, sizeof hits / sizeof hits[0], &nhits);
    if (nhits == 1 && !hits[0].needs_scope) {
        fitprobe_rule(&hits[0], NULL, found);
        fprintf(stderr,
                "perfrepro-measure parse: --fit: no --rule: the logs read as %s (%llu "
                "records); searching from --rule '%s'\n",
                hits[0].profile, hits[0].records, pr_buf_cstr(found));
        return -1;
    }
    fputs("perfrepro-measure parse: --fit needs --rule to start from: the search varies the keys "
          "that say which records count (skip, reduce, trim, step, round); the rule says how "
          "the logs are read (profile, keyword or match, and for rates the scope, which --fit "
          "never guesses: docs/parse-rules.md)\n",
          stderr);
    if (nhits == 0) {
        fputs("no profile reads every log without keys of its own (per-step profiles such as "
              "mmseg also need --gpus and --batch-size); a skeleton to adapt:\n"
              "  --rule '{\"keyword\": \"ips:\", \"scope\": \"per_card\"}'\n"
              "  --rule '{\"profile\": \"dllogger\", \"keyword\": \"train.total_ips\", "
              "\"scope\": \"global\"}'\n",
              stderr);
        return 2;
    }
    fputs("the logs read as (start from one of):\n", stderr);
    for (size_t i = 0; i < nhits; i++) {
        static const char *const scopes[] = {"per_card", "global"};
        static const char *const means[] = {"the log prints one card's rate",
                                            "the log prints the whole job's rate"};
        for (int sc = 0; sc < (hits[i].needs_scope ? 2 : 1); sc++) {
            pr_buf r = PR_BUF_INIT;
            fitprobe_rule(&hits[i], scopes[sc], &r);
            fprintf(stderr, "  --rule '%s'   (%llu records%s%s)\n", pr_buf_cstr(&r),
                    hits[i].records, hits[i].needs_scope ? "; " : "",
                    hits[i].needs_scope ? means[sc] : "");
            pr_buf_free(&r);
        }
    }
    return 2;
}

/* parse --fit: argv[first..argc) are the cases, each "--fit FIGURE [case
 * options] LOG...". */
static int cmd_fit(const opts *o, int argc, char **argv, int first, int nlogs)
{
    if (nlogs)
        return usage_error("with --fit, each LOG follows its --fit FIGURE (\"%s\" comes "
                           "before the first --fit)%s",
                           argv[optind], "");
    if (o->explain)
        return usage_error("--explain and --fit do not go together%s%s", "", "");
    if (o->out)
        return usage_error("--out does not go with --fit%s%s", "", "");
    int rc;
    if ((rc = check_identity(o, 1)) >= 0)
        return rc;
    /* the cases' argument vectors, each a copy that getopt may permute */
    size_t ncases = 0;
    for (int i = first; i < argc; i++)
        ncases += is_fit(argv[i]);
    pr_fit_case *cases = pr_xcalloc(ncases, sizeof *cases);
    char ***vecs = pr_xcalloc(ncases, sizeof *vecs);
    pr_rule *rule = NULL;
    json_t *robj = NULL;
    pr_buf out = PR_BUF_INIT, found = PR_BUF_INIT;
    pr_err err;
    const char *rule_arg = o->rule;
    rc = 2;
    size_t k = 0;
    for (int i = first; i < argc; k++) {
        const char *fig;
        int j = i + 1;
        if (argv[i][5] == '=') {
            fig = argv[i] + 6;
        } else {
            if (j >= argc) {
                rc = usage_error("--fit needs a value (the figure as printed)%s%s", "", "");
                goto out;
            }
            fig = argv[j++];
        }
        int end = j;
        while (end < argc && !is_fit(argv[end]))
            end++;
        cases[k].figure = fig;
        if (fit_figure_check(fig, &err) < 0) {
            rc = usage_error("%s%s", err.msg, "");
            goto out;
        }
        vecs[k] = pr_xcalloc((size_t)(end - j) + 2, sizeof *vecs[k]);
        vecs[k][0] = argv[i];
        memcpy(vecs[k] + 1, argv + j, (size_t)(end - j) * sizeof *argv);
        int crc = parse_fit_case(end - j + 1, vecs[k], o, &cases[k], &rule_arg);
        if (crc >= 0) {
            rc = crc;
            goto out;
        }
        i = end;
    }
    if (!rule_arg) {
        if ((rc = fit_without_rule(cases, ncases, &found)) >= 0)
            goto out;
        rc = 2;
        rule_arg = pr_buf_cstr(&found);
    }
    if (load_rule(rule_arg, &rule, &err) < 0 || !(robj = rule_object(rule_arg, &err))) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        goto out;
    }
    pr_fit_opts fo = {.limit = (size_t)o->limit, .max_skip = o->max_skip, .json = o->json};
    int fits = 0;
    if (fit_run(rule, robj, cases, ncases, &fo, &out, &fits, &err) < 0) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        goto out;
    }
    if (print_out(&out) < 0)
        goto out;
    rc = fits ? 0 : 1;
out:
    for (size_t i = 0; i < ncases; i++)
        free(vecs[i]);
    free(vecs);
    free(cases);
    pr_buf_free(&out);
    pr_buf_free(&found);
    json_decref(robj);
    rule_free(rule);
    return rc;
}

/* explain_run's text to standard output, as it is made. */
static int write_stdout(const char *text, size_t len, void *arg, pr_err *err)
{
    (void)arg;
    if (fwrite(text, 1, len, stdout) != len)
        return pr_err_errno(err, NULL, "writing");
    return 0;
}

/* parse --explain LOG... */
static int cmd_explain(const opts *o, char **logs, int nlogs)
{
    if (o->out)
        return usage_error("--out does not go with --explain%s%s", "", "");
    int rc;
    if ((rc = need_rule(o)) >= 0 || (rc = check_identity(o, nlogs)) >= 0)
        return rc;
    pr_rule *rule = NULL;
    pr_err err;
    rc = 2;
    if (load_rule(o->rule, &rule, &err) < 0) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        goto out;
    }
    for (int i = 0; i < nlogs; i++)
        if (check_log(logs[i]) < 0)
            goto out;
    pr_parse_args args = {o->gpus, o->batch, o->seq_len, o->unit};
    int has_value = 0;
    if (explain_run(rule, (const char *const *)logs, (size_t)nlogs, &args, write_stdout, NULL,
                    &has_value, &err) < 0) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        goto out;
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "perfrepro-measure parse: writing: %s\n", strerror(errno));
        goto out;
    }
    rc = has_value ? 0 : 1;
out:
    rule_free(rule);
    return rc;
}

int cmd_parse(int argc, char **argv)
{
    opts o = {NULL, "fp32", NULL, NULL, NULL, NULL, 0,    1,    0,    0,    NULL, NULL,
              NULL, 0,      0,    5,    200,  0,    NULL, NULL, NULL, NULL, NULL};
    /* --fit FIGURE starts a case: the options before the first are for all */
    int first_fit = argc;
    for (int i = 1; i < argc && first_fit == argc; i++)
        if (is_fit(argv[i]))
            first_fit = i;
    int first;
    int rc = parse_options(first_fit, argv, &o, &first);
    if (rc >= 0)
        return rc;
    char **logs = argv + first;
    int nlogs = first_fit - first;
    if (first_fit < argc)
        return cmd_fit(&o, argc, argv, first_fit, nlogs);
    if (o.explain)
        return cmd_explain(&o, logs, nlogs);
    if ((rc = need_rule(&o)) >= 0 || (rc = check_identity(&o, nlogs)) >= 0)
        return rc;

    pr_rule *rule = NULL;
    pr_record rec;
    pr_record_init(&rec);
    pr_parse_result res;
    parse_result_init(&res);
    pr_err err;
    rc = 2;
    if (load_rule(o.rule, &rule, &err) < 0) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        goto out;
    }
    for (int i = 0; i < nlogs; i++)
        if (check_log(logs[i]) < 0)
            goto out;
    pr_parse_args args = {o.gpus, o.batch, o.seq_len, o.unit};
    if (parse_logs(rule, (const char *const *)logs, (size_t)nlogs, &args, &res, &err) < 0) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        goto out;
    }
    fill_identity(&o, logs, nlogs, &rec);
    if (o.src_repo && !(rec.source = source_object(&o, &err))) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        goto out;
    }
    parse_to_record(rule, &res, &rec);
    if (o.out && file_case(&o, logs, nlogs, &rec, &err) < 0) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        goto out;
    }
    char *text = pr_record_dumps(&rec);
    fputs(text, stdout);
    free(text);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "perfrepro-measure parse: writing the record: %s\n", strerror(errno));
        goto out;
    }
    if (rec.failed)
        fprintf(stderr, "perfrepro-measure parse: case failed: %s: %s\n", rec.fail_reason,
                rec.fail_detail ? rec.fail_detail : "");
    rc = rec.failed ? 1 : 0;
out:
    parse_result_clear(&res);
    pr_record_clear(&rec);
    rule_free(rule);
    return rc;
}
