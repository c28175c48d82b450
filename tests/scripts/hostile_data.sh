#!/bin/sh
# Hostile data files and templates through the command line: each is refused
# quickly (a few seconds at most) with exit 1 (gen) or 2 (measure), a message
# FILE:LINE:COL naming the field, and nothing written.
#   - a record whose log_file or model leaves the run / report tree;
#   - a published source URL javascript: or file:///etc/passwd;
#   - a case_name template producing ../x;
#   - data nested 10,000 levels deep (Jansson's depth limit), as a published
#     file, a suite and a --rule file;
#   - a suite whose matrix expands to hundreds of millions of cases;
#   - suite step variables named PATH, IFS, PS4, SHELLOPTS, BASH_ENV,
#     LD_PRELOAD (names the shell or the loader use);
#   - templates whose partials include each other eight times over (output
#     that would grow to gigabytes): the render stops with an error;
#   - parse --model ../x;
#   - a record whose step_trace is malformed (gen's traces are drawn from
#     it): refused at the file, line and field;
#   - a record of more GPUs on a node than its platform has (1 node x 32
#     GPUs on a platform of 8 per node, shown as "1x32 GPUs" and never
#     meeting the published 4x32 figure, issue 24): refused at its
#     gpus_per_node, naming the nodes the job needs; the same job recorded
#     as 4 x 8 loads.
# tests/unit/gen_hostile.c checks the same refusals at the library level and
# that hostile free text renders inert.
. tests/scripts/lib/preamble.sh
need_bins GEN MEASURE
# expect RC PATTERN CMD...: CMD exits RC within 20 s with PATTERN (grep -E) on stderr.
expect() {
  want=$1 pat=$2; shift 2
  start=$(date +%s)
  timeout 20 "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  secs=$(($(date +%s) - start))
  [ $rc -eq "$want" ] || { fail "$*: exit $rc, expected $want: $(head -c 300 "$tmp/err")"; return; }
  grep -Eq -- "$pat" "$tmp/err" || fail "$*: message does not match '$pat': $(head -c 300 "$tmp/err")"
  [ $secs -le 10 ] || fail "$*: took ${secs}s"
}
record() { # record DIR LOG_FILE MODEL
  mkdir -p "$1/runs/r1/logs/index" "$1/runs/r1/logs/train_log"
  echo "ips: 1" >"$1/runs/r1/logs/train_log/c"
  cat >"$1/runs/r1/logs/index/c_speed" <<JSON
{"log_file": "$2", "model_name": "m", "mission_name": "", "direction_id": 0,
 "run_mode": "sp", "index": 1, "gpu_num": 1, "FINAL_RESULT": 1.0, "JOB_FAIL_FLAG": 0,
 "UNIT": "samples/s", "perfrepro": 1, "model": "$3", "framework": "F", "case": "c",
 "precision": "fp32", "batch_size": 1, "nodes": 1, "gpus_per_node": 1, "repeat": 1,
 "origin": "parsed"}
JSON
}
n=0
for lf in ../../etc/passwd /etc/passwd logs/../../../etc/passwd; do
  n=$((n + 1)); record "$tmp/r$n" "$lf" M
  expect 1 "c_speed:1:14: log_file: must be a relative path inside the run directory" \
    "$GEN" validate --data "$tmp/r$n"
done
for m in ../../x /etc .. '<script>'; do
  n=$((n + 1)); record "$tmp/r$n" logs/train_log/c "$m"
  expect 1 "c_speed:[0-9]+:[0-9]+: model: .* is not a safe folder name" "$GEN" validate --data "$tmp/r$n"
  # And gen build writes nothing (no folder outside, no reports).
  expect 1 "not a safe folder name" "$GEN" build --data "$tmp/r$n" --out "$tmp/out$n" --no-charts
  [ ! -e "$tmp/out$n" ] || fail "build with model $m created $tmp/out$n"
done
[ ! -e "$tmp/x" ] || fail "something was written outside: $tmp/x"

