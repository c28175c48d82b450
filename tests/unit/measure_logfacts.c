/* measure/logfacts (through parse_logs, the path `parse` and `run` take),
 * logscan's file lines and offsets, and the record's log_facts check
 * (lib/recfacts): each argument dump format, versions, GPU, container,
 * command and dates, with their line numbers, from small snippets modelled
 * on the real logs and from the real logs of ../shared/fixtures
 * (PERFREPRO_SHARED overrides ../shared; those tests skip when it is
 * absent); hostile logs; malformed log_facts refused with the item named. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "1-facts/logfacts.h"
#include "1-facts/logscan.h"
#include "2-parse/parse.h"
#include "2-parse/rule.h"
#include "buf.h"
#include "jdoc.h"
#include "recfacts.h"
#include "record.h"
#include "testutil.h"

/* ======================================================================
 * Helpers
 * ====================================================================== */

static const char *shared_dir(void)
{
    const char *s = getenv("PERFREPRO_SHARED");
    return s && *s ? s : "../shared";
}

/* A rule that reads any log; whether the case has a value does not matter
 * to its facts. */
#define ANY_RULE "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\"}"

/* Parses logs[0..n) with rule; returns the case's log_facts (a new
 * reference the caller owns; an empty array when there are none) after
 * checking that they pass the record's check. */
static json_t *facts_of_logs(const char *rule_json, const char *const *logs, size_t n)
{
    pr_rule *rule = NULL;
    pr_err err;
    cr_assert_eq(rule_parse("<test>", rule_json, strlen(rule_json), &rule, &err), 0, "%s", err.msg);
    pr_parse_args args = {1, 0, 0, NULL};
    pr_parse_result res;
    parse_result_init(&res);
    cr_assert_eq(parse_logs(rule, logs, n, &args, &res, &err), 0, "%s", err.msg);
    json_t *facts = res.log_facts ? json_incref(res.log_facts) : json_array();
    parse_result_clear(&res);
    rule_free(rule);
    /* what measure writes, the loader takes */
    json_t *o = json_pack("{s:O}", "log_facts", facts);
    char *text = json_dumps(o, 0);
    pr_jdoc *doc = NULL;
    cr_assert_eq(pr_jdoc_parse("facts", text, strlen(text), &doc, &err), 0, "%s", err.msg);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_jdoc_jcur fc = pr_jdoc_jchild(&root, "log_facts");
    cr_assert_eq(pr_recfacts_check(&fc, &err), 0, "%s\n%s", err.msg, text);
    pr_jdoc_free(doc);
    free(text);
    json_decref(o);
    return facts;
}

/* The facts of one log written from data[0..len). */
static json_t *facts_of_data(const char *rule_json, const char *data, size_t len)
{
    char *dir = tmpdir();
    char *path = pr_fileio_path_join(dir, "log");
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
    const char *logs[] = {path};
    json_t *facts = facts_of_logs(rule_json, logs, 1);
    free(path);
    rm_rf(dir);
    free(dir);
    return facts;
}

static json_t *facts_of(const char *text)
{
    return facts_of_data(ANY_RULE, text, strlen(text));
}

/* The n-th (0-based) item with key, or NULL. */
static json_t *nth(json_t *facts, const char *key, size_t n)
{
    size_t i;
    json_t *it;
    json_array_foreach(facts, i, it)
    {
        if (strcmp(json_string_value(json_object_get(it, "key")), key) == 0 && n-- == 0)
            return it;
    }
    return NULL;
}

static size_t count(json_t *facts, const char *key)
{
    size_t n = 0, i;
    json_t *it;
    json_array_foreach(facts, i, it) n +=
        strcmp(json_string_value(json_object_get(it, "key")), key) == 0;
    return n;
}

/* The first item with key has this value and line. */
static void expect_fact(json_t *facts, const char *key, const char *value, long long line)
{
    json_t *it = nth(facts, key, 0);
    cr_assert_not_null(it, "no fact %s", key);
    cr_expect_str_eq(json_string_value(json_object_get(it, "value")), value, "%s", key);
    cr_expect_eq(json_integer_value(json_object_get(it, "line")), line, "%s: line %lld", key,
                 (long long)json_integer_value(json_object_get(it, "line")));
}

static void expect_no_fact(json_t *facts, const char *key)
{
    json_t *it = nth(facts, key, 0);
    cr_expect_null(it, "%s = %s", key, it ? json_string_value(json_object_get(it, "value")) : "");
}

/* ======================================================================
 * Argument dumps
 * ====================================================================== */

Test(logfacts, dllogger_parameters)
{
    json_t *f = facts_of(
        "Namespace(conv_init='fan_in', fused_se=True, num_classes=1000)\n"
        "Training process 0 affinity: {0, 1}\n"
        "DLL 2023-08-04 05:46:18.018259 - PARAMETER data : /imagenet  data_backend : dali-cpu  "
        "arch : resnet50  image_size : None  batch_size : 256  workspace : ./ \n"
        "DLL 2023-08-04 05:46:18.019415 - PARAMETER model.num_classes : 1000  model.trt : False \n"
        "DLL 2023-08-04 05:46:28.192913 - Epoch: 0 Iteration: 1  train.total_ips : 25.20 images/s\n"
        "DLL 2023-08-04 05:46:50.000000 - PARAMETER loss_scale : 262144.0 \n"
        "DLL 2023-08-04 05:47:00.000000 - PARAMETER loss_scale : 131072.0  batch_size : 128 \n");
    expect_fact(f, "args.format", "argparse", 1);
    expect_fact(f, "arg.conv_init", "'fan_in'", 1);
    cr_expect_str_eq(json_string_value(json_object_get(nth(f, "args.format", 1), "value")),
                     "dllogger");
    expect_fact(f, "arg.data", "/imagenet", 3);
    expect_fact(f, "arg.data_backend", "dali-cpu", 3);
    expect_fact(f, "arg.image_size", "None", 3);
    expect_fact(f, "arg.workspace", "./", 3);
    expect_fact(f, "arg.model.num_classes", "1000", 4);
    /* each key at its first line: dynamic loss scaling logs it again */
    expect_fact(f, "arg.loss_scale", "262144.0", 6);
    cr_expect_eq(count(f, "arg.loss_scale"), 1);
    expect_fact(f, "arg.batch_size", "256", 3);
    cr_expect_eq(count(f, "arg.batch_size"), 1);
    cr_expect_eq(count(f, "args.format"), 2);
    json_decref(f);
}

Test(logfacts, dllogger_json_and_namespace_in_a_parameter)
{
    json_t *f = facts_of(
        "DLLL {\"timestamp\": \"1690000000.1\", \"datetime\": \"2023-07-22 04:26:40.100000\", "
        "\"type\": \"LOG\", \"step\": \"PARAMETER\", \"data\": {\"batch_size\": 256, \"amp\": "
        "true, "
        "\"data_backend\": \"dali-gpu\", \"lr_steps\": [30, 60]}}\n"
        "DLL 2023-07-28 15:17:59.492369 - PARAMETER Config : [\"Namespace(amp=False, "
        "fp16=True, train_batch_size=96, input_dir='/workspace/data/')\"] \n"
        "DLL 2023-07-28 15:18:07.193491 - PARAMETER batch_size_per_gpu : 96 \n");
    expect_fact(f, "args.format", "dllogger", 1);
    expect_fact(f, "arg.batch_size", "256", 1);
    expect_fact(f, "arg.amp", "true", 1);
    expect_fact(f, "arg.data_backend", "dali-gpu", 1);
    expect_fact(f, "arg.lr_steps", "[30,60]", 1);
    expect_fact(f, "time.first", "2023-07-22T04:26:40.100000", 1);
    /* NVIDIA's BERT logs its argparse Namespace as a DLLogger parameter */
    expect_fact(f, "arg.train_batch_size", "96", 2);
    expect_fact(f, "arg.input_dir", "'/workspace/data/'", 2);
    expect_no_fact(f, "arg.Config");
    expect_fact(f, "arg.batch_size_per_gpu", "96", 3);
    json_decref(f);
}

