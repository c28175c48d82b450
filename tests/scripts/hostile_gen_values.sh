#!/bin/sh
# Values from data in what perfrepro-gen writes: command blocks, file names,
# anchors, links and table cells.
#   - A suite whose every value that reaches a ```bash block (source.repo,
#     source.path, the suite's file name, model_name, command elements, a
#     "shell": true command) holds ; $( ) ` ' " & | < > # ? \ and a newline
#     (where a newline can be valid).  Every bash block of the reports parses
#     (bash -n), and run by bash with stub commands (git, cd, python, salloc,
#     bin/perfrepro-measure record their argv; touch and id mark an
#     injection) each command gets the suite's values as whole words and
#     nothing runs that the data spells, steps (argv words, a variable the
#     reader sets) included; multi-node commands are per node, with its rank
#     and node 0's address and port as the reader's variables.
#   - Values that cannot be valid are refused by validate and build alike
#     (FILE:LINE:COL: field): a commit that is not 7-40 hex digits, a repo
#     or path starting with '-' or holding a newline, an empty log_file of a
#     case with a figure, bad elements of "logs", a 4 MB description.
#   - A 230-byte batch_label and a 530-byte published label: build works,
#     chart file names stay short (with fonts for the charts).
#   - "R&D" as a batch_label: the TOC anchor is GitHub's, the table head is
#     escaped once; '#', '?', ')' and spaces in run-folder and suite file
#     names: links are percent-encoded and check says ok, and check flags an
#     encoded link to a missing file.
. tests/scripts/lib/preamble.sh
need_bins GEN
BASH=$(command -v bash) || { echo "no bash"; exit 77; }

# The JSON string literal of $1 (", \ and newlines escaped).
js() { printf '"'; printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' |
       awk 'BEGIN{ORS=""} NR>1{print "\\n"} {print}'; printf '"'; }

# Every shell metacharacter, a backslash and a newline; VN without newline.
V=$(printf 'v;1 $(touch PWN1) `touch PWN2` '"'"'q'"'"' "d" & | < > # ? \\ end\nline2')
VN=$(printf '%s' "$V" | tr '\n' ' ')