pub() { # pub DIR URL
  mkdir -p "$1/published"
  cat >"$1/published/00.json" <<JSON
{"perfrepro": 1, "label": "L",
 "source": {"title": "t", "url": "$2"},
 "platform": "unstated",
 "tables": [{"model": "M", "framework": "F", "precision": "fp32", "batch_size": 1,
   "unit": "samples/s", "rows": [{"nodes": 1, "gpus": 1, "throughput": 1.0}]}]}
JSON
}
for u in 'javascript:alert(1)' 'file:///etc/passwd' 'JavaScript:x' '//evil.example/x'; do
  n=$((n + 1)); pub "$tmp/p$n" "$u"
  expect 1 "00.json:2:34: source.url: expected an http\(s\):// URL" "$GEN" validate --data "$tmp/p$n"
done

suite() { # suite FILE CASE_NAME MATRIX
  cat >"$1" <<JSON
{"perfrepro": 1, "model": "M", "framework": "F", "model_name": "m", "mission_name": "x",
 "direction_id": 0, "unit": "u", "command": ["true"], "case_name": "$2",
 "matrix": $3,
 "rule": {"keyword": "ips:", "scope": "global"}}
JSON
}
small='{"nodes": [1], "gpus_per_node": [1], "batch_size": [1], "precision": ["fp32"]}'
for cn in '../{model}' '/tmp/{case}' 'a/{batch_size}'; do
  mkdir -p "$tmp/s$n/suites"; suite "$tmp/s$n/suites/s.json" "$cn" "$small"
  expect 1 "s.json:[0-9]+:[0-9]+: matrix: case name .* is not a safe file name" "$GEN" validate --data "$tmp/s$n"
  expect 2 "is not a safe file name" "$MEASURE" run "$tmp/s$n/suites/s.json" --out "$tmp/s$n/out"
  [ ! -e "$tmp/s$n/out" ] || fail "run with case_name $cn created its output"
  n=$((n + 1))
done
# Step variables named as the shell or the loader's: the page's
# ': "${PATH:?}"' always passed; readers were told to set LD_PRELOAD.
for v in PATH IFS PS4 SHELLOPTS BASH_ENV LD_PRELOAD; do
  mkdir -p "$tmp/v$v/suites"
  cat >"$tmp/v$v/suites/s.json" <<JSON
{"perfrepro": 1, "model": "M", "framework": "F", "model_name": "m", "mission_name": "x",
 "direction_id": 0, "unit": "u", "command": ["true"], "case_name": "c",
 "steps": {"vars": {"$v": "a folder"}, "setup": [["ls", "{$v}"]]},
 "matrix": $small,
 "rule": {"keyword": "ips:", "scope": "global"}}
JSON
  expect 1 "s.json:3:[0-9]+: steps.vars.$v: $v is .*choose another name" "$GEN" validate --data "$tmp/v$v"
  expect 2 "s.json:3:[0-9]+: steps.vars.$v: " "$MEASURE" run "$tmp/v$v/suites/s.json" --dry-run
  expect 1 "steps.vars.$v" "$GEN" build --data "$tmp/v$v" --out "$tmp/v$v/out" --no-charts
  [ ! -e "$tmp/v$v/out" ] || fail "build with a step variable $v wrote reports"
done
big=$(python3 -c 'import json; r=list(range(1,41)); print(json.dumps({"nodes": r, "gpus_per_node": r, "batch_size": r, "precision": ["fp32","fp16","amp","bf16","tf32","fp8"], "repeats": 1000}))' 2>/dev/null)
if [ -n "$big" ]; then
  mkdir -p "$tmp/big/suites"; suite "$tmp/big/suites/s.json" 'c{nodes}_{gpus_per_node}_{batch_size}' "$big"
  expect 1 "s.json:[0-9]+:[0-9]+: matrix: the matrix has 384000 points x 1000 repeats: more than 10000 cases" \
    "$GEN" validate --data "$tmp/big"
  expect 2 "more than 10000 cases" "$MEASURE" run "$tmp/big/suites/s.json" --dry-run
fi