Test(logfacts, argparse_values)
{
    json_t *f = facts_of(
        "warming up\n"
        "Namespace(adam_betas=[0.9, 0.997], arch='transformer_wmt_en_de_big_t2t', beam=4, "
        "bpe_codes=None, criterion=\"label_smoothed, cross\", fp16=False, lr=[0.000846], "
        "max_positions=(1024, 1024), max_tokens=5120, sep='a)b', nested={'a': [1, (2, 3)]})\n"
        "Namespace(arch='other', max_tokens=1)\n");
    expect_fact(f, "args.format", "argparse", 2);
    expect_fact(f, "arg.adam_betas", "[0.9, 0.997]", 2);
    expect_fact(f, "arg.arch", "'transformer_wmt_en_de_big_t2t'", 2);
    expect_fact(f, "arg.bpe_codes", "None", 2);
    expect_fact(f, "arg.criterion", "\"label_smoothed, cross\"", 2);
    expect_fact(f, "arg.fp16", "False", 2);
    expect_fact(f, "arg.max_positions", "(1024, 1024)", 2);
    expect_fact(f, "arg.max_tokens", "5120", 2);
    expect_fact(f, "arg.sep", "'a)b'", 2);
    expect_fact(f, "arg.nested", "{'a': [1, (2, 3)]}", 2);
    /* only the first dump counts */
    cr_expect_eq(count(f, "args.format"), 1);
    cr_expect_eq(count(f, "arg.arch"), 1);
    json_decref(f);
}

Test(logfacts, argparse_unterminated_and_lookalikes)
{
    json_t *f = facts_of("MyNamespace(a=1)\n"
                         "Namespace(a=1, b='unterminated\n"
                         "Namespace(a=1, b=[2,\n"
                         "see Namespace(x) for details\n"
                         "Namespace(lr=0.1)\n");
    /* a Namespace( not closed on its line is no dump; the next one is */
    expect_fact(f, "args.format", "argparse", 5);
    expect_fact(f, "arg.lr", "0.1", 5);
    expect_no_fact(f, "arg.a");
    expect_no_fact(f, "arg.x");
    json_decref(f);
}

static const char MMCV[] =
    "2023-08-03 02:16:02,952 - mmseg - INFO - Distributed training: False\n"
    "2023-08-03 02:16:03,216 - mmseg - INFO - Config:\n"
    "norm_cfg = dict(type='BN', requires_grad=True)\n"
    "model = dict(\n"
    "    type='EncoderDecoder',\n"
    "    backbone=dict(\n"
    "        type='HRNet',\n"
    "        extra=dict(\n"
    "            stage1=dict(\n"
    "                num_modules=1,\n"
    "                num_blocks=(4, ),\n"
    "                num_channels=(64, )))),\n"
    "    decode_head=dict(\n"
    "        in_channels=[18, 36, 72, 144],\n"
    "        loss_decode=dict(\n"
    "            type='CrossEntropyLoss', use_sigmoid=False, loss_weight=1.0)),\n"
    "    train_cfg=dict(),\n"
    "    test_cfg=dict(mode='whole'))\n"
    "# a comment\n"
    "img_norm_cfg = dict(\n"
    "    mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375], to_rgb=True)\n"
    "train_pipeline = [\n"
    "    dict(type='LoadImageFromFile'),\n"
    "    dict(\n"
    "        type='Normalize',\n"
    "        to_rgb=True),\n"
    "]\n"
    "data = dict(\n"
    "    samples_per_gpu=8,\n"
    "    workers_per_gpu=8,\n"
    "    train=dict(\n"
    "        type='CityscapesDataset',\n"
    "        pipeline=[\n"
    "            dict(type='LoadImageFromFile'),\n"
    "            dict(\n"
    "                type='Resize', img_scale=(2048, 1024)),\n"
    "        ]),\n"
    "    val=dict(type='CityscapesDataset', img_dir='leftImg8bit/val'))\n"
    "optimizer = dict(type='SGD', lr=0.01, momentum=0.9, weight_decay=0.0005)\n"
    "runner = dict(type='IterBasedRunner', max_iters=180)\n"
    "gpu_ids = range(0, 1)\n"
    "\n"
    "2023-08-03 02:16:03,216 - mmseg - INFO - Set random seed to 2109706238\n"
    "x = 1\n";

Test(logfacts, mmcv_config)
{
    json_t *f = facts_of(MMCV);
    expect_fact(f, "args.format", "mmcv", 2);
    expect_fact(f, "arg.norm_cfg", "dict(type='BN', requires_grad=True)", 3);
    expect_fact(f, "arg.model.type", "'EncoderDecoder'", 5);
    expect_fact(f, "arg.model.backbone.type", "'HRNet'", 7);
    expect_fact(f, "arg.model.backbone.extra.stage1.num_modules", "1", 10);
    expect_fact(f, "arg.model.backbone.extra.stage1.num_channels", "(64, )", 12);
    expect_fact(f, "arg.model.decode_head.in_channels", "[18, 36, 72, 144]", 14);
    expect_fact(f, "arg.model.decode_head.loss_decode.loss_weight", "1.0", 16);
    expect_fact(f, "arg.model.train_cfg", "dict()", 17);
    expect_fact(f, "arg.model.test_cfg", "dict(mode='whole')", 18);
    expect_fact(f, "arg.img_norm_cfg.std", "[58.395, 57.12, 57.375]", 21);
    expect_fact(f, "arg.img_norm_cfg.to_rgb", "True", 21);
    expect_fact(f, "arg.data.samples_per_gpu", "8", 29);
    expect_fact(f, "arg.data.train.type", "'CityscapesDataset'", 32);
    expect_fact(f, "arg.data.val", "dict(type='CityscapesDataset', img_dir='leftImg8bit/val')", 38);
    expect_fact(f, "arg.optimizer", "dict(type='SGD', lr=0.01, momentum=0.9, weight_decay=0.0005)",
                39);
    expect_fact(f, "arg.runner", "dict(type='IterBasedRunner', max_iters=180)", 40);
    expect_fact(f, "arg.gpu_ids", "range(0, 1)", 41);
    /* list contents are no arguments; the dump ends at the blank line */
    expect_no_fact(f, "arg.train_pipeline");
    expect_no_fact(f, "arg.type");
    expect_no_fact(f, "arg.data.train.pipeline");
    expect_no_fact(f, "arg.x");
    json_decref(f);
}

Test(logfacts, mmcv_config_broken_by_other_output)
{
    /* a line lost in the middle (another rank's output ran into it): the
     * dump ends rather than put items into the wrong dict */
    json_t *f = facts_of("2021-05-31 09:17:17,695 - mmseg - INFO - Config:\n"
                         "data = dict(\n"
                         "    samples_per_gpu=8,\n"
                         "    val=dict(\n"
                         "        type='CityscapesDataset',\n"
                         "       transforms=[\n"
                         "                dict(type='Normalize', mean=[1, 2]),\n"
                         "        ]),\n"
                         "    test=dict(type='X'))\n"
                         "optimizer = dict(type='SGD')\n");
    expect_fact(f, "arg.data.samples_per_gpu", "8", 3);
    expect_fact(f, "arg.data.val.type", "'CityscapesDataset'", 5);
    expect_no_fact(f, "arg.data.val.mean");
    expect_no_fact(f, "arg.data.test");
    expect_no_fact(f, "arg.optimizer");
    json_decref(f);
}

