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

#include "buf.h"
#include "cmd.h"
#include "err.h"
#include "fileio.h"
#include "parse.h"
#include "record.h"
#include "rule.h"
#include "suite.h"

static const char parse_usage[] =
    "usage: perfrepro-measure parse --rule JSON|@FILE [options] LOG...\n"
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
    "  -o, --out DIR          also file the case into run folder DIR as measure run\n"
    "                         does: the logs copied to DIR/logs/train_log/, the record\n"
    "                         written to DIR/logs/index/<case>_speed (atomically), so\n"
    "                         DIR can go under data/runs/ and be rendered\n"
    "  -h, --help             this text\n"
    "\n"
    "exit status: 0 the case has a value (JOB_FAIL_FLAG 0); 1 the case failed\n"
    "(JOB_FAIL_FLAG 1, FINAL_RESULT null, the reason in \"failure\"; the record is still\n"
    "printed); 2 usage or rule error (message on standard error, nothing printed).\n";

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
} opts;

static int parse_options(int argc, char **argv, opts *o)
{
    static const struct option longopts[] = {
        {"rule", required_argument, NULL, 'r'},
        {"gpus", required_argument, NULL, 'g'},
        {"nodes", required_argument, NULL, 'N'},
        {"batch-size", required_argument, NULL, 'b'},
        {"seq-len", required_argument, NULL, 'L'},
        {"precision", required_argument, NULL, 'P'},
        {"model", required_argument, NULL, 'M'},
        {"framework", required_argument, NULL, 'F'},
        {"case", required_argument, NULL, 'C'},
        {"unit", required_argument, NULL, 'U'},
        {"model-name", required_argument, NULL, 'm'},
        {"mission-name", required_argument, NULL, 'T'},
        {"direction-id", required_argument, NULL, 'D'},
        {"out", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":r:g:b:o:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'r': o->rule = optarg; break;
        case 'g':
            if (parse_int("--gpus", optarg, 1, 1 << 20, &o->gpus) < 0)
                return 2;
            break;
        case 'N':
            if (parse_int("--nodes", optarg, 1, 1 << 16, &o->nodes) < 0)
                return 2;
            break;
        case 'b':
            if (parse_int("--batch-size", optarg, 1, 1 << 24, &o->batch) < 0)
                return 2;
            break;
        case 'L':
            if (parse_int("--seq-len", optarg, 1, 1 << 24, &o->seq_len) < 0)
                return 2;
            break;
        case 'P': o->precision = optarg; break;
        case 'M': o->model = optarg; break;
        case 'F': o->framework = optarg; break;
        case 'C': o->case_name = optarg; break;
        case 'U': o->unit = optarg; break;
        case 'm': o->model_name = optarg; break;
        case 'T': o->mission_name = optarg; break;
        case 'D':
            if (parse_int("--direction-id", optarg, 0, 2, &o->direction_id) < 0)
                return 2;
            break;
        case 'o': o->out = optarg; break;
        case 'h':
            fputs(parse_usage, stdout);
            return 0;
        case ':':
            return usage_error("%s%s needs a value", "", argv[optind - 1]);
        default:
            return usage_error("unknown option %s%s", argv[optind - 1], "");
        }
    }
    return -1;
}

static int check_identity(const opts *o, int nlogs)
{
    if (!o->rule)
        return usage_error("--rule is required%s%s", "", "");
    if (nlogs == 0)
        return usage_error("no LOG given%s%s", "", "");
    if (!pr_str_in(o->precision, pr_precisions))
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
    if (o->model && (bad = pr_name_unsafe_why(o->model, why, sizeof why)))
        return usage_error("--model: \"%s\" is not a safe folder name: %s", o->model, bad);
    if (o->framework && (bad = pr_name_unsafe_why(o->framework, why, sizeof why)))
        return usage_error("--framework: \"%s\" is not a safe folder name: %s", o->framework,
                           bad);
    return -1;
}

static int load_rule(const char *arg, pr_rule **out, pr_err *err)
{
    if (arg[0] == '@')
        return pr_rule_load(arg + 1, out, err);
    return pr_rule_parse("<--rule>", arg, strlen(arg), out, err);
}

/* A LOG that is not there is a usage error (a typo), not a failed case; so
 * is one that is no regular file (a FIFO would block the parse forever). */
static int check_log(const char *path)
{
    pr_err err;
    int fd = pr_open_regular(path, &err);
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
    rec->log_file = pr_xstrdup(pr_path_is_safe_relative(first) ? first : base_name(first));
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
 * folder never holds a record whose logs are missing. */
static int file_case(const opts *o, char **logs, int nlogs, pr_record *rec, pr_err *err)
{
    char why[160];
    const char *bad = pr_name_unsafe_why(rec->case_name, why, sizeof why);
    if (bad)
        return pr_err_set(err, NULL, 0, 0, "--case",
                          "\"%s\" is not a safe file name: %s; give --case NAME",
                          rec->case_name, bad);
    int rc = -1;
    size_t n = (size_t)nlogs + 1; /* the logs, then the record */
    char **dst = pr_xcalloc(n, sizeof *dst), **tmp = pr_xcalloc(n, sizeof *tmp);
    json_t *extra = nlogs > 1 ? json_array() : NULL;
    char *text = NULL;
    for (int i = 0; i < nlogs; i++) {
        char *rel = i == 0 ? pr_xasprintf("logs/train_log/%s", rec->case_name)
                           : pr_xasprintf("logs/train_log/%s_run%d", rec->case_name, i + 1);
        dst[i] = pr_path_join(o->out, rel);
        if (i == 0) {
            free(rec->log_file);
            rec->log_file = pr_xstrdup(rel);
        } else {
            json_array_append_new(extra, json_string(rel));
        }
        free(rel);
        if (pr_copy_temp(logs[i], dst[i], &tmp[i], err) < 0)
            goto out;
    }
    json_decref(rec->logs);
    rec->logs = extra;
    extra = NULL;
    if (pr_record_check(rec, err) < 0)
        goto out;
    dst[nlogs] = pr_xasprintf("%s/logs/index/%s_speed", o->out, rec->case_name);
    text = pr_record_dumps(rec);
    if (pr_write_temp(dst[nlogs], text, strlen(text), 1, &tmp[nlogs], err) < 0)
        goto out;
    rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = pr_commit_temp(tmp[i], dst[i], err);
        free(tmp[i]);
        tmp[i] = NULL; /* committed, or removed by pr_commit_temp */
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

int pr_cmd_parse(int argc, char **argv)
{
    opts o = {NULL, "fp32", NULL, NULL, NULL, NULL, 0, 1, 0, 0, NULL, NULL, NULL, 0};
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    char **logs = argv + optind;
    int nlogs = argc - optind;
    if ((rc = check_identity(&o, nlogs)) >= 0)
        return rc;

    pr_rule *rule = NULL;
    pr_record rec;
    pr_record_init(&rec);
    pr_parse_result res;
    pr_parse_result_init(&res);
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
    if (pr_parse_logs(rule, (const char *const *)logs, (size_t)nlogs, &args, &res, &err) < 0) {
        fprintf(stderr, "perfrepro-measure parse: %s\n", err.msg);
        goto out;
    }
    fill_identity(&o, logs, nlogs, &rec);
    pr_parse_to_record(rule, &res, &rec);
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
    pr_parse_result_clear(&res);
    pr_record_clear(&rec);
    pr_rule_free(rule);
    return rc;
}