# 10,000 levels.
deep=$(awk 'BEGIN { for (i = 0; i < 10000; i++) printf "["; for (i = 0; i < 10000; i++) printf "]"; }')
mkdir -p "$tmp/deep/published" "$tmp/deep2/suites"
echo "$deep" >"$tmp/deep/published/00.json"
expect 1 "00.json:1:[0-9]+: invalid JSON: .*depth" "$GEN" validate --data "$tmp/deep"
printf '{"perfrepro": 1, "matrix": {"nodes": %s}}\n' "$deep" >"$tmp/deep2/suites/s.json"
expect 1 "s.json:1:[0-9]+: invalid JSON: .*depth" "$GEN" validate --data "$tmp/deep2"
expect 2 "s.json:1:[0-9]+: invalid JSON: .*depth" "$MEASURE" run "$tmp/deep2/suites/s.json" --dry-run
printf '{"keyword": "x", "scope": "global", "unit": %s}\n' "$deep" >"$tmp/deep.rule"
echo "x 1" >"$tmp/log"
expect 2 "deep.rule:1:[0-9]+: invalid JSON: .*depth" "$MEASURE" parse --rule "@$tmp/deep.rule" "$tmp/log"

# Templates whose partials multiply: a, b, ... each including the next eight
# times; the last holds 100 bytes.  8^8 x 101 bytes would be 1.7 GB.
cp -R "$ROOT/templates" "$tmp/t"
prev=""
for p in i h g f e d c b a; do
  if [ -z "$prev" ]; then
    printf '%0100d\n' 0 >"$tmp/t/en/bomb_$p.mustache"
  else
    printf '{{>bomb_%s}}' "$prev" "$prev" "$prev" "$prev" "$prev" "$prev" "$prev" "$prev" >"$tmp/t/en/bomb_$p.mustache"
  fi
  prev=$p
done
printf '\n{{>bomb_a}}\n' >>"$tmp/t/en/notes.mustache"
mkdir -p "$tmp/tb"
cp -R "$ROOT/data/published" "$ROOT/data/platforms" "$tmp/tb/"
expect 1 "bomb_[a-i]:[0-9]+:[0-9]+: (output larger than 64 MiB|rendering takes more than)" \
  "$GEN" build --data "$tmp/tb" --templates "$tmp/t" --out "$tmp/tb-out" --no-charts
[ -z "$(find "$tmp/tb-out" -name 'README*' 2>/dev/null)" ] || fail "the template bomb build wrote pages"

printf 'ips: 1\n' >"$tmp/l"
expect 2 "--model: \"../x\" is not a safe folder name" "$MEASURE" parse --rule '{"keyword": "ips:", "scope": "global"}' --model ../x "$tmp/l"
expect 2 "--framework: .* is not a safe folder name" "$MEASURE" parse --rule '{"keyword": "ips:", "scope": "global"}' --framework 'a/b' "$tmp/l"