Test(logfacts, paddle_configuration_blocks)
{
    json_t *f = facts_of(
        "LAUNCH INFO 2022-06-02 16:16:52,155 args reset by env PADDLE_TRAINER_ENDPOINTS\n"
        "LAUNCH INFO 2022-06-02 16:16:52,156 -----------  Configuration  ----------------------\n"
        "LAUNCH INFO 2022-06-02 16:16:52,156 devices: None\n"
        "LAUNCH INFO 2022-06-02 16:16:52,156 host: 10.10.0.1\n"
        "LAUNCH INFO 2022-06-02 16:16:52,156 master: 10.10.0.1:60001\n"
        "LAUNCH INFO 2022-06-02 16:16:52,156 nnodes: 4\n"
        "LAUNCH INFO 2022-06-02 16:16:52,156 servers: \n"
        "LAUNCH INFO 2022-06-02 16:16:52,156 --------------------------------------------------\n"
        "-----------  Configuration Arguments -----------\n"
        "gpus: 0,1,2,3,4,5,6,7\n"
        "ips: 127.0.0.1\n"
        "training_script_args: ['--config', 'benchmark/deeplabv3p.yml', '--batch_size', '4']\n"
        "------------------------------------------------\n"
        "nnodes: 8\n");
    expect_fact(f, "args.format", "paddle-launch", 2);
    expect_fact(f, "arg.devices", "None", 3);
    /* records carry no machine address */
    expect_fact(f, "arg.host", "(address)", 4);
    expect_fact(f, "arg.master", "(address)", 5);
    expect_fact(f, "arg.nnodes", "4", 6);
    expect_fact(f, "arg.servers", "", 7);
    cr_expect_str_eq(json_string_value(json_object_get(nth(f, "args.format", 1), "value")),
                     "paddle");
    expect_fact(f, "arg.gpus", "0,1,2,3,4,5,6,7", 10);
    expect_fact(f, "arg.ips", "(address)", 11);
    expect_fact(f, "arg.training_script_args",
                "['--config', 'benchmark/deeplabv3p.yml', '--batch_size', '4']", 12);
    cr_expect_eq(count(f, "arg.nnodes"), 1);
    json_decref(f);
}

Test(logfacts, paddleclas_config)
{
    json_t *f = facts_of(
        "A new field (seed) detected!\n"
        "[2023/07/28 06:42:18] ppcls INFO: \n"
        "===========================================================\n"
        "[2023/07/28 06:42:18] ppcls INFO: Global : \n"
        "[2023/07/28 06:42:18] ppcls INFO:     epochs : 1\n"
        "[2023/07/28 06:42:18] ppcls INFO:     image_shape : [3, 224, 224]\n"
        "[2023/07/28 06:42:18] ppcls INFO: ------------------------------------------------------\n"
        "[2023/07/28 06:42:18] ppcls INFO: DataLoader : \n"
        "[2023/07/28 06:42:18] ppcls INFO:     Train : \n"
        "[2023/07/28 06:42:18] ppcls INFO:         sampler : \n"
        "[2023/07/28 06:42:18] ppcls INFO:             name : DistributedBatchSampler\n"
        "[2023/07/28 06:42:18] ppcls INFO:             batch_size : 256\n"
        "[2023/07/28 06:42:18] ppcls INFO:     Eval : \n"
        "[2023/07/28 06:42:18] ppcls INFO:         sampler : \n"
        "[2023/07/28 06:42:18] ppcls INFO:             batch_size : 64\n"
        "[2023/07/28 06:42:18] ppcls INFO: fuse_elewise_add_act_ops : True\n"
        "[2023-07-28 06:42:18,292] [    INFO] distributed_strategy.py:160 - initialized\n"
        "[2023/07/28 06:42:45] ppcls INFO: epoch:0   train step:10   ips: 394.81086 samples/sec.\n"
        "[2023/07/28 06:42:46] ppcls INFO: Global : \n"
        "[2023/07/28 06:42:46] ppcls INFO:     epochs : 2\n");
    expect_fact(f, "args.format", "ppcls", 4);
    expect_fact(f, "arg.Global.epochs", "1", 5);
    expect_fact(f, "arg.Global.image_shape", "[3, 224, 224]", 6);
    expect_fact(f, "arg.DataLoader.Train.sampler.name", "DistributedBatchSampler", 11);
    expect_fact(f, "arg.DataLoader.Train.sampler.batch_size", "256", 12);
    expect_fact(f, "arg.DataLoader.Eval.sampler.batch_size", "64", 15);
    expect_fact(f, "arg.fuse_elewise_add_act_ops", "True", 16);
    cr_expect_eq(count(f, "arg.Global.epochs"), 1);
    expect_fact(f, "time.first", "2023-07-28T06:42:18", 2);
    expect_fact(f, "time.last", "2023-07-28T06:42:46", 20);
    json_decref(f);
}

Test(logfacts, paddleseg_config_and_environment)
{
    json_t *f =
        facts_of("2022-02-05 04:25:38 [INFO]\t\n"
                 "------------Environment Information-------------\n"
                 "platform: Linux-3.10.0-1062.18.1.el7.x86_64-x86_64-with-Ubuntu-18.04-bionic\n"
                 "cudnn: 8.1\n"
                 "GPU: ['GPU 0: Tesla V100-SXM2-32GB', 'GPU 1: Tesla V100-SXM2-32GB']\n"
                 "PaddlePaddle: 2.5.0\n"
                 "------------------------------------------------\n"
                 "2022-02-05 04:25:38 [INFO]\t\n"
                 "---------------Config Information---------------\n"
                 "batch_size: 4\n"
                 "loss:\n"
                 "  coef:\n"
                 "  - 1\n"
                 "  types:\n"
                 "  - ignore_index: 255\n"
                 "    type: CrossEntropyLoss\n"
                 "model:\n"
                 "  backbone:\n"
                 "    multi_grid:\n"
                 "    - 1\n"
                 "    type: ResNet50_vd\n"
                 "  num_classes: 19\n"
                 "train_dataset:\n"
                 "  transforms:\n"
                 "  - crop_size:\n"
                 "    - 1024\n"
                 "    type: RandomPaddingCrop\n"
                 "  type: Cityscapes\n"
                 "------------------------------------------------\n"
                 "batch_size: 8\n");
    expect_fact(f, "cudnn.version", "8.1", 4);
    expect_fact(f, "gpu.name", "Tesla V100-SXM2-32GB", 5);
    expect_fact(f, "framework.name", "PaddlePaddle", 6);
    expect_fact(f, "framework.version", "2.5.0", 6);
    expect_fact(f, "args.format", "paddleseg", 9);
    expect_fact(f, "arg.batch_size", "4", 10);
    expect_fact(f, "arg.model.backbone.type", "ResNet50_vd", 21);
    expect_fact(f, "arg.model.num_classes", "19", 22);
    expect_fact(f, "arg.train_dataset.type", "Cityscapes", 28);
    /* what is inside list items is no argument */
    expect_no_fact(f, "arg.loss.types.type");
    expect_no_fact(f, "arg.train_dataset.transforms.type");
    expect_no_fact(f, "arg.type");
    cr_expect_eq(count(f, "arg.batch_size"), 1);
    json_decref(f);
}

