/* Unit tests of the multi-node launchers (launch.h): the argv mpirun and
 * srun get, the batch script sbatch gets, the per-task wrapper (run for
 * real with the variables each engine sets), host lists, the container
 * words, what a job leaves behind (per-rank logs, job id, nodes), and the
 * record's and suite's new keys.  The engines themselves run in
 * tests/scripts/cluster_*.sh. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "4-run/container.h"
#include "4-run/launch.h"
#include "4-run/runner.h"
#include "buf.h"
#include "fileio.h"
#include "jdoc.h"
#include "record.h"
#include "suite.h"

static char tmpdir[64];

static void mk_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/pr-launch-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    pr_jdoc_json_init();
}

static void rm_tmpdir(void)
{
    char *cmd = pr_xasprintf("rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
}

static char *write_tmp(const char *name, const char *text)
{
    char *p = pr_fileio_path_join(tmpdir, name);
    pr_err e;
    cr_assert_eq(pr_fileio_write_atomic(p, text, strlen(text), &e), 0, "%s", e.msg);
    return p;
}

static pr_suite *load_suite(const char *json)
{
    char *p = write_tmp("suite.json", json);
    pr_suite *s = NULL;
    pr_err e;
    cr_assert_eq(pr_suite_load(p, &s, &e), 0, "%s", e.msg);
    free(p);
    return s;
}

static int suite_error(const char *json, pr_err *e)
{
    char *p = write_tmp("suite.json", json);
    pr_suite *s = NULL;
    int rc = pr_suite_load(p, &s, e);
    pr_suite_free(s);
    free(p);
    return rc;
}

static char *sh_output(const char *cmd)
{
    FILE *f = popen(cmd, "r");
    cr_assert_not_null(f);
    pr_buf b = PR_BUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        pr_buf_put(&b, buf, n);
    pclose(f);
    return pr_buf_detach(&b);
}

static const char *env_get(char **env, const char *name)
{
    size_t n = strlen(name);
    for (; env && *env; env++)
        if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
            return *env + n + 1;
    return NULL;
}

/* The index of word w in argv, or -1. */
static int argv_find(char **argv, const char *w)
{
    for (int i = 0; argv && argv[i]; i++)
        if (strcmp(argv[i], w) == 0)
            return i;
    return -1;
}

/* 1 when argv holds the words a, b next to each other. */
static int argv_pair(char **argv, const char *a, const char *b)
{
    for (int i = 0; argv && argv[i] && argv[i + 1]; i++)
        if (strcmp(argv[i], a) == 0 && strcmp(argv[i + 1], b) == 0)
            return 1;
    return 0;
}

#define HEAD                                                                                       \
    "{\"perfrepro\": 1, \"model\": \"M\", \"framework\": \"F\", \"model_name\": \"m\", "           \
    "\"mission_name\": \"x\", \"direction_id\": 0, \"unit\": \"samples/s\", "                      \
    "\"case_name\": \"c{gpus}\", \"rule\": {\"keyword\": \"ips:\", \"scope\": \"global\"}, "       \
    "\"timeout_s\": 90, "
#define MATRIX(nodes, gpn)                                                                         \
    "\"matrix\": {\"nodes\": [" #nodes "], \"gpus_per_node\": [" #gpn "], "                        \
    "\"batch_size\": [1], \"precision\": [\"fp32\"]}"

static pr_host two_hosts[] = {{"h1", 4}, {"h2", 0}};

static int build(const pr_suite *s, const char *launcher, const pr_launch_env *le, pr_job *job,
                 pr_err *e)
{
    pr_job_ctx ctx = {launch_find(launcher), "/o", "/w", NULL, 29600, le, 0};
    cr_assert_not_null(ctx.launcher);
    return runner_job_build(s, &s->cases[0], &ctx, job, e);
}

/* ---- host lists ---- */

Test(hosts, list, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_host *h;
    size_t n;
    pr_err e;
    cr_assert_eq(launch_hosts_parse("gpu01:8,gpu02,node-3.example.org:16", &h, &n, &e), 0, "%s",
                 e.msg);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(h[0].name, "gpu01");
    cr_assert_eq(h[0].slots, 8);
    cr_assert_eq(h[1].slots, 0);
    cr_assert_str_eq(h[2].name, "node-3.example.org");
    launch_hosts_free(h, n);
    const char *bad[] = {"", "a,,b", "a:0", "a:x", "a:8x", "a b", "-a", "a;b", "a:"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_eq(launch_hosts_parse(bad[i], &h, &n, &e), -1, "\"%s\" accepted", bad[i]);
        cr_assert(strstr(e.msg, "--hosts") != NULL, "%s", e.msg);
        cr_assert_null(h);
    }
}

Test(hosts, hostfile, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    char *p = write_tmp("hosts", "# the nodes\nnode1 slots=8\n\n  node2 slots=8 max_slots=8 "
                                 "# second\nnode3\n");
    pr_host *h;
    size_t n;
    pr_err e;
    cr_assert_eq(launch_hostfile_parse(p, &h, &n, &e), 0, "%s", e.msg);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(h[1].name, "node2");
    cr_assert_eq(h[1].slots, 8);
    cr_assert_eq(h[2].slots, 0);
    launch_hosts_free(h, n);
    free(p);
    p = write_tmp("bad", "node1 slots=x\n");
    cr_assert_eq(launch_hostfile_parse(p, &h, &n, &e), -1);
    cr_assert(strstr(e.msg, ":1:") != NULL, "%s", e.msg);
    free(p);
    p = write_tmp("empty", "# nothing\n");
    cr_assert_eq(launch_hostfile_parse(p, &h, &n, &e), -1);
    free(p);
}