# A malformed step_trace (lib/rectrace.c): a status string one short, an
# unknown status, "max" without bins, a negative value, an unknown key.
trace_record() { # trace_record DIR STEP_TRACE_JSON
  record "$1" logs/train_log/c M
  f="$1/runs/r1/logs/index/c_speed"
  sed -i 's/"origin": "parsed"}/"origin": "parsed",\n "step_trace": '"$2"'}/' "$f"
}
n=$((n + 1)); trace_record "$tmp/s$n" '{"version": 1, "scale": "as_read", "factor": 1, "runs": [{"records": 2, "bin": 1, "value": 1, "lines": [1, 2], "values": [1, 1], "status": "K"}]}'
expect 1 "c_speed:6:[0-9]+: step_trace.runs\[0\].status: 1 points, expected 2" "$GEN" validate --data "$tmp/s$n"
expect 1 "c_speed:6:[0-9]+: step_trace.runs\[0\].status" "$GEN" build --data "$tmp/s$n" --out "$tmp/s$n-out" --no-charts
[ ! -e "$tmp/s$n-out" ] || fail "a build with a malformed step_trace wrote $tmp/s$n-out"
n=$((n + 1)); trace_record "$tmp/s$n" '{"version": 1, "scale": "as_read", "factor": 1, "runs": [{"records": 1, "bin": 1, "value": 1, "lines": [1], "values": [1], "status": "Z"}]}'
expect 1 "c_speed:6:[0-9]+: step_trace.runs\[0\].status: unknown status 'Z'" "$GEN" validate --data "$tmp/s$n"
n=$((n + 1)); trace_record "$tmp/s$n" '{"version": 1, "scale": "as_read", "factor": 1, "runs": [{"records": 1, "bin": 1, "value": 1, "lines": [1], "values": [1], "max": [1], "status": "K"}]}'
expect 1 "c_speed:6:[0-9]+: step_trace.runs\[0\].max: .max. goes with binned points" "$GEN" validate --data "$tmp/s$n"
n=$((n + 1)); trace_record "$tmp/s$n" '{"version": 1, "scale": "as_read", "factor": 1, "runs": [{"records": 1, "bin": 1, "value": 1, "lines": [1], "values": [-5], "status": "K"}]}'
expect 1 "c_speed:6:[0-9]+: step_trace.runs\[0\].values\[0\]: expected a number >= 0 or null" "$GEN" validate --data "$tmp/s$n"
n=$((n + 1)); trace_record "$tmp/s$n" '{"version": 1, "scale": "as_read", "factor": 1, "runz": []}'
expect 1 "c_speed:6:[0-9]+: step_trace.runz: unknown key" "$GEN" validate --data "$tmp/s$n"

# GPUs per node above the platform's devices per node (issue 24).
node_record() { # node_record DIR NODES GPUS_PER_NODE
  mkdir -p "$1/runs/r1/logs/index" "$1/runs/r1/logs/train_log" "$1/platforms"
  cp "$ROOT/data/platforms/V100-SXM2-32GB-x8.json" "$1/platforms/"
  echo "ips: 1" >"$1/runs/r1/logs/train_log/c"
  cat >"$1/runs/r1/logs/index/c_speed" <<JSON
{"log_file": "logs/train_log/c", "model_name": "m", "mission_name": "", "direction_id": 0,
 "run_mode": "mp", "index": 1, "gpu_num": $(($2 * $3)), "FINAL_RESULT": 1.0, "JOB_FAIL_FLAG": 0,
 "UNIT": "samples/s", "perfrepro": 1, "model": "M", "framework": "F", "case": "c",
 "precision": "fp32", "batch_size": 1, "nodes": $2,
 "gpus_per_node": $3, "repeat": 1,
 "origin": "parsed", "platform": "V100-SXM2-32GB-x8"}
JSON
}
n=$((n + 1)); node_record "$tmp/s$n" 1 32
expect 1 'c_speed:5:19: gpus_per_node: 32 GPUs on one node, but a node of platform V100-SXM2-32GB-x8 \(.*V100-SXM2-32GB-x8.json\) has 8: the 32-GPU job spans at least 4 nodes \("nodes": 4, "gpus_per_node": 8\)' \
  "$GEN" validate --data "$tmp/s$n"
expect 1 "c_speed:5:19: gpus_per_node: " "$GEN" build --data "$tmp/s$n" --out "$tmp/s$n-out" --no-charts
[ ! -e "$tmp/s$n-out" ] || fail "a build with 1 node x 32 GPUs on an 8-GPU node wrote $tmp/s$n-out"
n=$((n + 1)); node_record "$tmp/s$n" 2 12
expect 1 "c_speed:5:19: gpus_per_node: 12 GPUs on each node, .* spans at least 3 nodes \(\"nodes\": 3, \"gpus_per_node\": 8\)" \
  "$GEN" validate --data "$tmp/s$n"
n=$((n + 1)); node_record "$tmp/s$n" 4 8
"$GEN" validate --data "$tmp/s$n" >"$tmp/out" 2>&1 || fail "4 nodes x 8 GPUs refused: $(cat "$tmp/out")"
finish "hostile data: all refused"