Test(logfacts, pprint_dict)
{
    json_t *f = facts_of("{'alpha': 0.6,\n"
                         " 'batch_size': 5120,\n"
                         " 'dev_file': ['../dev.en',\n"
                         "              '../dev.de'],\n"
                         " 'eps': '1e-9',\n"
                         " 'special_token': ['<s>', '<e>', '<unk>'],\n"
                         " 'train_file': ['../train.en',\n"
                         "                '../train.de'],\n"
                         " 'weight_sharing': True}\n"
                         " 'after': 1,\n");
    expect_fact(f, "args.format", "pprint", 1);
    expect_fact(f, "arg.alpha", "0.6", 1);
    expect_fact(f, "arg.batch_size", "5120", 2);
    expect_fact(f, "arg.eps", "'1e-9'", 5);
    expect_fact(f, "arg.special_token", "['<s>', '<e>', '<unk>']", 6);
    expect_fact(f, "arg.weight_sharing", "True", 9);
    /* a value over several lines is left out */
    expect_no_fact(f, "arg.dev_file");
    expect_no_fact(f, "arg.train_file");
    expect_no_fact(f, "arg.after");
    json_decref(f);
}

Test(logfacts, tensorflow_flags)
{
    json_t *f = facts_of("INFO:tensorflow:***** Configuaration *****\n"
                         "INFO:tensorflow:***** Running training *****\n"
                         "INFO:tensorflow:  logtostderr: False\n"
                         "I0801 05:42:10.795311 140390701299520 run_pretraining.py:583]   x: 1\n"
                         "INFO:tensorflow:  train_batch_size: 96\n"
                         "INFO:tensorflow:  ?: False\n"
                         "INFO:tensorflow:  test_srcdir: \n"
                         "INFO:tensorflow:**************************\n"
                         "INFO:tensorflow:  Batch size = 96\n"
                         "INFO:tensorflow:  after: 1\n");
    expect_fact(f, "args.format", "tf-flags", 1);
    expect_fact(f, "arg.logtostderr", "False", 3);
    expect_fact(f, "arg.train_batch_size", "96", 5);
    expect_fact(f, "arg.test_srcdir", "", 7);
    expect_no_fact(f, "arg.x");
    expect_no_fact(f, "arg.after");
    /* a name that is no argument name is left out */
    cr_expect_eq(json_array_size(f), 4);
    json_decref(f);
}

/* ======================================================================
 * Container, GPU, versions, command
 * ====================================================================== */

Test(logfacts, ngc_banner_and_nvidia_smi)
{
    json_t *f =
        facts_of("\n"
                 "=============\n"
                 "== PyTorch ==\n"
                 "=============\n"
                 "\n"
                 "NVIDIA Release 21.03 (build 21060478)\n"
                 "PyTorch Version 1.9.0a0+df837d0\n"
                 "\n"
                 "Container image Copyright (c) 2021, NVIDIA CORPORATION.  All rights reserved.\n"
                 "Fri Mar 26 10:00:00 2021       \n"
                 "+-----------------------------------------------------------------------------+\n"
                 "| NVIDIA-SMI 460.32.03    Driver Version: 460.32.03    CUDA Version: 11.2     |\n"
                 "|-------------------------------+----------------------+----------------------+\n"
                 "| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
                 "|===============================+======================+======================|\n"
                 "|   0  Tesla V100-SXM2...  On   | 00000000:06:00.0 Off |                    0 |\n"
                 "|   1  Tesla V100-SXM2...  On   | 00000000:07:00.0 Off |                    0 |\n"
                 "gpu01:1234:1234 [0] NCCL INFO NCCL version 2.8.4+cuda11.2\n"
                 "gpu01:1234:1234 [0] NCCL INFO NCCL version 2.9.9+cuda11.2\n");
    expect_fact(f, "container.release", "21.03", 6);
    expect_fact(f, "container.build", "21060478", 6);
    expect_fact(f, "framework.name", "PyTorch", 7);
    expect_fact(f, "framework.version", "1.9.0a0+df837d0", 7);
    expect_fact(f, "gpu.driver", "460.32.03", 12);
    expect_fact(f, "gpu.driver_cuda", "11.2", 12);
    /* as nvidia-smi prints it: its table cuts long names */
    expect_fact(f, "gpu.name", "Tesla V100-SXM2...", 16);
    expect_fact(f, "nccl.version", "2.8.4+cuda11.2", 18);
    cr_expect_eq(count(f, "nccl.version"), 1);
    cr_expect_eq(count(f, "gpu.name"), 1);
    json_decref(f);
}

Test(logfacts, versions_paddle_and_mmcv)
{
    json_t *f = facts_of(
        "W0728 06:42:28.651091 17584 gpu_resources.cc:119] Please NOTE: device: 0, GPU Compute "
        "Capability: 7.0, Driver API Version: 12.0, Runtime API Version: 11.2\n"
        "W0728 06:42:28.651114 17584 gpu_resources.cc:149] device: 0, cuDNN Version: 8.2.\n"
        "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-5a2b2c1e-aaaa-bbbb-cccc-123456789abc)\n"
        "Container nvidia build =  13409399\n");
    expect_fact(f, "gpu.driver_cuda", "12.0", 1);
    expect_fact(f, "cuda.version", "11.2", 1);
    expect_fact(f, "cudnn.version", "8.2", 2);
    /* a GPU's UUID identifies the machine: left out */
    expect_fact(f, "gpu.name", "NVIDIA A100-SXM4-40GB", 3);
    expect_fact(f, "container.build", "13409399", 4);
    json_decref(f);

    f = facts_of("2023-08-03 02:16:02,951 - mmseg - INFO - Environment info:\n"
                 "------------------------------------------------------------\n"
                 "GPU 0,1,2,3,4,5,6,7: Tesla V100-SXM2-32GB\n"
                 "PyTorch: 1.6.0a0+9907a3e\n"
                 "PyTorch compiling details: PyTorch built with:\n"
                 "  - CUDA Runtime 11.0\n"
                 "  - CuDNN 8.0.1\n"
                 "  - Build settings: CUDA_VERSION=11.5, CUDNN_VERSION=8.3.0\n");
    expect_fact(f, "gpu.name", "Tesla V100-SXM2-32GB", 3);
    expect_fact(f, "framework.name", "PyTorch", 4);
    expect_fact(f, "framework.version", "1.6.0a0+9907a3e", 4);
    expect_fact(f, "cuda.version", "11.0", 6);
    expect_fact(f, "cudnn.version", "8.0.1", 7);
    json_decref(f);
}

Test(logfacts, command_lines)
{
    json_t *f = facts_of("+ batch_size=96\n"
                         "++ python get_mpi_rank.py\n"
                         "python: can't open file 'get_mpi_rank.py'\n"
                         "+ bash scripts/run_pretraining.sh 8448 6e-3 fp16 8\n"
                         "+ python3 -m torch.distributed.launch --nproc_per_node=8 "
                         "/workspace/bert/run_pretraining.py --master_addr=10.0.0.7\n"
                         "python -u train.py\n");
    expect_fact(f, "command",
                "python3 -m torch.distributed.launch --nproc_per_node=8 "
                "/workspace/bert/run_pretraining.py --master_addr=(address)",
                5);
    cr_expect_eq(count(f, "command"), 1);
    json_decref(f);

    f = facts_of("['/opt/conda/bin/python', '-u', './main.py', '--arch', 'resnet50', '-b', "
                 "'256']\n"
                 "['not', 'python']\n");
    expect_fact(f, "command",
                "['/opt/conda/bin/python', '-u', './main.py', '--arch', 'resnet50', '-b', '256']",
                1);
    json_decref(f);

    f = facts_of("torchrun --nproc_per_node=8 train.py --lr 0.1\n");
    expect_fact(f, "command", "torchrun --nproc_per_node=8 train.py --lr 0.1", 1);
    json_decref(f);
}

/* ======================================================================
 * Dates
 * ====================================================================== */