D="$tmp/data"
mkdir -p "$D/suites/M"
SUITE_FILE="$D/suites/M/F ) x'y #?;\$(touch PWN3).json"
cat >"$SUITE_FILE" <<JSON
{"perfrepro": 1, "model": "M", "framework": "F", "model_name": $(js "$V"),
 "mission_name": "x", "direction_id": 0, "unit": "img/s", "description": $(js "$V"),
 "image": $(js "$V"), "environment": {"gpu": $(js "$V")},
 "source": {"repo": $(js "https://example.com/$VN"), "path": $(js "sub dir/$VN"),
            "commit": "0123abcd"},
 "steps": {"vars": {"DATA": $(js "$V")},
           "setup": [["python", "setup.py", $(js "$V"), "{DATA}/in"]],
           "single_node": [["python", "prep.py", $(js "$V")]]},
 "env": {"X": $(js "$V")},
 "command": ["python", "t.py", "--name={model_name}", $(js "$V"),
             "--addr={master_addr}:{master_port}", "{node_rank}", ""],
 "case_name": "c_{gpus}",
 "matrix": {"nodes": [1, 2], "gpus_per_node": [1, 8], "batch_size": [32],
            "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}}
JSON
cat >"$D/suites/M/S.json" <<JSON
{"perfrepro": 1, "model": "M", "framework": "S", "model_name": $(js "$V"),
 "mission_name": "x", "direction_id": 0, "unit": "img/s", "shell": true,
 "command": [$(js "python t.py --name {model_name} --rank {node_rank} --lit 'a b' \$([ {precision} = fp16 ] && echo x)")],
 "case_name": "c_{gpus}",
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [32], "precision": ["fp32"]},
 "rule": {"keyword": "ips:", "scope": "global"}}
JSON
out="$tmp/reports"
"$GEN" validate --data "$D" >"$tmp/log" 2>&1 || fail "validate: $(cat "$tmp/log")"
"$GEN" build --data "$D" --out "$out" --no-charts >"$tmp/log" 2>&1 || fail "build: $(cat "$tmp/log")"

# Each ```bash block (the fence may be longer than three) into its own file.
blocks="$tmp/blocks"
mkdir -p "$blocks"
for page in "$out/M/F/README.en.md" "$out/M/F/README.md" "$out/M/S/README.en.md"; do
  [ -f "$page" ] || { fail "no page $page"; continue; }
  awk -v dir="$blocks" -v tag="$(basename "$(dirname "$page")")-$(basename "$page")" '
    fence == "" && /^```+bash$/ { fence = $0; sub(/bash$/, "", fence); n++;
                                  f = sprintf("%s/%s-%02d", dir, tag, n); printf "" > f; next }
    fence != "" && $0 == fence { fence = ""; close(f); next }
    fence != "" { print > f }' "$page"
done
# A block of several cases' commands, each under a "# CASE" line, is cut into
# one block per case (each with the block's check of its variables).
for b in "$blocks"/*; do
  grep -q '^# ' "$b" || continue
  awk -v out="$b" '
    /^: "\$\{/ && !started { head = head $0 "\n"; next }
    /^# / { started = 1; n++; f = sprintf("%s.%02d", out, n); printf "%s", head > f; next }
    { print > f }' "$b"
  rm "$b"
done
nblocks=$(ls "$blocks" | wc -l)
[ "$nblocks" -ge 14 ] || fail "only $nblocks bash blocks"

# Stubs: each records its name and argv (NUL-separated, a newline per call).
stubs="$tmp/stubs" sb="$tmp/sandbox"
mkdir -p "$stubs" "$sb/bin"
for c in git python salloc perfrepro-measure; do
  printf '#!/bin/sh\nprintf "%%s\\0" "${0##*/}" "$@" >>"$REC"; printf "\\n" >>"$REC"\n' >"$stubs/$c"
  chmod +x "$stubs/$c"
done
mv "$stubs/perfrepro-measure" "$sb/bin/"
for c in touch id rm; do
  printf '#!/bin/sh\necho "INJECTED: $0 $*" >>"$MARK"\n' >"$stubs/$c"
  chmod +x "$stubs/$c"
done
# rec ARGS...: one expected call.
rec() { printf '%s\0' "$@"; printf '\n'; }
SUITE_REL="$SUITE_FILE"
# The reader's variables: a value with spaces and metacharacters stays one word.
DATA_V="d a t a;\$(touch PWN4)"
ranks1=0
for b in "$blocks"/*; do
  name=$(basename "$b")
  bash -n "$b" 2>"$tmp/err" || { fail "$name: bash -n: $(cat "$tmp/err")"; continue; }
  # The first line after the check of the block's variables.
  first=$(grep -v '^: "\${' "$b" | head -n 1)
  alt=
  case "$first" in
    "git clone "*)
      # The checkout, then the suite's set-up where the page gives them as one block.
      expect=$(rec git clone "https://example.com/$VN"; rec cd "$VN"; rec git checkout 0123abcd
               rec cd "sub dir/$VN"
               grep -q '^python setup.py' "$b" && rec python setup.py "$V" "$DATA_V/in"; echo .) ;;
    '"$PERFREPRO"/bin/perfrepro-measure run '*" --only "*)
      n=$(sed -n 's/.* --only c_\([0-9]*\) .*/\1/p' "$b")
      expect=$(rec perfrepro-measure run "$SUITE_REL" --only "c_$n" --out "$sb/data/runs/M-F-$n"; echo .) ;;
    '"$PERFREPRO"/bin/perfrepro-measure run '*)
      expect=$(rec perfrepro-measure run "$SUITE_REL" --out "$sb/data/runs/M-F"; echo .) ;;
    "bin/perfrepro-measure run "*" --only "*)
      expect=$(rec perfrepro-measure run "$D/suites/M/S.json" --only c_1 --out data/runs/M-S-1; echo .) ;;
    "bin/perfrepro-measure run "*)
      expect=$(rec perfrepro-measure run "$D/suites/M/S.json" --out data/runs/M-S; echo .) ;;
    "salloc "*)
      n=$(sed -n 's/.* --only c_\([0-9]*\) .*/\1/p' "$b")
      expect=$(rec salloc -N2 --gpus-per-node=$((n / 2)) --exclusive "$sb/bin/perfrepro-measure" run \
                 "$SUITE_REL" --launcher slurm --only "c_$n" --out "$sb/data/runs/M-F-$n"; echo .) ;;
    "export CUDA_VISIBLE_DEVICES=0")
      expect=$(rec python t.py --name "$V" --rank 0 --lit 'a b'; echo .) ;;
    "python setup.py "*)
      expect=$(rec python setup.py "$V" "$DATA_V/in"; echo .) ;;
    "python prep.py "*)
      expect=$(rec python prep.py "$V"; echo .) ;;
    "X="*)
      # The suite's env, then the job.  One node: the runner's values; two: node 0's address and port are
      # the reader's, the rank is the node's (0 or 1).
      if grep -q MASTER_ADDR "$b"; then
        expect=$(rec python t.py "--name=$V" "$V" "--addr=h0:29500" 0 ''; echo .)
        alt=$(rec python t.py "--name=$V" "$V" "--addr=h0:29500" 1 ''; echo .)
      else
        expect=$(rec python t.py "--name=$V" "$V" "--addr=127.0.0.1:29500" 0 ''; echo .)
      fi ;;
    *) fail "$name: unexpected block: $first"; continue ;;
  esac
  rm -f "$tmp/rec" "$tmp/mark"
  # One block serves every node of a multi-node case: run as node 1.
  (cd "$sb" && env -i PATH="$stubs" REC="$tmp/rec" MARK="$tmp/mark" MASTER_ADDR=h0 MASTER_PORT=29500 NODE_RANK=1 \
     PERFREPRO="$sb" DATA="$DATA_V" \
     "$BASH" --norc --noprofile -c 'cd() { printf "%s\0" cd "$@" >>"$REC"; printf "\n" >>"$REC"; }
                                 . "$1"' sh "$b") >"$tmp/err" 2>&1 ||
    fail "$name: the block failed: $(cat "$tmp/err")"
  [ ! -e "$tmp/mark" ] || fail "$name: data ran as code: $(cat "$tmp/mark")"
  got=$(cat "$tmp/rec" 2>/dev/null; echo .)
  [ -n "$alt" ] && [ "$got" = "$alt" ] && { ranks1=$((ranks1 + 1)); continue; }
  [ "$got" = "$expect" ] ||
    fail "$name: argv differs: got $(printf '%s' "$got" | tr '\0\n' '|/') wanted $(printf '%s' "$expect" | tr '\0\n' '|/')"
done
# Two multi-node cases (2 x 1, 2 x 8 GPUs) on two pages, one block each run as node 1: four times.
[ "$ranks1" -eq 4 ] || fail "node 1's command $ranks1 times, not 4"
ls "$sb" | grep -q PWN && fail "a PWN file was created"
"$GEN" check --reports "$out" --root "$tmp" >"$tmp/log" 2>&1 || fail "check: $(cat "$tmp/log")"

# ---- values that cannot be valid: validate and build refuse them alike.
# expect_refused DIR PATTERN: both exit 1 with PATTERN (grep -E), build writes nothing.
expect_refused() {
  "$GEN" validate --data "$1" >"$tmp/log" 2>&1
  rc=$?
  [ $rc -eq 1 ] || fail "validate $1: exit $rc: $(cat "$tmp/log")"
  grep -Eq -- "$2" "$tmp/log" || fail "validate $1: message does not match '$2': $(cat "$tmp/log")"
  "$GEN" build --data "$1" --out "$tmp/refused" --no-charts >"$tmp/log" 2>&1
  rc=$?
  [ $rc -eq 1 ] || fail "build $1: exit $rc"
  grep -Eq -- "$2" "$tmp/log" || fail "build $1: message does not match '$2': $(cat "$tmp/log")"
  [ ! -e "$tmp/refused" ] || fail "build $1 wrote $tmp/refused"
}
n=0
bad_source() { # KEY VALUE PATTERN
  n=$((n + 1))
  src="\"repo\": \"https://example.com/r\", $(js "$1"): $(js "$2")"
  [ "$1" = repo ] && src="\"repo\": $(js "$2")"
  mkdir -p "$tmp/s$n/suites"
  cat >"$tmp/s$n/suites/x.json" <<JSON
{"perfrepro": 1, "model": "M", "framework": "F", "model_name": "m", "mission_name": "x",
 "direction_id": 0, "unit": "u", "command": ["true"], "case_name": "c",
 "source": {$src},
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1], "precision": ["fp32"]},
 "rule": {"keyword": "ips:"}}
JSON
  expect_refused "$tmp/s$n" "x.json:3:[0-9]+: $3"
}
bad_source commit 'abc; touch /tmp/x' 'source.commit: "abc; touch /tmp/x" is not a commit id \(7 to 40 hex digits\)'
bad_source commit 'abc' 'source.commit: .* is not a commit id'
bad_source commit "$VN" 'source.commit: .* is not a commit id'
bad_source repo '--upload-pack=touch PWN' "source.repo: must not be empty or start with '-'"
bad_source repo "https://x/$V" 'source.repo: control character'
bad_source path '-P' "source.path: must not be empty or start with '-'"
bad_source path "$V" 'source.path: control character'

record() { # DIR EXTRA-JSON (log_file and logs)
  mkdir -p "$1/runs/r1/logs/index" "$1/runs/r1/logs/train_log/sub"
  echo "ips: 1" >"$1/runs/r1/logs/train_log/c"
  cat >"$1/runs/r1/logs/index/c_speed" <<JSON
{$2, "model_name": "m", "mission_name": "", "direction_id": 0,
 "run_mode": "sp", "index": 1, "gpu_num": 1, "FINAL_RESULT": 1.0, "JOB_FAIL_FLAG": 0,
 "UNIT": "samples/s", "perfrepro": 1, "model": "M", "framework": "F", "case": "c",
 "precision": "fp32", "batch_size": 1, "nodes": 1, "gpus_per_node": 1, "repeat": 1,
 "origin": "parsed"}
JSON
}
n=$((n + 1)); record "$tmp/r$n" '"log_file": ""'
expect_refused "$tmp/r$n" 'c_speed:1:14: log_file: empty: a case with a FINAL_RESULT needs its log'
for logs in '[3]:logs\[0\]: expected a path' '["../x"]:logs\[0\]: "../x" must be a relative path' \
            '["/etc/passwd"]:logs\[0\]: "/etc/passwd" must be a relative path' '[""]:logs\[0\]: expected a path' \
            '["logs/train_log/c", "logs/train_log/none"]:logs\[1\]: "logs/train_log/none" does not exist' \
            '["logs/train_log/sub"]:logs\[0\]: "logs/train_log/sub" is'; do
  n=$((n + 1)); record "$tmp/r$n" "\"log_file\": \"logs/train_log/c\", \"logs\": ${logs%%:*}"
  expect_refused "$tmp/r$n" "c_speed:.*${logs#*:}"
done
# A 4 MB description: refused at its field, quickly (it cost the site 686 MB).
n=$((n + 1)); mkdir -p "$tmp/d$n/suites"
{ printf '{"perfrepro": 1, "model": "M", "framework": "F", "model_name": "m", "mission_name": "x",\n'
  printf ' "direction_id": 0, "unit": "u", "command": ["true"], "case_name": "c", "description": "'
  head -c 4000000 /dev/zero | tr '\0' '_'
  printf '",\n "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [1], "precision": ["fp32"]},\n'
  printf ' "rule": {"keyword": "ips:"}}\n'; } >"$tmp/d$n/suites/x.json"
expect_refused "$tmp/d$n" 'x.json:2:[0-9]+: description: 4000000 bytes of text: at most 16384'

# ---- names: long labels, R&D, '#', '?', ')' in folder and file names.
P="$tmp/p"
mkdir -p "$P/published" "$P/suites/M" "$P/runs/r#1?x y/logs/index" "$P/runs/r#1?x y/logs/train_log" \
  "$P/platforms"
echo '{"perfrepro": 1, "title": {"zh": "P", "en": "P"}, "device": {"kind": "gpu", "model": "G"}}' \
  >"$P/platforms/P.json"
BL=$(head -c 230 /dev/zero | tr '\0' 'b')
LB=$(head -c 530 /dev/zero | tr '\0' 'L')
rows='"rows": [{"nodes": 1, "gpus": 1, "throughput": 100}, {"nodes": 1, "gpus": 8, "throughput": 700},
           {"nodes": 2, "gpus": 16, "throughput": 1300}]'
cat >"$P/published/00.json" <<JSON
{"perfrepro": 1, "label": "$LB", "source": {"title": "t", "url": "https://example.com/x"},
 "platform": "P",
 "tables": [{"model": "M", "framework": "F", "precision": "fp32", "batch_size": 32,
             "batch_label": "R&D", "unit": "img/s", "primary": true, $rows},
            {"model": "M", "framework": "F", "precision": "fp16", "batch_size": 32,
             "batch_label": "$BL", "unit": "img/s", "primary": true, $rows}]}
JSON
cat >"$P/suites/M/F) #?x.json" <<JSON
{"perfrepro": 1, "model": "M", "framework": "F", "model_name": "m", "mission_name": "x",
 "direction_id": 0, "unit": "img/s", "command": ["true"], "case_name": "c_{gpus}",
 "matrix": {"nodes": [1], "gpus_per_node": [1], "batch_size": [32], "precision": ["fp32"]},
 "rule": {"keyword": "ips:"}}
JSON
echo "ips: 90" >"$P/runs/r#1?x y/logs/train_log/c_1"
cat >"$P/runs/r#1?x y/logs/index/c_1_speed" <<JSON
{"log_file": "logs/train_log/c_1", "model_name": "m", "mission_name": "x", "direction_id": 0,
 "run_mode": "sp", "index": 1, "gpu_num": 1, "FINAL_RESULT": 90.0, "JOB_FAIL_FLAG": 0,
 "UNIT": "img/s", "perfrepro": 1, "model": "M", "framework": "F", "case": "c_1",
 "precision": "fp32", "batch_size": 32, "nodes": 1, "gpus_per_node": 1, "repeat": 1,
 "origin": "parsed", "platform": "P"}
JSON
"$GEN" validate --data "$P" >"$tmp/log" 2>&1 || fail "names: validate: $(cat "$tmp/log")"
if fc-list 2>/dev/null | grep -q "Noto Sans CJK"; then
  charts=
else
  charts=--no-charts
  echo "no Noto Sans CJK font: the long-label charts are not drawn"
fi
"$GEN" build --data "$P" --out "$P/reports" $charts >"$tmp/log" 2>&1 ||
  fail "names: build: $(cat "$tmp/log")"
if [ -z "$charts" ]; then
  nsvg=$(find "$P/reports" -name '*.svg' | wc -l)
  [ "$nsvg" -ge 8 ] || fail "names: only $nsvg charts"
  long=$(find "$P/reports" -type f | awk -F/ 'length($NF) > 80' | head -n 3)
  [ -z "$long" ] || fail "names: long file names: $long"
fi
# The machine's page (PLATFORM-*.md, fw_split.h) holds its configurations.
pg="$P/reports/M/F/PLATFORM-p.en.md"
# The heading with R&D: escaped once, and its anchor is the one GitHub
# gives it (check, below, resolves every link to it).
grep -q '^#### FP32 BS=R&amp;D · P$' "$pg" || fail "names: the R&D heading"
printf '\n[to R&D](#fp32-bsrd--p)\n' >>"$pg"
grep -q '| FP32 BS=R&amp;D |' "$pg" || fail "names: the table head is not R&amp;D"
grep -q '&amp;amp;' "$pg" && fail "names: escaped twice"
grep -q 'runs/r%231%3Fx%20y/logs/train_log/c_1)' "$pg" || fail "names: log link not encoded"
grep -q 'suites/M/F%29%20%23%3Fx.json)' "$P/reports/M/F/README.en.md" || fail "names: suite link not encoded"
"$GEN" check --reports "$P/reports" >"$tmp/log" 2>&1 || fail "names: check: $(cat "$tmp/log")"
# check decodes a link and flags it when the file is missing.
printf '\n[gone](../../../runs/r%%231%%3Fx%%20y/logs/train_log/none)\n' >>"$pg"
"$GEN" check --reports "$P/reports" >"$tmp/log" 2>&1 && fail "names: check said ok to a broken link"
grep -q "no such file (runs/r#1?x y/logs/train_log/none)" "$tmp/log" ||
  fail "names: check message: $(cat "$tmp/log")"

finish "ok: $nblocks command blocks, refusals, names"