/* ---- mpirun ---- */

Test(mpirun, argv_env_and_wrapper, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(HEAD "\"command\": [\"train.py\", \"--bs\", \"{batch_size}\", "
                                  "\"--addr={master_addr}:{master_port}\"], "
                                  "\"env\": {\"NCCL_DEBUG\": \"INFO\"}, " MATRIX(2, 4) "}");
    pr_launch_env le;
    memset(&le, 0, sizeof le);
    le.hosts = two_hosts;
    le.nhosts = 2;
    le.as_root = 1;
    char *pass[] = {"PATH", NULL};
    le.pass_env = pass;
    pr_job job;
    pr_err e;
    cr_assert_eq(build(s, "mpirun", &le, &job, &e), 0, "%s", e.msg);
    cr_assert_null(job.prepare_error, "%s", job.prepare_error);
    char **a = job.argv;
    cr_assert_str_eq(a[0], "mpirun");
    cr_assert_str_eq(a[1], "--allow-run-as-root");
    cr_assert(argv_pair(a, "-np", "8"));
    cr_assert(argv_pair(a, "--map-by", "ppr:4:node"));
    cr_assert(argv_pair(a, "--bind-to", "none"));
    cr_assert(argv_pair(a, "--host", "h1:4,h2:4"));
    cr_assert_geq(argv_find(a, "--tag-output"), 0);
    cr_assert(argv_pair(a, "--output-filename", "/o/logs/train_log/c8.ranks"));
    const char *exported[] = {
        "NCCL_DEBUG",  "CUDA_VISIBLE_DEVICES", "PERFREPRO_CASE", "PERFREPRO_LOG",
        "MASTER_ADDR", "MASTER_PORT",          "WORLD_SIZE",     "PATH"};
    for (size_t i = 0; i < sizeof exported / sizeof *exported; i++)
        cr_assert(argv_pair(a, "-x", exported[i]), "no -x %s", exported[i]);
    /* The task: the wrapper, then the command unchanged. */
    int sh = argv_find(a, "/bin/sh");
    cr_assert_gt(sh, 0);
    cr_assert_str_eq(a[sh + 1], "-c");
    cr_assert(strstr(a[sh + 2], "NODE_RANK=$((RANK / 4))") != NULL, "%s", a[sh + 2]);
    cr_assert_str_eq(a[sh + 3], "perfrepro-task");
    cr_assert_str_eq(a[sh + 4], "train.py");
    cr_assert_str_eq(a[sh + 7], "--addr=h1:29600");
    cr_assert_null(a[sh + 8]);
    cr_assert_str_eq(env_get(job.env, "MASTER_ADDR"), "h1");
    cr_assert_str_eq(env_get(job.env, "MASTER_PORT"), "29600");
    cr_assert_str_eq(env_get(job.env, "WORLD_SIZE"), "8");
    cr_assert_null(env_get(job.env, "PET_NNODES"));
    /* What the record will say. */
    cr_assert_not_null(job.plan);
    cr_assert_str_eq(job.plan->rank_dir, "/o/logs/train_log/c8.ranks");
    char *l = json_dumps(job.plan->launch, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert_str_eq(l, "{\"launcher\":\"mpirun\",\"tasks\":8,\"ranks\":\"per_gpu\","
                        "\"hosts\":[\"h1\",\"h2\"]}");
    free(l);
    runner_job_free(&job);

    /* Not root: no --allow-run-as-root; one process per node. */
    le.as_root = 0;
    le.ranks = PR_RANKS_PER_NODE;
    cr_assert_eq(build(s, "mpirun", &le, &job, &e), 0, "%s", e.msg);
    cr_assert_lt(argv_find(job.argv, "--allow-run-as-root"), 0);
    cr_assert(argv_pair(job.argv, "-np", "2"));
    cr_assert(argv_pair(job.argv, "--map-by", "ppr:1:node"));
    cr_assert(argv_pair(job.argv, "--host", "h1:1,h2:1"));
    cr_assert_str_eq(env_get(job.env, "PET_NNODES"), "2");
    cr_assert_str_eq(env_get(job.env, "PET_NPROC_PER_NODE"), "4");
    cr_assert_str_eq(env_get(job.env, "PET_MASTER_ADDR"), "h1");
    cr_assert(strstr(job.argv[argv_find(job.argv, "/bin/sh") + 2], "PET_NODE_RANK") != NULL);
    runner_job_free(&job);
    pr_suite_free(s);
}

Test(mpirun, refuses_what_cannot_run, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(HEAD "\"command\": [\"x\"], " MATRIX(3, 8) "}");
    pr_launch_env le;
    memset(&le, 0, sizeof le);
    pr_job job;
    pr_err e;
    /* Three nodes and no hosts. */
    cr_assert_eq(build(s, "mpirun", &le, &job, &e), 0, "%s", e.msg);
    cr_assert_not_null(job.prepare_error);
    cr_assert(strstr(job.prepare_error, "--hosts") != NULL, "%s", job.prepare_error);
    cr_assert_null(job.argv);
    runner_job_free(&job);
    /* Two hosts for three nodes. */
    le.hosts = two_hosts;
    le.nhosts = 2;
    cr_assert_eq(build(s, "mpirun", &le, &job, &e), 0);
    cr_assert(strstr(job.prepare_error, "lists 2") != NULL, "%s", job.prepare_error);
    runner_job_free(&job);
    pr_suite_free(s);
    /* h1 has 4 slots; the case wants 8 a node. */
    s = load_suite(HEAD "\"command\": [\"x\"], " MATRIX(2, 8) "}");
    cr_assert_eq(build(s, "mpirun", &le, &job, &e), 0);
    cr_assert(strstr(job.prepare_error, "h1 has 4 slots") != NULL, "%s", job.prepare_error);
    runner_job_free(&job);
    pr_suite_free(s);
}

Test(mpirun, one_node_without_hosts_and_addresses, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(HEAD "\"command\": [\"x\", \"{master_addr}\"], " MATRIX(1, 2) "}");
    pr_launch_env le;
    memset(&le, 0, sizeof le);
    pr_job job;
    pr_err e;
    cr_assert_eq(build(s, "mpirun", &le, &job, &e), 0, "%s", e.msg);
    cr_assert_null(job.prepare_error);
    cr_assert_lt(argv_find(job.argv, "--host"), 0);
    cr_assert_lt(argv_find(job.argv, "--hostfile"), 0);
    cr_assert_str_eq(env_get(job.env, "MASTER_ADDR"), "127.0.0.1");
    runner_job_free(&job);
    /* Hosts given by address: used, but never recorded. */
    pr_host ip[] = {{"10.1.2.3", 0}};
    le.hosts = ip;
    le.nhosts = 1;
    cr_assert_eq(build(s, "mpirun", &le, &job, &e), 0, "%s", e.msg);
    cr_assert(argv_pair(job.argv, "--host", "10.1.2.3:2"));
    json_t *hosts = json_object_get(job.plan->launch, "hosts");
    cr_assert_str_eq(json_string_value(json_array_get(hosts, 0)), "(address)");
    char *w = runner_scrub_addresses("10.1.2.3:2,127.0.0.1:2,v1.2.3.4,1.2.3.4.5,300.1.1.1");
    cr_assert_str_eq(w, "<address>:2,127.0.0.1:2,v1.2.3.4,1.2.3.4.5,300.1.1.1");
    free(w);
    runner_job_free(&job);
    pr_suite_free(s);
}

/* ---- slurm ---- */

static char *alloc3[] = {"n1", "n2", "n3", NULL};

Test(slurm, srun_inside_an_allocation, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(HEAD "\"command\": [\"train.py\", \"--master\", \"{master_addr}\", "
                                  "\"--node-rank={node_rank}\"], " MATRIX(2, 4) "}");
    pr_launch_env le;
    memset(&le, 0, sizeof le);
    le.job_id = "42";
    le.alloc_hosts = alloc3;
    le.nalloc = 3;
    le.srun_mpi = "pmix";
    char *srun_opts[] = {"--cpus-per-task=8", NULL};
    le.srun_opts = srun_opts;
    pr_job job;
    pr_err e;
    cr_assert_eq(build(s, "slurm", &le, &job, &e), 0, "%s", e.msg);
    cr_assert_null(job.prepare_error, "%s", job.prepare_error);
    const char *want[] = {"srun",
                          "--nodes=2",
                          "--ntasks=8",
                          "--ntasks-per-node=4",
                          "--nodelist=n1,n2",
                          "--mpi=pmix",
                          "--kill-on-bad-exit=1",
                          "--output=/o/logs/train_log/c8.rank%t",
                          "--cpus-per-task=8",
                          "/bin/sh",
                          "-c"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert_str_eq(job.argv[i], want[i], "word %zu", i);
    /* {node_rank} differs per task: the command runs through the wrapper's shell. */
    const char *cmd = job.argv[11];
    cr_assert(strstr(cmd, "NODE_RANK=${SLURM_NODEID:?}") != NULL, "%s", cmd);
    cr_assert(strstr(cmd, "exec train.py --master n1 --node-rank=\"${NODE_RANK}\"") != NULL, "%s",
              cmd);
    cr_assert_null(job.argv[12]);
    cr_assert_str_eq(env_get(job.env, "MASTER_ADDR"), "n1");
    cr_assert_str_eq(job.plan->rank_prefix, "/o/logs/train_log/c8.rank");
    cr_assert_eq(job.plan->batch, 0);
    cr_assert_null(job.plan->script);
    char *l = json_dumps(job.plan->launch, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert_str_eq(l, "{\"launcher\":\"slurm\",\"tasks\":8,\"ranks\":\"per_gpu\","
                        "\"job_id\":\"42\",\"hosts\":[\"n1\",\"n2\"]}");
    free(l);
    runner_job_free(&job);
    pr_suite_free(s);

    /* Four nodes in an allocation of three. */
    s = load_suite(HEAD "\"command\": [\"x\"], " MATRIX(4, 8) "}");
    cr_assert_eq(build(s, "slurm", &le, &job, &e), 0);
    cr_assert(strstr(job.prepare_error, "has 3") != NULL, "%s", job.prepare_error);
    runner_job_free(&job);
    pr_suite_free(s);
}

Test(slurm, batch_script, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(HEAD "\"command\": [\"torchrun\", \"--master_addr={master_addr}\", "
                                  "\"train.py\"], \"ranks\": \"per_node\", " MATRIX(4, 8) "}");
    pr_launch_env le;
    memset(&le, 0, sizeof le);
    le.ranks = PR_RANKS_PER_NODE;
    le.gpu_request = 1;
    char *sb[] = {"--partition=gpu", "--account=perf", NULL};
    le.sbatch_opts = sb;
    pr_job job;
    pr_err e;
    cr_assert_eq(build(s, "slurm", &le, &job, &e), 0, "%s", e.msg);
    cr_assert_null(job.prepare_error, "%s", job.prepare_error);
    const char *want[] = {"sbatch", "--parsable", "--wait", "/o/logs/train_log/c32.sbatch", NULL};
    for (size_t i = 0; i < 5; i++)
        cr_assert(want[i] ? job.argv[i] && strcmp(job.argv[i], want[i]) == 0 : !job.argv[i],
                  "word %zu", i);
    cr_assert_eq(job.plan->batch, 1);
    const char *sc = job.plan->script;
    const char *lines[] = {"#!/bin/sh\n",
                           "\n#SBATCH --nodes=4\n",
                           "\n#SBATCH --ntasks-per-node=1\n",
                           "\n#SBATCH --gpus-per-node=8\n",
                           "\n#SBATCH --exclusive\n",
                           "\n#SBATCH --time=2\n",
                           "\n#SBATCH --output=/o/logs/train_log/c32\n",
                           "\n#SBATCH --open-mode=append\n",
                           "\n#SBATCH --chdir=/w\n",
                           "\n#SBATCH --partition=gpu\n#SBATCH --account=perf\n",
                           "\nexport MASTER_ADDR\n",
                           "\nPET_MASTER_ADDR=$MASTER_ADDR\n",
                           "\necho \"PERFREPRO_NODES:\" $nodes\n",
                           "\nexec srun --nodes=4 --ntasks=4 --ntasks-per-node=1 "
                           "--kill-on-bad-exit=1 --output=/o/logs/train_log/c32.rank%t \\\n"
                           "    /bin/sh -c "};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        cr_assert(strstr(sc, lines[i]) != NULL, "no %s in:\n%s", lines[i], sc);
    /* {master_addr} is known only when the job starts: the script sets it. */
    cr_assert(strstr(sc, "--master_addr=\"${MASTER_ADDR}\"") != NULL, "%s", sc);
    cr_assert_null(env_get(job.env, "MASTER_ADDR"));
    cr_assert_str_eq(env_get(job.env, "PET_NNODES"), "4");
    char *l = json_dumps(job.plan->launch, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert_str_eq(l, "{\"launcher\":\"slurm\",\"tasks\":4,\"ranks\":\"per_node\","
                        "\"script\":\"logs/train_log/c32.sbatch\"}");
    free(l);
    /* --dry-run shows the script as a here-document, then sbatch. */
    pr_buf b = PR_BUF_INIT;
    runner_job_format(&job, &b);
    cr_assert(strncmp(pr_buf_cstr(&b),
                      "cat >/o/logs/train_log/c32.sbatch <<'PERFREPRO_SBATCH_EOF'\n"
                      "#!/bin/sh\n",
                      60) == 0,
              "%s", pr_buf_cstr(&b));
    cr_assert(strstr(pr_buf_cstr(&b), "\nPERFREPRO_SBATCH_EOF\n") != NULL);
    pr_buf_free(&b);
    runner_job_free(&job);

    /* No GPU request on a cluster without GPU GRES. */
    le.gpu_request = 0;
    cr_assert_eq(build(s, "slurm", &le, &job, &e), 0, "%s", e.msg);
    cr_assert_null(strstr(job.plan->script, "--gpus-per-node"));
    runner_job_free(&job);
    pr_suite_free(s);
}

/* The wrapper, run for real with the variables srun or mpirun would set:
 * every task finds its own place in its arguments. */
Test(slurm, wrapper_expands_per_task, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(HEAD "\"command\": [\"printf\", \"%s|\", \"{node_rank}\", "
                                  "\"lr={local_rank}\", \"it's {master_addr}\", "
                                  "\"$(touch PWNED)\"], " MATRIX(2, 2) "}");
    pr_launch_env le;
    memset(&le, 0, sizeof le);
    pr_job job;
    pr_err e;
    cr_assert_eq(build(s, "slurm", &le, &job, &e), 0, "%s", e.msg);
    char *srun = strstr(job.plan->script, "\n    /bin/sh");
    cr_assert_not_null(srun);
    pr_buf cmd = PR_BUF_INIT;
    pr_buf_printf(&cmd,
                  "cd '%s' && SLURM_PROCID=3 SLURM_LOCALID=1 SLURM_NODEID=1 "
                  "MASTER_ADDR=n7 ",
                  tmpdir);
    pr_buf_puts(&cmd, srun + 5);
    char *got = sh_output(pr_buf_cstr(&cmd));
    cr_assert_str_eq(got, "1|lr=1|it's n7|$(touch PWNED)|");
    free(got);
    /* Without the engine's variables the wrapper refuses to guess. */
    pr_buf_clear(&cmd);
    pr_buf_printf(&cmd, "cd '%s' && (", tmpdir);
    pr_buf_puts(&cmd, srun + 5);
    pr_buf_puts(&cmd, ") 2>&1");
    got = sh_output(pr_buf_cstr(&cmd));
    cr_assert(strstr(got, "not started by srun") != NULL, "%s", got);
    free(got);
    char *pw = pr_fileio_path_join(tmpdir, "PWNED");
    cr_assert_not(pr_fileio_is_file(pw));
    free(pw);
    pr_buf_free(&cmd);
    runner_job_free(&job);
    pr_suite_free(s);

    /* The same under mpirun, from a shell command. */
    s = load_suite(HEAD "\"shell\": true, \"command\": [\"printf '%s|' {node_rank} "
                        "{local_rank} {world_size} > out.txt\"], " MATRIX(2, 2) "}");
    pr_host hosts[] = {{"a", 0}, {"b", 0}};
    le.hosts = hosts;
    le.nhosts = 2;
    cr_assert_eq(build(s, "mpirun", &le, &job, &e), 0, "%s", e.msg);
    int sh = argv_find(job.argv, "/bin/sh");
    cr_assert_gt(sh, 0);
    cr_assert_null(job.argv[sh + 3], "a shell command is the wrapper's own text");
    pr_buf_clear(&cmd);
    pr_buf_printf(&cmd,
                  "cd '%s' && OMPI_COMM_WORLD_RANK=3 OMPI_COMM_WORLD_LOCAL_RANK=1 "
                  "/bin/sh -c ",
                  tmpdir);
    runner_shell_quote(job.argv[sh + 2], &cmd);
    pr_buf_puts(&cmd, " && cat out.txt");
    got = sh_output(pr_buf_cstr(&cmd));
    cr_assert_str_eq(got, "1|1|4|");
    free(got);
    pr_buf_free(&cmd);
    runner_job_free(&job);
    pr_suite_free(s);
}

Test(slurm, per_task_values_cannot_go_in_env, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(
        HEAD "\"command\": [\"x\"], \"env\": {\"NR\": \"{node_rank}\"}, " MATRIX(2, 2) "}");
    pr_launch_env le;
    memset(&le, 0, sizeof le);
    pr_job job;
    pr_err e;
    cr_assert_eq(build(s, "slurm", &le, &job, &e), -1);
    cr_assert(strstr(e.msg, "env.NR") != NULL && strstr(e.msg, "NODE_RANK") != NULL, "%s", e.msg);
    runner_job_free(&job);
    /* The local launcher has them as text: fine there. */
    pr_suite_free(s);
    s = load_suite(HEAD
                   "\"command\": [\"x\"], \"env\": {\"NR\": \"{node_rank}\"}, " MATRIX(1, 2) "}");
    cr_assert_eq(build(s, "local", NULL, &job, &e), 0, "%s", e.msg);
    cr_assert_str_eq(env_get(job.env, "NR"), "0");
    runner_job_free(&job);
    pr_suite_free(s);
}

Test(slurm, unsafe_paths, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(HEAD "\"command\": [\"x\"], " MATRIX(1, 2) "}");
    pr_launch_env le;
    memset(&le, 0, sizeof le);
    pr_job_ctx ctx = {launch_find("slurm"), "/o/100%", "/w", NULL, 29500, &le, 0};
    pr_job job;
    pr_err e;
    cr_assert_eq(runner_job_build(s, &s->cases[0], &ctx, &job, &e), 0, "%s", e.msg);
    cr_assert(strstr(job.prepare_error, "'%'") != NULL, "%s", job.prepare_error);
    runner_job_free(&job);
    pr_suite_free(s);
}

/* ---- what a job leaves ---- */

Test(collect, slurm_rank_logs_and_batch_facts, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    char *log = write_tmp("logs/train_log/c4", "77;cluster\nPERFREPRO_NODES: n1 10.0.0.2\n"
                                               "slurmstepd: error: *** JOB 77 ON n1 CANCELLED "
                                               "AT 2026-01-01T00:00:00 DUE TO TIME LIMIT ***\n");
    char *r0 = write_tmp("logs/train_log/c4.rank0", "ips: 1\n");
    char *r1 = write_tmp("logs/train_log/c4.rank1", "ips: 2\n");
    char *stale = write_tmp("logs/train_log/c4.rank7", "old\n");
    char *other = write_tmp("logs/train_log/c4.rankx", "not a rank log\n");
    pr_launch_plan p;
    memset(&p, 0, sizeof p);
    p.rank_prefix = pr_xasprintf("%s/logs/train_log/c4.rank", tmpdir);
    p.ntasks = 2;
    p.batch = 1;
    p.launch = json_pack("{s:s}", "launcher", "slurm");
    pr_launch_result r;
    launch_collect(&p, tmpdir, log, "logs/train_log/c4", 1, &r);
    cr_assert_str_eq(r.log_file, "logs/train_log/c4.rank1");
    cr_assert_str_eq(r.parse[0], r1);
    cr_assert_null(r.parse[1]);
    cr_assert_eq(r.parts, 0);
    cr_assert_str_eq(r.logs[0], "logs/train_log/c4");
    cr_assert_str_eq(r.logs[1], "logs/train_log/c4.rank0");
    cr_assert_str_eq(r.logs[2], "logs/train_log/c4.rank1");
    cr_assert_null(r.logs[3]);
    cr_assert_str_eq(r.job_id, "77");
    cr_assert_eq(r.engine_timeout, 1);
    char *l = json_dumps(r.launch, JSON_COMPACT | JSON_PRESERVE_ORDER);
    cr_assert_str_eq(l, "{\"launcher\":\"slurm\",\"job_id\":\"77\","
                        "\"hosts\":[\"n1\",\"(address)\"]}");
    free(l);
    launch_result_free(&r);
    /* rank "all": every task's log, read as one. */
    launch_collect(&p, tmpdir, log, "logs/train_log/c4", -1, &r);
    cr_assert_str_eq(r.parse[0], r0);
    cr_assert_str_eq(r.parse[1], r1);
    cr_assert_eq(r.parts, 1);
    cr_assert_str_eq(r.log_file, "logs/train_log/c4.rank0");
    launch_result_free(&r);
    /* Before the next run: earlier rank logs go, other files stay. */
    launch_clean(&p, log);
    cr_assert_not(pr_fileio_is_file(r0));
    cr_assert_not(pr_fileio_is_file(stale));
    cr_assert(pr_fileio_is_file(other));
    cr_assert(pr_fileio_is_file(log));
    /* No rank logs at all (the job never started): the case's log. */
    launch_collect(&p, tmpdir, log, "logs/train_log/c4", 0, &r);
    cr_assert_str_eq(r.log_file, "logs/train_log/c4");
    cr_assert_str_eq(r.parse[0], log);
    launch_result_free(&r);
    launch_plan_free(&p);
    free(log);
    free(r0);
    free(r1);
    free(stale);
    free(other);
}

Test(collect, mpirun_rank_dir_and_local, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    char *log = write_tmp("logs/train_log/c2", "[1,0]<stdout>:ips: 1\n");
    char *f1 = write_tmp("logs/train_log/c2.ranks/1/rank.1/stdout", "x\n");
    char *f0 = write_tmp("logs/train_log/c2.ranks/1/rank.0/stdout", "x\n");
    pr_launch_plan p;
    memset(&p, 0, sizeof p);
    p.rank_dir = pr_xasprintf("%s/logs/train_log/c2.ranks", tmpdir);
    p.ntasks = 2;
    p.launch = json_pack("{s:s}", "launcher", "mpirun");
    pr_launch_result r;
    launch_collect(&p, tmpdir, log, "logs/train_log/c2", 0, &r);
    /* mpirun's merged, tagged log is the one read. */
    cr_assert_str_eq(r.log_file, "logs/train_log/c2");
    cr_assert_str_eq(r.parse[0], log);
    cr_assert_str_eq(r.logs[1], "logs/train_log/c2.ranks/1/rank.0/stdout");
    cr_assert_str_eq(r.logs[2], "logs/train_log/c2.ranks/1/rank.1/stdout");
    cr_assert_null(r.job_id);
    launch_result_free(&r);
    launch_clean(&p, log);
    cr_assert_not(pr_fileio_is_dir(p.rank_dir));
    launch_plan_free(&p);
    /* local: just the log. */
    launch_collect(NULL, tmpdir, log, "logs/train_log/c2", 0, &r);
    cr_assert_str_eq(r.log_file, "logs/train_log/c2");
    cr_assert_null(r.logs);
    cr_assert_null(r.launch);
    launch_result_free(&r);
    free(log);
    free(f0);
    free(f1);
}

Test(collect, outputs_of_an_earlier_run_links_included, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    /* What the runner moves aside before a case runs again: links and
     * FIFOs planted where the job writes are listed (lstat), never
     * followed; files that are no rank log are not. */
    char *target = write_tmp("target", "precious\n");
    char *r0 = write_tmp("logs/train_log/c4.rank0", "ips: 1\n");
    free(write_tmp("logs/train_log/c4.rankx", "not a rank log\n"));
    char *r1 = pr_fileio_path_join(tmpdir, "logs/train_log/c4.rank1");
    cr_assert_eq(symlink(target, r1), 0);
    char *script = pr_fileio_path_join(tmpdir, "logs/train_log/c4.sbatch");
    cr_assert_eq(symlink("/nonexistent/dangling", script), 0);
    char *ranks = pr_fileio_path_join(tmpdir, "logs/train_log/c4.ranks");
    cr_assert_eq(mkfifo(ranks, 0600), 0);
    pr_launch_plan p;
    memset(&p, 0, sizeof p);
    p.rank_prefix = pr_xasprintf("%s/logs/train_log/c4.rank", tmpdir);
    p.rank_dir = pr_xstrdup(ranks);
    p.script_path = pr_xstrdup(script);
    char **outs = launch_outputs(&p);
    cr_assert_not_null(outs);
    const char *want[] = {ranks, r0, r1, script, NULL};
    size_t i = 0;
    for (; outs[i]; i++) {
        cr_assert_not_null(want[i], "extra %s", outs[i]);
        cr_assert_str_eq(outs[i], want[i]);
    }
    cr_assert_null(want[i], "missing %s", want[i]);
    pr_fileio_strv_free(outs);
    cr_assert_null(launch_outputs(NULL));
    launch_plan_free(&p);
    pr_buf b = PR_BUF_INIT;
    pr_err e;
    cr_assert_eq(pr_fileio_read_file(target, &b, &e), 0, "%s", e.msg);
    cr_assert_str_eq(pr_buf_cstr(&b), "precious\n");
    pr_buf_free(&b);
    free(target);
    free(r0);
    free(r1);
    free(script);
    free(ranks);
}

Test(collect, batch_job_id_of_a_fifo_log, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    /* Reading sbatch's job id from a FIFO planted as the log must not block. */
    char *fifo = pr_fileio_path_join(tmpdir, "fifo");
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    cr_assert_null(launch_batch_job_id(fifo));
    free(fifo);
}

Test(collect, batch_job_id, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    const char *cases[][2] = {{"123\n", "123"},
                              {"45;alpha\nmore\n", "45"},
                              {"sbatch: error: Batch job submission failed\n", NULL},
                              {"", NULL},
                              {"12x\n", NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *p = write_tmp("log", cases[i][0]);
        char *id = launch_batch_job_id(p);
        if (cases[i][1])
            cr_assert_str_eq(id, cases[i][1]);
        else
            cr_assert_null(id, "%s", id);
        free(id);
        free(p);
    }
}

/* ---- containers ---- */

static char *join(char **v)
{
    pr_buf b = PR_BUF_INIT;
    for (size_t i = 0; v && v[i]; i++)
        pr_buf_printf(&b, "%s%s", i ? " " : "", v[i]);
    return pr_buf_detach(&b);
}

Test(container, words)
{
    char *mounts[] = {"/data/imagenet:/imagenet", "/scratch", NULL};
    char *names[] = {"NCCL_DEBUG", "CUDA_VISIBLE_DEVICES", NULL};
    pr_container_spec sp = {
        PR_CT_DOCKER, "nvcr.io/nvidia/pytorch:24.01-py3", "/w", "/w/out", mounts, names};
    char **v = NULL;
    size_t n = 0;
    pr_err e;
    cr_assert_eq(container_words(&sp, &v, &n, &e), 0, "%s", e.msg);
    char *got = join(v);
    cr_assert_str_eq(got, "docker run --rm --gpus all --ipc=host -v /w:/w "
                          "-v /data/imagenet:/imagenet -v /scratch:/scratch -w /w "
                          "-e NCCL_DEBUG -e CUDA_VISIBLE_DEVICES "
                          "nvcr.io/nvidia/pytorch:24.01-py3");
    free(got);
    pr_fileio_strv_free(v);
    v = NULL;
    n = 0;
    sp.kind = PR_CT_APPTAINER;
    sp.out_dir = "/runs/a";
    cr_assert_eq(container_words(&sp, &v, &n, &e), 0, "%s", e.msg);
    got = join(v);
    cr_assert_str_eq(got, "apptainer exec --nv --bind /w,/runs/a,/data/imagenet:/imagenet,"
                          "/scratch --pwd /w docker://nvcr.io/nvidia/pytorch:24.01-py3");
    free(got);
    pr_fileio_strv_free(v);
    v = NULL;
    n = 0;
    sp.kind = PR_CT_PYXIS;
    sp.mounts = NULL;
    cr_assert_eq(container_words(&sp, &v, &n, &e), 0, "%s", e.msg);
    got = join(v);
    cr_assert_str_eq(got, "--container-image=nvcr.io#nvidia/pytorch:24.01-py3 "
                          "--container-mounts=/w:/w,/runs/a:/runs/a --container-workdir=/w");
    free(got);
    pr_fileio_strv_free(v);
    v = NULL;
    n = 0;
    char *bad[] = {"relative:/x", NULL};
    sp.mounts = bad;
    cr_assert_eq(container_words(&sp, &v, &n, &e), -1);
    cr_assert(strstr(e.msg, "relative:/x") != NULL, "%s", e.msg);
    pr_fileio_strv_free(v);
    v = NULL;
    n = 0;
    sp.kind = PR_CT_NONE;
    cr_assert_eq(container_words(&sp, &v, &n, &e), 0);
    cr_assert_null(v);
}

Test(container, image_refs)
{
    struct {
        pr_container_kind k;
        const char *in, *out;
    } t[] = {{PR_CT_APPTAINER, "nvcr.io/nvidia/pytorch:20.07-py3",
              "docker://nvcr.io/nvidia/pytorch:20.07-py3"},
             {PR_CT_APPTAINER, "/images/pt.sif", "/images/pt.sif"},
             {PR_CT_APPTAINER, "pt.sif", "pt.sif"},
             {PR_CT_APPTAINER, "oras://ghcr.io/x/y:1", "oras://ghcr.io/x/y:1"},
             {PR_CT_PYXIS, "nvcr.io/nvidia/pytorch:20.07-py3", "nvcr.io#nvidia/pytorch:20.07-py3"},
             {PR_CT_PYXIS, "localhost:5000/pt:1", "localhost:5000#pt:1"},
             {PR_CT_PYXIS, "pytorch/pytorch:2.3.0", "pytorch/pytorch:2.3.0"},
             {PR_CT_PYXIS, "ubuntu", "ubuntu"},
             {PR_CT_PYXIS, "nvcr.io#nvidia/pytorch:1", "nvcr.io#nvidia/pytorch:1"},
             {PR_CT_PYXIS, "/sqsh/pt.sqsh", "/sqsh/pt.sqsh"},
             {PR_CT_DOCKER, "nvcr.io/nvidia/pytorch:1", "nvcr.io/nvidia/pytorch:1"}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        char *got = container_image_ref(t[i].k, t[i].in);
        cr_assert_str_eq(got, t[i].out, "%s", t[i].in);
        free(got);
    }
}

Test(container, local_launcher_wraps_the_command, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(HEAD "\"command\": [\"python\", \"t.py\"], \"image\": \"img:1\", "
                                  "\"container\": \"docker\", " MATRIX(1, 2) "}");
    pr_launch_env le;
    pr_err e;
    cr_assert_eq(launch_env_init(&le, s, "local", NULL, &e), 0, "%s", e.msg);
    cr_assert_eq(le.container, PR_CT_DOCKER);
    pr_job job;
    cr_assert_eq(build(s, "local", &le, &job, &e), 0, "%s", e.msg);
    char *got = join(job.argv);
    cr_assert_str_eq(got, "docker run --rm --gpus all --ipc=host -v /w:/w -v /o:/o -w /w "
                          "-e CUDA_VISIBLE_DEVICES -e PERFREPRO_CASE -e PERFREPRO_LOG img:1 "
                          "python t.py");
    free(got);
    runner_job_free(&job);
    launch_env_free(&le);
    /* docker is one command on one node; pyxis is srun's. */
    cr_assert_eq(launch_env_init(&le, s, "mpirun", NULL, &e), -1);
    cr_assert(strstr(e.msg, "apptainer") != NULL, "%s", e.msg);
    pr_launch_opts o;
    memset(&o, 0, sizeof o);
    o.container = "pyxis";
    cr_assert_eq(launch_env_init(&le, s, "mpirun", &o, &e), -1);
    cr_assert(strstr(e.msg, "srun") != NULL, "%s", e.msg);
    o.container = "apptainer";
    o.ranks = "per_node";
    cr_assert_eq(launch_env_init(&le, s, "mpirun", &o, &e), 0, "%s", e.msg);
    cr_assert_eq(le.ranks, PR_RANKS_PER_NODE);
    launch_env_free(&le);
    o.ranks = "per_core";
    cr_assert_eq(launch_env_init(&le, s, "mpirun", &o, &e), -1);
    cr_assert(strstr(e.msg, "per_core") != NULL, "%s", e.msg);
    o.ranks = NULL;
    o.hosts = "a:2";
    cr_assert_eq(launch_env_init(&le, s, "slurm", &o, &e), -1);
    cr_assert(strstr(e.msg, "mpirun") != NULL, "%s", e.msg);
    pr_suite_free(s);
}

/* ---- suite and record keys ---- */

Test(schema, suite_keys, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_suite *s = load_suite(HEAD "\"command\": [\"x\"], " MATRIX(1, 1) "}");
    cr_assert_str_eq(s->ranks, "per_gpu");
    cr_assert_str_eq(s->container, "none");
    pr_suite_free(s);
    s = load_suite(HEAD "\"command\": [\"x\"], \"ranks\": \"per_node\", \"image\": \"i\", "
                        "\"container\": \"apptainer\", \"launcher\": \"slurm\", " MATRIX(1, 1) "}");
    cr_assert_str_eq(s->ranks, "per_node");
    cr_assert_str_eq(s->container, "apptainer");
    pr_suite_free(s);
    pr_err e;
    cr_assert_eq(
        suite_error(HEAD "\"command\": [\"x\"], \"container\": \"pyxis\", " MATRIX(1, 1) "}", &e),
        -1);
    cr_assert(strstr(e.msg, "container") != NULL && strstr(e.msg, "image") != NULL, "%s", e.msg);
    cr_assert_eq(
        suite_error(HEAD "\"command\": [\"x\"], \"ranks\": \"per_rank\", " MATRIX(1, 1) "}", &e),
        -1);
    cr_assert(strstr(e.msg, "ranks") != NULL, "%s", e.msg);
}

#define RECORD(launch)                                                                             \
    "{\"log_file\": \"logs/train_log/c\", \"model_name\": \"m\", \"mission_name\": \"x\", "        \
    "\"direction_id\": 0, \"run_mode\": \"mp\", \"index\": 1, \"gpu_num\": 2, "                    \
    "\"FINAL_RESULT\": 1.5, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"samples/s\", "                       \
    "\"perfrepro\": 1, \"model\": \"M\", \"framework\": \"F\", \"case\": \"c\", "                  \
    "\"precision\": \"fp32\", \"batch_size\": 1, \"nodes\": 1, \"gpus_per_node\": 2, "             \
    "\"repeat\": 1, \"origin\": \"measured\", \"launch\": " launch "}"

static int load_record(const char *text, pr_record *r, pr_err *e)
{
    char *p = write_tmp("rec.json", text);
    pr_record_init(r);
    int rc = pr_record_load(p, r, e);
    free(p);
    return rc;
}

Test(schema, record_launch, .init = mk_tmpdir, .fini = rm_tmpdir)
{
    pr_record r;
    pr_err e;
    cr_assert_eq(load_record(RECORD("{\"launcher\": \"slurm\", \"tasks\": 2, \"ranks\": "
                                    "\"per_gpu\", \"job_id\": \"123\", \"hosts\": [\"vm\"], "
                                    "\"container\": \"pyxis\", \"script\": "
                                    "\"logs/train_log/c.sbatch\"}"),
                             &r, &e),
                 0, "%s", e.msg);
    /* Written back the same, after "logs" and before "command". */
    char *s = pr_record_dumps(&r);
    cr_assert(strstr(s, "\"launch\": {\n  \"launcher\": \"slurm\",\n  \"tasks\": 2,") != NULL, "%s",
              s);
    char *p = write_tmp("again.json", s);
    pr_record r2;
    pr_record_init(&r2);
    cr_assert_eq(pr_record_load(p, &r2, &e), 0, "%s", e.msg);
    cr_assert(json_equal(r.launch, r2.launch));
    free(p);
    free(s);
    pr_record_clear(&r);
    pr_record_clear(&r2);
    struct {
        const char *launch, *msg;
    } bad[] = {{"{\"launcher\": \"ssh\"}", "unknown value"},
               {"{\"tasks\": 2}", "required"},
               {"{\"launcher\": \"mpirun\", \"hosts\": [\"10.0.0.1\"]}", "address"},
               {"{\"launcher\": \"mpirun\", \"hosts\": [\"fe80::1\"]}", "address"},
               {"{\"launcher\": \"mpirun\", \"host\": [\"a\"]}", "did you mean"},
               {"{\"launcher\": \"slurm\", \"job_id\": \"1 2\"}", "job id"},
               {"{\"launcher\": \"slurm\", \"script\": \"/abs\"}", "relative"},
               {"{\"launcher\": \"slurm\", \"tasks\": 0}", "integer"},
               {"[]", "object"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *text = pr_xasprintf(RECORD("%s"), bad[i].launch);
        cr_assert_eq(load_record(text, &r, &e), -1, "%s accepted", bad[i].launch);
        cr_assert(strstr(e.msg, bad[i].msg) != NULL, "%s: %s", bad[i].launch, e.msg);
        cr_assert(strstr(e.msg, "launch") != NULL, "%s", e.msg);
        pr_record_clear(&r);
        free(text);
    }
    cr_assert(pr_record_is_ip_address("192.168.0.1"));
    cr_assert(pr_record_is_ip_address("::1"));
    cr_assert_not(pr_record_is_ip_address("gpu01"));
    cr_assert_not(pr_record_is_ip_address("1.2.3"));
    cr_assert_not(pr_record_is_ip_address("256.1.1.1"));
}