Test(logfacts, dates_as_printed)
{
    json_t *f =
        facts_of("I0826 15:10:09.627880 140405777909504 classifier_trainer.py:180] no year\n"
                 "[09:09:06] ../src/storage/storage.cc:196: no date\n"
                 "version 2023-13-01 12:00:00 is no date\n"
                 "2021-05-08 16:37:03,867-INFO: step_idx: 0\n"
                 "[2023/07/28 06:42:45] ppcls INFO: epoch:0\n"
                 "2020-08-26 15:10:08.207215: I tensorflow/stream_executor\n"
                 "event at 2023-07-26T12:00:00Z\n"
                 "event at 2023-07-26T12:00:00.5+08:00 local\n");
    expect_fact(f, "time.first", "2021-05-08T16:37:03.867", 4);
    /* no zone is guessed: a date is kept as the log printed it */
    expect_fact(f, "time.last", "2023-07-26T12:00:00.5+08:00", 8);
    json_decref(f);

    f = facts_of("a 2023-07-26 12:00:00Z\n"
                 "b 2023-07-26 12:00:01+0530\n");
    expect_fact(f, "time.first", "2023-07-26T12:00:00Z", 1);
    expect_fact(f, "time.last", "2023-07-26T12:00:01+0530", 2);
    json_decref(f);

    /* a date deep in a line is a message's, not the line's */
    f = facts_of("...................................................................... "
                 "2023-07-26 12:00:00\n");
    expect_no_fact(f, "time.first");
    json_decref(f);
}

Test(logfacts, mpirun_ranks_and_timestamps)
{
    const char *log =
        "Wed Jun  1 12:18:46 2022[1,0]<stdout>:['/opt/conda/bin/python', '-u', './main.py', "
        "'-b', '256']\n"
        "Wed Jun  1 12:18:47 2022[1,1]<stdout>:Namespace(rank=1)\n"
        "Wed Jun  1 12:18:47 2022[1,0]<stdout>:Namespace(rank=0)\n"
        "Wed Jun  1 12:18:57 2022[1,0]<stdout>:DLL 2022-06-01 12:18:57.901003 - PARAMETER "
        "batch_size : 256 \n"
        "Wed Jun  1 12:20:31 2022[1,1]<stdout>:DLL 2022-06-01 12:20:31.000000 - late\n";
    json_t *f = facts_of(log);
    expect_fact(f, "command", "['/opt/conda/bin/python', '-u', './main.py', '-b', '256']", 1);
    /* rank 0's lines (the rule's default); lines of other ranks are left out */
    expect_fact(f, "arg.rank", "0", 3);
    /* a line's own date first, else mpirun's */
    expect_fact(f, "time.first", "2022-06-01T12:18:46", 1);
    expect_fact(f, "time.last", "2022-06-01T12:18:57.901003", 4);
    json_decref(f);

    f = facts_of_data("{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", \"rank\": 1}", log,
                      strlen(log));
    expect_fact(f, "arg.rank", "1", 2);
    expect_fact(f, "time.first", "2022-06-01T12:18:47", 2);
    expect_fact(f, "time.last", "2022-06-01T12:20:31.000000", 5);
    expect_no_fact(f, "command");
    json_decref(f);
}

/* ======================================================================
 * Line numbers, logscan
 * ====================================================================== */

typedef struct seen_lines {
    pr_buf out;
} seen_lines;

static int record_line(const pr_logline *l, void *ctx, pr_err *err)
{
    (void)err;
    seen_lines *s = ctx;
    pr_buf_printf(&s->out, "%llu/%llu@%llu+%zu:%s|", l->lineno, l->fileline, l->offset,
                  l->prefix_len, l->text);
    return 0;
}

Test(logscan, file_lines_offsets_and_prefixes)
{
    char *dir = tmpdir();
    static const char text[] = "a\r\nbar 1\rbar 2\n[1,0]<stdout>:tagged\n\nlast";
    put(dir, "log", text);
    char *path = pr_fileio_path_join(dir, "log");
    seen_lines s = {PR_BUF_INIT};
    pr_logscan_stats st = {0, 0, 0};
    pr_err err;
    cr_assert_eq(logscan_path(path, record_line, &s, &st, &err), 0, "%s", err.msg);
    /* a bare \r ends a line (lineno) but not the file's line (fileline) */
    cr_expect_str_eq(pr_buf_cstr(&s.out), "1/1@0+0:a|2/2@3+0:bar 1|3/2@9+0:bar 2|"
                                          "4/3@15+14:tagged|5/4@36+0:|6/5@37+0:last|");
    pr_buf_free(&s.out);
    free(path);
    rm_rf(dir);
    free(dir);
}

Test(logscan, file_lines_across_reads_and_overlong_lines)
{
    /* a \r\n split by the 64 KiB read, and a line longer than the buffer */
    size_t n = PR_LOGSCAN_BUF + 200000;
    char *data = pr_xmalloc(n);
    memset(data, 'x', n);
    size_t at = PR_LOGSCAN_BUF - 1;
    memcpy(data, "one\n", 4);
    data[at] = '\r';
    data[at + 1] = '\n';
    memcpy(data + at + 2, "two\n", 4);
    memcpy(data + n - 6, "\nend\n", 5);
    data[n - 1] = 'z';
    char *dir = tmpdir();
    char *path = pr_fileio_path_join(dir, "log");
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, n, f);
    fclose(f);
    seen_lines s = {PR_BUF_INIT};
    pr_logscan_stats st = {0, 0, 0};
    pr_err err;
    cr_assert_eq(logscan_path(path, record_line, &s, &st, &err), 0, "%s", err.msg);
    /* line 2 (x... then \r\n) is overlong and skipped; "two" is line 3 */
    const char *o = pr_buf_cstr(&s.out);
    cr_expect(strstr(o, "1/1@0+0:one|") == o, "%.60s", o);
    char want[96];
    snprintf(want, sizeof want, "|3/3@%zu+0:two|", at + 2);
    cr_expect(strstr(o, want), "%s not in %.200s", want, o);
    snprintf(want, sizeof want, "|5/5@%zu+0:end|", n - 5);
    cr_expect(strstr(o, want), "%s not in %.300s", want, o);
    pr_buf_free(&s.out);
    free(data);
    free(path);
    rm_rf(dir);
    free(dir);
}

Test(logfacts, line_numbers_are_the_files)
{
    /* a progress bar redrawn with \r, ANSI colours and NULs: the line an
     * editor shows */
    static const char log[] = "Iteration:   0%|   | 0/10\rIteration:  10%|   | 1/10\r"
                              "Iteration:  20%|   | 2/10\n"
                              "\x1b[32m[2023-07-31 11:34:37,245] [    INFO]\x1b[0m - step 0\n"
                              "Name\0space(a=1)\n"
                              "Namespace(lr=\x1b[1m0.1\x1b[0m)\n";
    json_t *f = facts_of_data(ANY_RULE, log, sizeof log - 1);
    expect_fact(f, "time.first", "2023-07-31T11:34:37.245", 2);
    expect_fact(f, "arg.a", "1", 3);
    json_decref(f);
}

/* ======================================================================
 * Hostile logs, limits
 * ====================================================================== */

Test(logfacts, hostile_values)
{
    pr_buf b = PR_BUF_INIT;
    /* an overlong line is skipped; the next line keeps its number */
    for (int i = 0; i < PR_LOGSCAN_BUF + 10; i++)
        pr_buf_putc(&b, 'y');
    pr_buf_puts(&b, "\nNamespace(big='");
    for (int i = 0; i < 60000; i++)
        pr_buf_putc(&b, 'v');
    pr_buf_puts(&b, "', bad='\xff\xfe\xc3(', tab='a\tb', ok=1)\n");
    json_t *f = facts_of_data(ANY_RULE, b.data, b.len);
    json_t *big = nth(f, "arg.big", 0);
    cr_assert_not_null(big);
    cr_expect_eq(json_integer_value(json_object_get(big, "line")), 2);
    cr_expect_eq(json_string_length(json_object_get(big, "value")), PR_RECFACTS_VALUE_MAX);
    cr_expect(json_is_true(json_object_get(big, "cut")));
    /* bytes that are no UTF-8 become '?', control characters blanks */
    expect_fact(f, "arg.bad",
                "'??"
                "?('",
                2);
    expect_fact(f, "arg.tab", "'a b'", 2);
    expect_fact(f, "arg.ok", "1", 2);
    cr_expect_null(json_object_get(nth(f, "arg.ok", 0), "cut"));
    json_decref(f);
    pr_buf_free(&b);
}

