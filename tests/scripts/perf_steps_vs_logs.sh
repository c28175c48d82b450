#!/bin/sh
# The suites of the Perf run sets (scripts/perf-logs/suites/RUN.json, one per
# run folder of the shipped manifests, scripts/perf-logs/SHIPPED) against the logs behind the figures
# (../shared/perf, the PaddlePaddle/Perf snapshot):
#   - every run folder has its suite (a file, not a link), perfrepro-measure
#     loads and dry-runs it, and its cases are exactly the folder's cases
#     (names, platform, model, framework, unit, parse rule per case);
#   - for every case, the dry run's command is compared with the argument
#     dumps of the case's log, parsed here: DLLogger PARAMETER lines,
#     argparse Namespace(...), PaddleClas and PaddleSeg config dumps, absl
#     flags, Paddle's parameter dict, mmcv config dumps, set -x traces and
#     the command lines the logs echo.  Option names meet dump keys after
#     dashes and underscores are normalised, or through the per-framework
#     alias table below; config files the steps copy and edit (cp + sed) are
#     read as their original plus the edits.  Compared: every option whose
#     key the log prints (batch size, iterations/epochs/steps, data backend,
#     sequence length, ...) and the precision the log shows (AMP on/off, AMP
#     level O1/O2, dtype) against the case's;
#   - a difference passes only when scripts/perf-logs/suites/KNOWN-DIFFERENCES.tsv
#     lists it (run, case, option, log value, suite value, reason); a listed
#     difference that no longer occurs fails too;
#   - the steps are word lists without shell glue, interactive containers,
#     clones or unpinned pip installs, and each description is {zh, en} with
#     one language each;
#   - scripts/perf-logs/suites/ENVIRONMENT-GROUPS.tsv names, per run folder,
#     README environment groups printed in that README.
# Ends with "perf_steps_vs_logs: N commands checked, M options compared, K
# known differences".  Skipped (77) without ../shared/perf or python3.
. tests/scripts/lib/preamble.sh
PERF="${PERF_DIR:-${PERFREPRO_SHARED:-../shared}/perf}"
need_bins MEASURE
[ -f "$PERF/SOURCE.md" ] || { echo "no PaddlePaddle/Perf snapshot at $PERF: nothing to compare the suites with"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed"; exit 77; }
# Not exec: the shell waits, exits with python's status and removes $tmp.
python3 - "$MEASURE" "$PERF" "$tmp" <<'PYEOF'
import ast
import json
import os
import re
import shlex
import subprocess
import sys

MEASURE, PERF, TMP = sys.argv[1:4]
VERBOSE = os.environ.get('PERF_STEPS_VERBOSE') == '1'
SUITES = 'scripts/perf-logs/suites'
failures = []


def fail(msg):
    failures.append(msg)


# ---------------------------------------------------------------- manifests
def shipped_manifests():
    """The manifests of the shipped data (scripts/perf-logs/SHIPPED): a user's
    own manifest beside them is not the shipped data's."""
    with open('scripts/perf-logs/SHIPPED', encoding='utf-8') as fh:
        return [l.strip() for l in fh if l.strip() and not l.startswith('#')]


def node_count(nodes, gpus, platform):
    """A manifest's nodes field: a count, or "-" (docs/import.md): GPUs over
    the platform's devices per node, one node when they fit in one."""
    if nodes != '-':
        return int(nodes)
    with open('data/platforms/%s.json' % platform, encoding='utf-8') as fh:
        per_node = json.load(fh).get('device', {}).get('per_node') or gpus
    return 1 if gpus <= per_node else gpus // per_node


runs = {}
for name in shipped_manifests():
    for line in open(os.path.join('scripts/perf-logs', name), encoding='utf-8'):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        f = line.split('\t')
        if f[0] in ('source', 'mission', 'table', 'env', 'published', 'platform'):
            continue  # not a log line (docs/import.md)
        runs.setdefault(f[0], []).append(dict(
            case=f[1], model=f[2], framework=f[3], platform=f[4], precision=f[5], nodes=node_count(f[6], int(f[7]), f[4]),
            gpus=int(f[7]), batch_size=int(f[8]), unit=f[10], rule=f[11], logs=f[13:]))


def norm_key(k):
    return k.lstrip('-').replace('-', '_')


# ------------------------------------------------------------- log parsing
TAG = re.compile(r'^(?:\w{3} \w{3} +\d+ [\d:]+ \d{4})?\[\d+,\d+\]<std(?:out|err)>:')
ANSI = re.compile(r'\x1b\[[0-9;]*m')


def log_lines(path):
    with open(path, 'rb') as fh:
        text = fh.read().decode('utf-8', 'replace')
    out = []
    for line in text.splitlines():
        line = ANSI.sub('', TAG.sub('', line))
        out.append(line)
    return out


def argv_options(argv):
    """Options of an argv: {normalised name: [value words]} ([] for a flag)."""
    opts, i = {}, 0
    while i < len(argv):
        w = argv[i]
        if w.startswith('-') and len(w) > 1 and not re.match(r'^-\d', w):
            if '=' in w and w.startswith('--'):
                k, v = w.split('=', 1)
                opts[norm_key(k)] = [v]
                i += 1
                continue
            vals, j = [], i + 1
            while j < len(argv) and not (argv[j].startswith('-') and len(argv[j]) > 1 and not re.match(r'^-\d', argv[j])):
                vals.append(argv[j])
                j += 1
            k = norm_key(w)
            if k in ('o', 'override'):
                for v in vals[:1]:
                    if '=' in v:
                        kk, vv = v.split('=', 1)
                        opts[kk] = [vv]
                i = j if not vals else i + 2
                continue
            opts[k] = vals
            i = j
        else:
            i += 1
    return opts


def dump(path):
    """Every key=value the log prints about its configuration.  Structured
    dumps (what the program used) override the command lines it echoes."""
    lines = log_lines(path)
    echoed, d = {}, {}
    text = '\n'.join(lines)
    for line in lines:
        s = line.strip()
        # Command lines the logs echo.
        m = re.search(r"(?:^|\s)(?:\+ )?(python3?(?:\.\d)? .*(?:train\.py|run_pretrain(?:ing)?\.py|main\.py).*)$", s)
        if m and 'Namespace(' not in s and 'PARAMETER' not in s:
            try:
                echoed.update({k: v for k, v in argv_options(shlex.split(m.group(1))).items()})
            except ValueError:
                pass
        m = re.match(r"^\[('[^']*'(?:, '[^']*')*)\]$", s)
        if m:
            echoed.update(argv_options(ast.literal_eval('[' + m.group(1) + ']')))
        m = re.search(r"training_script_args: (\[.*\])$", s)
        if m:
            try:
                echoed.update(argv_options(ast.literal_eval(m.group(1))))
            except (ValueError, SyntaxError):
                pass
        m = re.search(r"training_script: (\S+)$", s)
        if m:
            echoed['training_script'] = [m.group(1)]
        # set -x traces: "+ name=value".
        m = re.match(r'^\+ (\w+)=(\S+)$', s)
        if m:
            d.setdefault(m.group(1), m.group(2))
        # DLLogger PARAMETER lines.
        if ' PARAMETER ' in s and ' : ' in s:
            body = s.split(' PARAMETER ', 1)[1]
            for mm in re.finditer(r'(\S+) : (.*?)(?=  \S+ : |\s*$)', body):
                d[mm.group(1)] = mm.group(2).strip()
        # argparse Namespace(...).
        m = re.search(r'Namespace\((.*)\)', s)
        if m:
            for mm in re.finditer(r"(\w+)=('[^']*'|\[[^\]]*\]|\([^)]*\)|[^,]+)", m.group(1)):
                v = mm.group(2).strip()
                d[mm.group(1)] = v[1:-1] if v.startswith("'") else v
        # absl flags (TF): "run_pretraining.py:583]   key: value".
        m = re.search(r'\.py:\d+\]\s{2,}(\w+): (.*)$', s)
        if m:
            d[m.group(1)] = m.group(2).strip()
        # NGC PyTorch Transformer (fairseq-style) lines.
        m = re.search(r'max tokens per GPU = (\d+)', s)
        if m:
            d['max_tokens'] = m.group(1)
        m = re.search(r'Selected optimization level (O\d)', s)
        if m:
            d['opt_level'] = m.group(1)
        m = re.search(r'Distributed training: (True|False)', s)
        if m:
            d['distributed'] = m.group(1)
    # Paddle's parameter dict (pprint, from "{'alpha': ..." to "...}").
    for i, line in enumerate(lines):
        if line.startswith("{'"):
            for j in range(i, min(i + 400, len(lines))):
                if lines[j].rstrip().endswith('}'):
                    try:
                        for k, v in ast.literal_eval('\n'.join(lines[i:j + 1])).items():
                            d[k] = v if isinstance(v, list) else str(v)
                    except (ValueError, SyntaxError):
                        pass
                    break
            break
    # PaddleClas config dump: "ppcls INFO: <4 spaces per level>key : value".
    stack = []
    for line in lines:
        m = re.search(r'ppcls INFO: ( *)(\S[^:]*?) :(?: (.*))?$', line)
        if not m or '[Train]' in line or 'train step' in line:
            continue
        depth = len(m.group(1)) // 4
        stack = stack[:depth] + [m.group(2).strip()]
        if m.group(3) is not None and m.group(3).strip() != '':
            d['.'.join(stack)] = m.group(3).strip()
    # PaddleSeg config dump: column-0 "key: value" lines.
    if 'Config Information' in text:
        part = text.split('Config Information', 1)[1]
        for line in part.splitlines()[1:]:
            if line.startswith('----'):
                break
            m = re.match(r'^(\w+): (\S+)$', line)
            if m:
                d[m.group(1)] = m.group(2)
        if 'use amp to train' in text:
            d['fp16'] = 'True'
        elif 'PaddleSeg:' in text:
            d['fp16'] = 'False'
    # mmcv config dump.
    m = re.search(r'samples_per_gpu=(\d+)', text)
    if m and 'mmseg' in text:
        d['batch_size'] = m.group(1)
        mm = re.search(r'workers_per_gpu=(\d+)', text)
        if mm:
            d['num_workers'] = mm.group(1)
        mm = re.search(r"runner = dict\(type='IterBasedRunner', max_iters=(\d+)\)", text)
        if mm:
            d['max_iters'] = mm.group(1)
        mm = re.search(r'log_config = dict\(\s*interval=(\d+)', text)
        if mm:
            d['log_iters'] = mm.group(1)
        d['fp16'] = 'True' if 'Fp16OptimizerHook' in text else 'False'
        mm = re.search(r"norm_cfg = dict\(type='(\w+)'", text)
        if mm:
            d['norm'] = mm.group(1)
    # What the program used wins over what the command line said.
    out = {k: (v[0] if len(v) == 1 else (v if v else 'True')) for k, v in echoed.items()}
    out.update(d)
    return out


# --------------------------------------------------- per-framework tables
# (model, framework) -> {suite option: [(dump key, transform(value, opts, case) -> expected dump value)]}
ALIASES = {
    ('ResNet50', 'Paddle'): {'config': [('c', None)]},
    ('ResNet50', 'NGC-TensorFlow'): {'use_xla': [('xla', None)], 'use_tf_amp': [('amp', None)],
                                     'loss_scale': [('static_loss_scale', None)], 'use_dali': [('dali', None)]},
    ('ResNet50', 'NGC-MXNet'): {
        'batch_sizes': [('batch_size', lambda v, o, c: str(int(v) * c['gpus']))],
        'ngpus': [('gpus', lambda v, o, c: str(list(range(int(v)))))],
        'epochs': [('num_epochs', None)],
        'output': [('dllogger_log', lambda v, o, c: '%s-%d,%d' % (v, c['gpus'], c['batch_size']))]},
    ('BERT-Base', 'NGC-PyTorch'): {
        'train_batch_size': [('train_batch_size', lambda v, o, c: str(int(v) // int(o['gradient_accumulation_steps'][0])))]},
    ('BERT-Base', 'NGC-TensorFlow'): {
        'train_batch_size': [('train_batch_size', None), ('batch_size', None)],
        'num_accumulation_steps': [('num_accumulation_steps', None), ('num_accumulation_steps_phase1', None)],
        'num_train_steps': [('num_train_steps', None), ('train_steps', lambda v, o, c: None)],
        'noamp': [('amp', lambda v, o, c: str(canon(v) is not True)),
                  ('precision', lambda v, o, c: 'fp32' if canon(v) is True else 'fp16')],
        'amp': [('amp', None), ('precision', lambda v, o, c: 'fp16' if canon(v) is True else 'fp32')]},
    ('Transformer', 'Paddle'): {'distributed': [('is_distributed', None)]},
    ('Transformer', 'NGC-PyTorch'): {'amp_level': [('opt_level', None)]},
    ('DeepLabV3plus', 'mmsegmentation'): {
        'launcher': [('distributed', lambda v, o, c: 'False' if v == 'none' else 'True')],
        'runner.max_iters': [('max_iters', None)], 'log_config.interval': [('log_iters', None)]},
}
# A flag a family's program defaults to False when the command leaves it out.
ABSENT_FLAGS = {('ResNet50', 'NGC-TensorFlow'): ['use_dali']}


def log_precision(fam, d):
    """The precision the log shows, in the manifests' terms, or None."""
    t = lambda k: str(d.get(k, '')).strip().lower() in ('true', '1')
    model, fw = fam
    if model == 'ResNet50' and fw == 'Paddle':
        if 'AMP.level' in d:
            lvl = d['AMP.level']
            if lvl == 'O2':
                return 'fp16'
            return 'amp' if t('AMP.use_amp') else 'fp32'
        return 'fp32' if 'Global.epochs' in d else None
    if fw == 'Paddle' and model in ('BERT-Base', 'Transformer'):
        if 'use_amp' not in d:
            return None
        if t('use_pure_fp16'):
            return 'fp16'
        return 'amp' if t('use_amp') else 'fp32'
    if fw == 'NGC-MXNet':
        return {'float16': 'fp16', 'float32': 'fp32'}.get(d.get('dtype'))
    if fw == 'NGC-PyTorch' and model == 'BERT-Base':
        return ('amp' if t('fp16') else 'fp32') if 'fp16' in d else None
    if fw == 'NGC-PyTorch' and model == 'Transformer':
        if 'opt_level' in d:
            return {'O1': 'amp', 'O2': 'fp16'}[d['opt_level']]
        return ('amp' if t('amp') else 'fp32') if 'amp' in d else None
    if fw in ('NGC-PyTorch', 'NGC-TensorFlow'):
        if 'amp' in d:
            return 'amp' if t('amp') else 'fp32'
        if 'precision' in d:
            return {'fp16': 'amp', 'fp32': 'fp32'}.get(d['precision'])
        return None
    if fw in ('mmsegmentation',) or (fw == 'Paddle' and model == 'DeepLabV3plus'):
        return ('amp' if t('fp16') else 'fp32') if 'fp16' in d else None
    return None


# -------------------------------------------------------- value comparison
def canon(v):
    if isinstance(v, list):
        out = [canon(x) for x in v]
        return out[0] if len(out) == 1 and isinstance(out[0], list) else out
    s = str(v).strip()
    if s.startswith('[') and s.endswith(']'):
        inner = [x.strip().strip("'") for x in s[1:-1].split(',') if x.strip()]
        return [canon(x) for x in inner]
    low = s.lower()
    if low in ('true', 'false'):
        return low == 'true'
    try:
        f = float(s)
        return int(f) if f == int(f) and abs(f) < 1e15 else f
    except ValueError:
        pass
    while len(s) > 1 and s.endswith('/'):
        s = s[:-1]
    return s.replace('//', '/')


def same(a, b):
    ca, cb = canon(a), canon(b)
    if isinstance(ca, bool) or isinstance(cb, bool):
        tb = lambda x: x if isinstance(x, bool) else (x == 1 if isinstance(x, (int, float)) else None)
        return tb(ca) is not None and tb(ca) == tb(cb)
    if isinstance(ca, list) or isinstance(cb, list):
        la = ca if isinstance(ca, list) else [ca]
        lb = cb if isinstance(cb, list) else [cb]
        return la == lb
    if isinstance(ca, (int, float)) and isinstance(cb, (int, float)):
        return abs(ca - cb) <= 1e-9 * max(1.0, abs(ca), abs(cb))
    return ca == cb


def show(v):
    if isinstance(v, list):
        return ' '.join(str(x) for x in v) if v else 'True'
    return str(v)


# ------------------------------------------------------------ suite checks
SHELL = re.compile(r'&&|\|\||(^|\s)\|(\s|$)|\$\(|`|;\s*$|^\s*(bash|sh) -c$')


def check_steps(run, suite):
    steps = suite.get('steps', {})
    for key in ('setup', 'single_node', 'multi_node'):
        for i, argv in enumerate(steps.get(key, [])):
            where = '%s: steps.%s[%d]' % (run, key, i)
            for w in argv:
                if SHELL.search(w) or w in ('&&', '||', '|', ';', '>', '<', '>>'):
                    fail('%s: shell glue in a step word: %r' % (where, w))
            if argv[:2] == ['git', 'clone']:
                fail('%s: a step clones a repository' % where)
            if argv[:2] in (['docker', 'run'], ['nvidia-docker', 'run']) or argv[:2] == ['docker', 'exec']:
                opts = [w for w in argv if w.startswith('-')]
                if any(o in ('-it', '-ti', '-i', '-t', '--interactive', '--tty') for o in opts):
                    fail('%s: an interactive container (%s)' % (where, ' '.join(argv[:4])))
                if argv[-1] in ('bash', '/bin/bash', 'sh', '/bin/sh'):
                    fail('%s: a step opens a shell' % where)
            if 'pip' in argv and 'install' in argv:
                rest = argv[argv.index('install') + 1:]
                skip = False
                for j, w in enumerate(rest):
                    if skip:
                        skip = False
                        continue
                    if w in ('-r', '--requirement', '-f', '--find-links', '--target', '-t', '-e'):
                        skip = True
                        continue
                    if w.startswith('-'):
                        continue
                    if '==' not in w:
                        fail('%s: pip installs %r without a pinned version' % (where, w))


def is_cjk(ch):
    c = ord(ch)
    return (0x3000 <= c <= 0x30ff or 0x3400 <= c <= 0x4dbf or 0x4e00 <= c <= 0x9fff or
            0xf900 <= c <= 0xfaff or 0xfe30 <= c <= 0xfe4f or 0xff00 <= c <= 0xffef or 0x20000 <= c <= 0x2ffff)


def is_word(tok):
    """gen/6-output/langcheck.c's word: letters, a hyphen or apostrophe between two."""
    tok = tok.lstrip('([{"\'*').rstrip(')]}"\'*,.;:!?')
    return bool(tok) and re.fullmatch(r"[A-Za-z](?:[A-Za-z]|['-](?=[A-Za-z]))*", tok) is not None


def latin_run(text):
    """gen/6-output/langcheck.c's rule for a Chinese page: 4 words in a row, tokens
    split at spaces and at any non-ASCII character."""
    words, run = 0, []
    for tok in re.split(r'[ \t]+|([^\x00-\x7f])', text):
        if tok is None or tok == '':
            continue
        if is_word(tok):
            words += 1
            run.append(tok)
            if words >= 4:
                return ' '.join(run)
        else:
            words, run = 0, []
    return None


def check_description(run, suite):
    for name, v in suite.get('steps', {}).get('vars', {}).items():
        check_bitext('%s: steps.vars.%s' % (run, name), v)
    check_bitext('%s: description' % run, suite.get('description'))


def check_bitext(run, d):
    if not isinstance(d, dict) or set(d) != {'zh', 'en'}:
        fail('%s is not {"zh": ..., "en": ...}' % run)
        return
    bad = [ch for ch in d['en'] if is_cjk(ch)]
    if bad:
        fail('%s: Chinese text in en: %r' % (run, ''.join(bad[:10])))
    r = latin_run(d['zh'])
    if r:
        fail('%s: four Latin words in a row in zh: %r' % (run, r))
    for lang in ('zh', 'en'):
        if '<' in d[lang]:
            fail('%s: %s holds "<" (a page would read it as a tag)' % (run, lang))


# Config files the steps copy (cp SRC DST) and edit (sed -i EXPR FILE).
def config_edits(suite):
    copies, edits = {}, {}
    for argv in suite.get('steps', {}).get('setup', []):
        if argv[:1] == ['cp'] and len(argv) >= 3:
            src, dst = argv[-2], argv[-1]
            copies[os.path.normpath(dst)] = os.path.normpath(src)
        if argv[:2] == ['sed', '-i'] and len(argv) == 4:
            edits.setdefault(os.path.normpath(argv[3]), []).append(argv[2])
    return copies, edits


def derived_options(path, copies, edits, seen=None):
    seen = seen or set()
    out = {}
    if path in seen:
        return out
    seen.add(path)
    for e in edits.get(path, []):
        m = re.match(r'^s/\^(\w+)(?::)?\.\*/\1: (.*)/g?$', e)
        if m:
            out[m.group(1)] = [m.group(2)]
            continue
        m = re.match(r'^\$a (\w+) = dict\((\w+)=([^)]*)\)$', e)
        if m:
            out['%s.%s' % (m.group(1), m.group(2))] = [m.group(3)]
            continue
        m = re.match(r'^s/SyncBN/BN/g$', e)
        if m:
            out['norm'] = ['BN']
            continue
        m = re.match(r'^s#(.*)#(.*)#$', e)
        if m:
            tail = m.group(2)
            for other in edits:
                if other.endswith(os.path.basename(tail)):
                    out.update(derived_options(other, copies, edits, seen))
    return out


def framework_argv(tokens):
    """The words of the framework's own command in a dry run's line."""
    if 'perfrepro-task' in tokens:                      # mpirun/slurm wrapper
        tokens = tokens[tokens.index('perfrepro-task') + 1:]
    for t in tokens:
        if t.startswith('RANK=${') and 'exec ' in t:     # per-node wrapper script
            tokens = shlex.split(t.rsplit('exec ', 1)[1])
            break
    while tokens and re.match(r'^[A-Za-z_][A-Za-z0-9_]*=', tokens[0]):
        tokens = tokens[1:]
    if tokens[:2] == ['docker', 'exec']:
        i = 2
        while i < len(tokens) and tokens[i].startswith('-'):
            i += 2 if tokens[i] in ('-e', '--env', '-w', '--workdir', '-u', '--user') else 1
        tokens = tokens[i + 1:]                          # after the container
    return tokens


def dry_run(run, path, suite):
    args = [MEASURE, 'run', path, '--dry-run', '--out', os.path.join(TMP, 'out')]
    if suite.get('launcher') == 'mpirun':
        args += ['--hosts', 'node1:8,node2:8,node3:8,node4:8']
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail('%s: perfrepro-measure run --dry-run failed (%d): %s' % (run, r.returncode, (r.stderr or r.stdout).strip()[:400]))
        return {}
    cases, cur = {}, None
    for line in r.stdout.splitlines():
        m = re.match(r'^# \[\d+/\d+\] (\S+)', line)
        if m:
            cur = m.group(1)
            if 'would fail' in line:
                fail('%s: %s' % (run, line))
            continue
        if cur and line.strip() and cur not in cases:
            cases[cur] = framework_argv(shlex.split(line))
    return cases


def rule_name(r):
    for f in sorted(os.listdir('scripts/perf-logs/rules')):
        if f.endswith('.json') and json.load(open(os.path.join('scripts/perf-logs/rules', f))) == r:
            return f[:-5]
    return json.dumps(r, sort_keys=True)


# -------------------------------------------------------------------- main
known = {}
kd_path = os.path.join(SUITES, 'KNOWN-DIFFERENCES.tsv')
for n, line in enumerate(open(kd_path, encoding='utf-8'), 1):
    line = line.rstrip('\n')
    if not line or line.startswith('#'):
        continue
    f = line.split('\t')
    if len(f) != 6 or not f[5].strip():
        fail('%s:%d: expected run, case, option, log value, suite value, reason' % (kd_path, n))
        continue
    known[(f[0], f[1], f[2])] = (f[3], f[4], '%s:%d' % (kd_path, n))
used = set()

n_cmds = n_opts = 0
for run in sorted(runs):
    cases = runs[run]
    path = os.path.join(SUITES, run + '.json')
    if not os.path.exists(path):
        fail('%s: no suite %s' % (run, path))
        continue
    if os.path.islink(path):
        fail('%s: %s is a symbolic link (duplicate the file)' % (run, path))
    suite = json.load(open(path, encoding='utf-8'))
    c0 = cases[0]
    fam = (c0['model'], c0['framework'])
    for k in ('model', 'framework', 'platform', 'unit'):
        if suite.get(k) != c0[k]:
            fail('%s: suite %s %r, manifest %r' % (run, k, suite.get(k), c0[k]))
    check_steps(run, suite)
    check_description(run, suite)
    commit = suite.get('source', {}).get('commit', 'missing')
    if commit is not None and not re.fullmatch(r'[0-9a-f]{7,40}', str(commit)):
        fail('%s: source.commit %r is neither 7-40 hex digits nor null' % (run, commit))
    m = suite.get('matrix', {})
    pts = set()
    for p in [dict(nodes=a, gpus_per_node=b, batch_size=c, precision=d) for a in m.get('nodes', [])
              for b in m.get('gpus_per_node', []) for c in m.get('batch_size', []) for d in m.get('precision', [])]:
        if not any(all(p[k] == v for k, v in e.items()) for e in m.get('exclude', [])):
            pts.add(tuple(sorted(p.items())))
    pts |= {tuple(sorted(e.items())) for e in m.get('include', [])}
    want_pts = {tuple(sorted(dict(nodes=c['nodes'], gpus_per_node=c['gpus'] // c['nodes'], batch_size=c['batch_size'],
                                  precision=c['precision']).items())) for c in cases}
    if pts != want_pts:
        fail('%s: the matrix gives %s, the run folder has %s' % (run, sorted(pts - want_pts), sorted(want_pts - pts)))
    got = dry_run(run, path, suite)
    want = {c['case']: c for c in cases}
    if set(got) != set(want):
        fail('%s: the suite\'s cases %s are not the run folder\'s %s' % (run, sorted(got), sorted(want)))
    copies, edits = config_edits(suite)
    aliases = ALIASES.get(fam, {})
    # Options that are flags somewhere in the suite: absent means False.
    flags = set(ABSENT_FLAGS.get(fam, []))
    for argv in got.values():
        flags.update(k for k, v in argv_options(argv).items() if v == [])
    for name, c in sorted(want.items()):
        argv = got.get(name)
        if argv is None:
            continue
        n_cmds += 1
        d = {}
        for log in c['logs']:
            d.update(dump(os.path.join(PERF, log)))
        opts = argv_options(argv)
        for k, v in list(opts.items()):
            p = os.path.normpath(v[0]) if len(v) == 1 else None
            if p and p in copies:
                opts[k] = [v[0].replace(os.path.basename(p), os.path.basename(copies[p]))]
                for kk, vv in derived_options(p, copies, edits).items():
                    opts.setdefault(kk, vv)
        for w in argv:                                   # a copied config given as a positional
            p = os.path.normpath(w)
            if p in copies:
                for kk, vv in derived_options(p, copies, edits).items():
                    opts.setdefault(kk, vv)
        for f in flags:
            opts.setdefault(f, ['False'])
        diffs = []
        # The parse rule the manifest names for this case.
        rule = json.load(open('scripts/perf-logs/rules/%s.json' % c['rule']))
        if suite.get('rule') != rule:
            diffs.append(('rule', c['rule'], rule_name(suite.get('rule'))))
        n_opts += 1
        # The precision the log shows.
        lp = log_precision(fam, d)
        if VERBOSE:
            print('  %s %s: precision %s / log %s' % (run, name, c['precision'], lp))
        if lp is not None:
            n_opts += 1
            if lp != c['precision']:
                diffs.append(('precision', lp, c['precision']))
        for k, v in sorted(opts.items()):
            cands = aliases.get(k, []) + [(k, None)]
            for dk, tr in cands:
                if dk not in d:
                    continue
                val = v if v else ['True']
                if tr is not None:
                    exp = tr(val[0], opts, c)
                    if exp is None:
                        if dk == 'train_steps':
                            exp_log = str(int(d[dk]) * 9 // 10)
                            n_opts += 1
                            if not same(exp_log, val[0]):
                                diffs.append((k, exp_log, show(val)))
                        break
                    val = [exp]
                n_opts += 1
                logv = d[dk]
                suitev = val if isinstance(canon(logv), list) else val[0]
                if VERBOSE:
                    print('  %s %s: %s=%s / log %s=%s' % (run, name, k, show(suitev), dk, show(logv)))
                if not same(logv, suitev):
                    diffs.append((k, show(logv), show(suitev)))
                break
        for opt, logv, suitev in diffs:
            kd = known.get((run, name, opt))
            if kd is None:
                fail('%s %s: %s: the log has %s, the suite %s (not in KNOWN-DIFFERENCES.tsv)' % (run, name, opt, logv, suitev))
            elif not (same(kd[0], logv) and same(kd[1], suitev)):
                fail('%s %s: %s: the log has %s, the suite %s; %s lists %s / %s' % (run, name, opt, logv, suitev, kd[2], kd[0], kd[1]))
            else:
                used.add((run, name, opt))
for key, (lv, sv, where) in sorted(known.items()):
    if key not in used:
        fail('%s: %s %s %s: listed, but the suite and the log agree (or the case is gone)' % (where, key[0], key[1], key[2]))

# Environment groups.
eg = os.path.join(SUITES, 'ENVIRONMENT-GROUPS.tsv')
have = {}
for n, line in enumerate(open(eg, encoding='utf-8'), 1):
    line = line.rstrip('\n')
    if not line or line.startswith('#'):
        continue
    f = line.split('\t')
    if len(f) != 3:
        fail('%s:%d: expected run, README path, group title' % (eg, n))
        continue
    run, readme, title = f
    if run not in runs:
        fail('%s:%d: %s is no run folder of the manifests' % (eg, n, run))
    p = os.path.join(PERF, readme)
    if not os.path.isfile(p):
        fail('%s:%d: no %s in the snapshot' % (eg, n, readme))
        continue
    printed = [re.sub(r'^\s*(?:[-*]|#+)\s*', '', l).strip() for l in open(p, encoding='utf-8')]
    if title not in printed:
        fail('%s:%d: %r is not a group title of %s' % (eg, n, title, readme))
    have.setdefault(run, []).append(title)
for run in runs:
    if run not in have:
        fail('%s: no environment group in ENVIRONMENT-GROUPS.tsv' % run)

for m in failures:
    print('FAIL: ' + m)
print('perf_steps_vs_logs: %d commands checked, %d options compared, %d known differences' % (n_cmds, n_opts, len(used)))
sys.exit(1 if failures else 0)
PYEOF