Test(logfacts, item_limit)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, "2023-01-01 00:00:00 start\nNamespace(");
    for (int i = 0; i < 700; i++)
        pr_buf_printf(&b, "%sa%d=%d", i ? ", " : "", i, i);
    pr_buf_puts(&b, ")\n2023-01-01 00:00:09 end\n");
    json_t *f = facts_of_data(ANY_RULE, b.data, b.len);
    cr_expect_eq(json_array_size(f), PR_RECFACTS_MAX);
    expect_fact(f, "arg.a0", "0", 2);
    /* the dates are kept, and the record says how many facts were left out */
    expect_fact(f, "time.last", "2023-01-01T00:00:09", 3);
    expect_fact(f, "facts.truncated", "192", 2);
    expect_no_fact(f, "arg.a699");
    json_decref(f);
    pr_buf_free(&b);
}

Test(logfacts, deep_and_unterminated_dumps)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, "Config:\n");
    for (int i = 0; i < 80; i++) {
        for (int k = 0; k < 4 * i; k++)
            pr_buf_putc(&b, ' ');
        pr_buf_printf(&b, "%s%d%s", i ? "k" : "k", i, i ? "=dict(\n" : " = dict(\n");
    }
    pr_buf_puts(&b, "Namespace(after=1)\n");
    json_t *f = facts_of_data(ANY_RULE, b.data, b.len);
    /* the dump ends at LF_DEPTH levels; the rest of the log is read */
    expect_fact(f, "args.format", "mmcv", 1);
    expect_fact(f, "arg.after", "1", 82);
    json_decref(f);
    pr_buf_free(&b);

    f = facts_of("Config:\nmodel = dict(\n    type='X',\n    sub=[\n");
    expect_fact(f, "arg.model.type", "'X'", 3);
    json_decref(f);
    f = facts_of("{'a': 1,\n 'b': [1,\n");
    expect_fact(f, "arg.a", "1", 1);
    expect_no_fact(f, "arg.b");
    json_decref(f);
}

/* A log past the head window: an argument dump after its first MiB is not
 * read; the dates and the command of its last MiB are. */
Test(logfacts, head_and_tail_windows)
{
    pr_buf b = PR_BUF_INIT;
    pr_buf_puts(&b, "2023-01-01 00:00:00 start\n");
    while (b.len < PR_LOGFACTS_HEAD + 100)
        pr_buf_puts(&b, "filler filler filler filler filler filler filler filler\n");
    pr_buf_puts(&b, "Namespace(late=1)\nNCCL version 2.8.4\n");
    while (b.len < PR_LOGFACTS_HEAD + 3 * PR_LOGFACTS_TAIL)
        pr_buf_puts(&b, "filler filler filler filler filler filler filler filler\n");
    pr_buf_puts(&b, "2023-01-01 00:10:00 middle\n");
    while (b.len < PR_LOGFACTS_HEAD + 5 * PR_LOGFACTS_TAIL)
        pr_buf_puts(&b, "filler filler filler filler filler filler filler filler\n");
    pr_buf_puts(&b, "2023-01-01 01:00:00 end\npython -u train.py --epochs 1\n");
    json_t *f = facts_of_data(ANY_RULE, b.data, b.len);
    expect_fact(f, "time.first", "2023-01-01T00:00:00", 1);
    json_t *last = nth(f, "time.last", 0);
    cr_assert_not_null(last);
    cr_expect_str_eq(json_string_value(json_object_get(last, "value")), "2023-01-01T01:00:00");
    cr_expect_str_eq(json_string_value(json_object_get(nth(f, "command", 0), "value")),
                     "python -u train.py --epochs 1");
    expect_no_fact(f, "arg.late");
    expect_no_fact(f, "nccl.version");
    json_decref(f);
    pr_buf_free(&b);
}

/* ======================================================================
 * Several logs
 * ====================================================================== */

Test(logfacts, runs_and_parts)
{
    char *dir = tmpdir();
    put(dir, "a", "2023-01-01 00:00:00 a\nNamespace(run=1)\nips: 1.0\n");
    put(dir, "b", "2023-02-01 00:00:00 b\nNamespace(run=2)\nNCCL version 2.8.4\nips: 2.0\n");
    char *a = pr_fileio_path_join(dir, "a"), *b = pr_fileio_path_join(dir, "b");
    const char *logs[] = {a, b};
    /* runs: the first run's log */
    json_t *f = facts_of_logs(ANY_RULE, logs, 2);
    expect_fact(f, "arg.run", "1", 2);
    expect_fact(f, "time.last", "2023-01-01T00:00:00", 1);
    expect_no_fact(f, "nccl.version");
    json_decref(f);
    /* parts: one log; a fact of the second part says "file": 1 */
    f = facts_of_logs(
        "{\"profile\": \"paddle-ips\", \"scope\": \"per_card\", \"files\": \"parts\"}", logs, 2);
    expect_fact(f, "arg.run", "1", 2);
    cr_expect_eq(count(f, "arg.run"), 1);
    json_t *n = nth(f, "nccl.version", 0);
    cr_assert_not_null(n);
    cr_expect_eq(json_integer_value(json_object_get(n, "line")), 3);
    cr_expect_eq(json_integer_value(json_object_get(n, "file")), 1);
    json_t *last = nth(f, "time.last", 0);
    cr_expect_str_eq(json_string_value(json_object_get(last, "value")), "2023-02-01T00:00:00");
    cr_expect_eq(json_integer_value(json_object_get(last, "file")), 1);
    cr_expect_null(json_object_get(nth(f, "time.first", 0), "file"));
    json_decref(f);
    free(a);
    free(b);
    rm_rf(dir);
    free(dir);
}

/* A log that states nothing gives a record without log_facts. */
Test(logfacts, nothing_stated)
{
    char *dir = tmpdir();
    put(dir, "log", "ips: 1.0\nips: 2.0\n");
    char *path = pr_fileio_path_join(dir, "log");
    pr_rule *rule = NULL;
    pr_err err;
    cr_assert_eq(rule_parse("<t>", ANY_RULE, strlen(ANY_RULE), &rule, &err), 0);
    const char *logs[] = {path};
    pr_parse_args args = {1, 0, 0, NULL};
    pr_parse_result res;
    parse_result_init(&res);
    cr_assert_eq(parse_logs(rule, logs, 1, &args, &res, &err), 0);
    cr_expect_null(res.log_facts);
    pr_record rec;
    pr_record_init(&rec);
    parse_to_record(rule, &res, &rec);
    json_t *o = pr_record_to_json(&rec);
    cr_expect_null(json_object_get(o, "log_facts"));
    json_decref(o);
    pr_record_clear(&rec);
    rule_free(rule);
    free(path);
    rm_rf(dir);
    free(dir);
}

/* ======================================================================
 * Real logs (../shared/fixtures)
 * ====================================================================== */

static json_t *fixture_facts(const char *rel)
{
    char *path = pr_xasprintf("%s/fixtures/logs/%s", shared_dir(), rel);
    if (access(path, R_OK) != 0) {
        free(path);
        return NULL;
    }
    const char *logs[] = {path};
    json_t *f = facts_of_logs(ANY_RULE, logs, 1);
    free(path);
    return f;
}

Test(fixtures, ngc_pytorch_resnet50)
{
    json_t *f = fixture_facts("dllogger-stdout/pytorch_gpu1_fp32_bs256.txt");
    if (!f)
        cr_skip_test("%s/fixtures not available", shared_dir());
    expect_fact(f, "args.format", "argparse", 1);
    expect_fact(f, "arg.conv_init", "'fan_in'", 1);
    expect_fact(f, "arg.arch", "resnet50", 3);
    expect_fact(f, "arg.batch_size", "256", 3);
    expect_fact(f, "arg.data_backend", "dali-cpu", 3);
    expect_fact(f, "arg.training_only", "True", 3);
    expect_fact(f, "arg.print_freq", "1", 3);
    expect_fact(f, "arg.epochs", "1", 3);
    expect_fact(f, "arg.prof", "100", 3);
    expect_fact(f, "arg.amp", "False", 3);
    expect_fact(f, "arg.model.num_classes", "1000", 4);
    expect_fact(f, "time.first", "2023-08-04T05:46:18.018259", 3);
    expect_fact(f, "time.last", "2023-08-04T05:47:42.970893", 112);
    json_decref(f);
}

Test(fixtures, ngc_pytorch_bert)
{
    json_t *f =
        fixture_facts("dllogger-stdout/"
                      "bert_base_lamb_pretraining.pyt_bert_pretraining_phase1_fp32_bs96_gpu1.log");
    if (!f)
        cr_skip_test("%s/fixtures not available", shared_dir());
    expect_fact(f, "container.build", "29224839", 15);
    json_t *c = nth(f, "command", 0);
    cr_assert_not_null(c);
    cr_expect_eq(json_integer_value(json_object_get(c, "line")), 20);
    cr_expect(strncmp(json_string_value(json_object_get(c, "value")),
                      "python3 -m torch.distributed.launch --nproc_per_node=1 ", 55) == 0);
    expect_fact(f, "arg.train_batch_size", "96", 22);
    expect_fact(f, "arg.fp16", "False", 22);
    json_decref(f);
}

Test(fixtures, mmseg_hrnet)
{
    json_t *f = fixture_facts("mmseg/hrnet_torch_bs8_fp32_gpu1");
    if (!f)
        cr_skip_test("%s/fixtures not available", shared_dir());
    expect_fact(f, "gpu.name", "Tesla V100-SXM2-32GB", 12);
    expect_fact(f, "framework.version", "1.11.0a0+b6df043", 16);
    expect_fact(f, "cuda.version", "11.5", 26);
    expect_fact(f, "cudnn.version", "8.3", 28);
    expect_fact(f, "args.format", "mmcv", 41);
    expect_fact(f, "arg.data.samples_per_gpu", "8", 132);
    expect_fact(f, "arg.runner", "dict(type='IterBasedRunner', max_iters=180)", 213);
    expect_fact(f, "time.first", "2023-08-03T02:16:02.914", 5);
    json_decref(f);
}

Test(fixtures, paddle_logs)
{
    json_t *f = fixture_facts("paddle-ips/PaddleClas_ResNet50_bs256_fp32_DP_N1C1_log");
    if (!f)
        cr_skip_test("%s/fixtures not available", shared_dir());
    expect_fact(f, "args.format", "ppcls", 15);
    expect_fact(f, "arg.DataLoader.Train.sampler.batch_size", "256", 76);
    expect_fact(f, "cuda.version", "11.2", 148);
    expect_fact(f, "cudnn.version", "8.2", 149);
    json_decref(f);

    f = fixture_facts("paddle-ips/PaddleNLP_bert_base_seqlen128_bs96_fp32_DP_N1C1_log");
    cr_assert_not_null(f);
    expect_fact(f, "arg.batch_size", "96", 2);
    expect_fact(f, "arg.use_amp", "False", 2);
    json_decref(f);

    f = fixture_facts("paddle-ips/PaddleSeg_fcn_hrnetw18_bs8_fp32_DP_N1C1_log");
    cr_assert_not_null(f);
    expect_fact(f, "args.format", "paddleseg", 20);
    expect_fact(f, "framework.version", "2.5.0", 16);
    json_decref(f);
}

Test(fixtures, mxnet_under_mpirun)
{
    json_t *f = fixture_facts("mxnet-horovod/mxnet_gpu1_fp32_bs128.txt");
    if (!f)
        cr_skip_test("%s/fixtures not available", shared_dir());
    expect_fact(f, "args.format", "dllogger", 1);
    expect_fact(f, "arg.kv_store", "horovod", 1);
    expect_fact(f, "arg.dtype", "float32", 1);
    json_decref(f);
}

/* ======================================================================
 * The record's check
 * ====================================================================== */

static const char RECORD_HEAD[] =
    "{\"log_file\": \"logs/train_log/c\", \"model_name\": \"c\", \"mission_name\": \"\",\n"
    " \"direction_id\": 0, \"run_mode\": \"sp\", \"index\": 1, \"gpu_num\": 1,\n"
    " \"FINAL_RESULT\": 1.5, \"JOB_FAIL_FLAG\": 0, \"UNIT\": \"samples/s\", \"perfrepro\": 1,\n"
    " \"model\": \"M\", \"framework\": \"F\", \"case\": \"c\", \"precision\": \"fp32\",\n"
    " \"batch_size\": 1, \"nodes\": 1, \"gpus_per_node\": 1, \"repeat\": 1,\n"
    " \"origin\": \"parsed\",\n"
    " \"log_facts\": [\n";

/* Loads a record whose log_facts are the items given (one per line, from
 * line 8 of the text); returns pr_record_from_json's status with err. */
static int load_facts(const char *items, pr_err *err)
{
    char *text = pr_xasprintf("%s%s]}\n", RECORD_HEAD, items);
    pr_jdoc *doc = NULL;
    cr_assert_eq(pr_jdoc_parse("r.json", text, strlen(text), &doc, err), 0, "%s", err->msg);
    pr_jdoc_jcur root = pr_jdoc_root(doc);
    pr_record r;
    pr_record_init(&r);
    int rc = pr_record_from_json(&root, &r, err);
    pr_record_clear(&r);
    pr_jdoc_free(doc);
    free(text);
    return rc;
}

#define OK3                                                                                        \
    "  {\"key\": \"args.format\", \"value\": \"argparse\", \"line\": 1},\n"                        \
    "  {\"key\": \"arg.lr\", \"value\": \"0.1\", \"line\": 1},\n"                                  \
    "  {\"key\": \"time.first\", \"value\": \"2023-01-01T00:00:00.5\", \"line\": 2},\n"

static void expect_refused(const char *item, const char *msg)
{
    pr_err err;
    char *items = pr_xasprintf(OK3 "%s", item);
    cr_expect_eq(load_facts(items, &err), -1, "accepted: %s", item);
    cr_expect_str_eq(err.msg, msg);
    free(items);
}

Test(record_facts, accepted)
{
    pr_err err;
    cr_expect_eq(load_facts(OK3 "  {\"key\": \"command\", \"value\": \"python x.py\", \"line\": 3,"
                                " \"file\": 1, \"cut\": true}\n",
                            &err),
                 0, "%s", err.msg);
    cr_expect_eq(load_facts("", &err), 0, "%s", err.msg);
}

Test(record_facts, refused)
{
    expect_refused("  {\"key\": \"arg.x\", \"value\": \"1\", \"line\": 0}\n",
                   "r.json:11:42: log_facts[3].line: 0 is out of range [1, 9007199254740992]");
    expect_refused("  {\"key\": \"arg.x\", \"value\": \"1\", \"line\": \"3\"}\n",
                   "r.json:11:42: log_facts[3].line: expected an integer");
    expect_refused("  {\"key\": \"arg.x\", \"value\": \"1\"}\n",
                   "r.json:11:3: log_facts[3].line: missing required key \"line\"");
    expect_refused("  {\"key\": \"arg.x\", \"value\": \"1\", \"line\": 3, \"lines\": 3}\n",
                   "r.json:11:54: log_facts[3].lines: unknown key \"lines\" (did you mean "
                   "\"line\"?)");
    expect_refused("  {\"key\": \"arg.a b\", \"value\": \"1\", \"line\": 3}\n",
                   "r.json:11:11: log_facts[3].key: unknown key \"arg.a b\" (expected "
                   "arg.<name>, the name of [A-Za-z0-9_.+-] and at most 128 bytes with "
                   "\"arg.\", or one of: args.format, command, container.release, "
                   "container.build, framework.name, framework.version, gpu.name, gpu.driver, "
                   "gpu.driver_cuda, cuda.version, cudnn.version, nccl.version, time.first, "
                   "time.last, facts.truncated)");
    expect_refused("  {\"key\": \"arg.x\", \"value\": \"1\", \"line\": 1}\n",
                   "r.json:11:42: log_facts[3].line: not in log order: file 0 line 1 after "
                   "file 0 line 2");
    expect_refused("  {\"key\": \"time.last\", \"value\": \"2023-01-01 00:00:00\", \"line\": 3}\n",
                   "r.json:11:33: log_facts[3].value: \"2023-01-01 00:00:00\" is not a date and "
                   "time as YYYY-MM-DDThh:mm:ss[.f][zone]");
    expect_refused("  {\"key\": \"args.format\", \"value\": \"yaml\", \"line\": 3}\n",
                   "r.json:11:35: log_facts[3].value: unknown argument dump format \"yaml\" "
                   "(expected one of: dllogger, argparse, mmcv, paddle, paddle-launch, ppcls, "
                   "paddleseg, pprint, tf-flags)");
    expect_refused("  {\"key\": \"arg.master\", \"value\": \"10.0.0.1:6000\", \"line\": 3}\n",
                   "r.json:11:34: log_facts[3].value: holds a machine address: records carry "
                   "none (measure writes \"(address)\" in its place)");
    expect_refused("  {\"key\": \"arg.x\", \"value\": \"a\\u0001b\", \"line\": 3}\n",
                   "r.json:11:29: log_facts[3].value: a control character at byte 1");
    expect_refused("  {\"key\": \"arg.x\", \"value\": \"1\", \"line\": 3, \"cut\": false}\n",
                   "r.json:11:52: log_facts[3].cut: only true (a value that was not cut has no "
                   "\"cut\")");
    expect_refused("  {\"key\": \"facts.truncated\", \"value\": \"0\", \"line\": 3}\n",
                   "r.json:11:39: log_facts[3].value: expected the number of facts left out "
                   "(digits)");
    expect_refused("  {\"key\": \"facts.truncated\", \"value\": \"2\", \"line\": 3},\n"
                   "  {\"key\": \"facts.truncated\", \"value\": \"2\", \"line\": 3}\n",
                   "r.json:12:3: log_facts[4]: a second \"facts.truncated\"");
    expect_refused("  {\"key\": \"arg.x\", \"value\": \"1\", \"line\": 3, \"file\": 0}\n",
                   "r.json:11:53: log_facts[3].file: 0 is out of range [1, 65535]");
    expect_refused("  7\n", "r.json:11:3: log_facts[3]: expected an object");
}

Test(record_facts, value_limits)
{
    pr_buf v = PR_BUF_INIT;
    for (int i = 0; i <= PR_RECFACTS_VALUE_MAX; i++)
        pr_buf_putc(&v, 'a');
    char *item = pr_xasprintf("  {\"key\": \"arg.x\", \"value\": \"%s\", \"line\": 3}\n", v.data);
    expect_refused(item, "r.json:11:29: log_facts[3].value: 513 bytes: at most 512 (a longer "
                         "value is cut and marked \"cut\": true)");
    free(item);
    /* a command may be longer */
    item = pr_xasprintf("  {\"key\": \"command\", \"value\": \"%s\", \"line\": 3}\n", v.data);
    pr_err err;
    char *items = pr_xasprintf(OK3 "%s", item);
    cr_expect_eq(load_facts(items, &err), 0, "%s", err.msg);
    free(items);
    free(item);
    pr_buf_free(&v);

    pr_buf many = PR_BUF_INIT;
    for (int i = 0; i <= PR_RECFACTS_MAX; i++)
        pr_buf_printf(&many, "%s  {\"key\": \"arg.a%d\", \"value\": \"1\", \"line\": 3}\n",
                      i ? "," : "", i);
    cr_expect_eq(load_facts(many.data, &err), -1);
    cr_expect_str_eq(err.msg, "r.json:7:15: log_facts: 513 items: at most 512");
    pr_buf_free(&many);
}

/* pr_record_check (what `parse --out` and `run` write) checks them too. */
Test(record_facts, record_check)
{
    pr_record r;
    pr_record_init(&r);
    r.log_file = pr_xstrdup("logs/train_log/c");
    r.model_name = pr_xstrdup("c");
    r.mission_name = pr_xstrdup("");
    r.unit = pr_xstrdup("samples/s");
    r.model = pr_xstrdup("M");
    r.framework = pr_xstrdup("F");
    r.case_name = pr_xstrdup("c");
    r.precision = pr_xstrdup("fp32");
    r.origin = pr_xstrdup("parsed");
    r.final_result = 1;
    r.log_facts = json_pack("[{s:s,s:s,s:i},{s:s,s:s,s:i}]", "key", "arg.a", "value", "1", "line",
                            5, "key", "arg.b", "value", "2", "line", 4);
    pr_err err;
    cr_expect_eq(pr_record_check(&r, &err), -1);
    cr_expect_str_eq(err.msg, "log_facts:1:86: log_facts[1].line: not in log order: file 0 line "
                              "4 after file 0 line 5");
    json_decref(r.log_facts);
    r.log_facts = json_pack("[{s:s,s:s,s:i}]", "key", "arg.a", "value", "1", "line", 5);
    cr_expect_eq(pr_record_check(&r, &err), 0, "%s", err.msg);
    char *text = pr_record_dumps(&r);
    cr_expect(strstr(text, "\"log_facts\": ["), "%s", text);
    free(text);
    pr_record_clear(&r);
}

Test(record_facts, address_finder)
{
    size_t len;
    cr_expect_eq(pr_recfacts_find_ipv4("host: 10.10.0.1", 15, &len), 6);
    cr_expect_eq(len, 9);
    cr_expect_eq(pr_recfacts_find_ipv4("x 10.10.0.1:60001,", 18, &len), 2);
    cr_expect_eq(len, 15);
    cr_expect_eq(pr_recfacts_find_ipv4("at 10.0.0.1.", 12, &len), 3);
    cr_expect_eq(pr_recfacts_find_ipv4("cuda12.0.1.011", 14, &len), -1);
    cr_expect_eq(pr_recfacts_find_ipv4("1.2.3.4.5", 9, &len), -1);
    cr_expect_eq(pr_recfacts_find_ipv4("256.1.1.1", 9, &len), -1);
    cr_expect_eq(pr_recfacts_find_ipv4("v1.2.3.4", 8, &len), -1);
    cr_expect_eq(pr_recfacts_find_ipv4("1.2.3", 5, &len), -1);
    cr_expect(pr_recfacts_is_time("2023-01-01T00:00:00"));
    cr_expect(pr_recfacts_is_time("2023-01-01T00:00:00.123456789+08:00"));
    cr_expect_not(pr_recfacts_is_time("2023-01-01T00:00:00.1234567890"));
    cr_expect_not(pr_recfacts_is_time("2023-01-01T00:00:00 "));
}
