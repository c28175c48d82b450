#!/bin/sh
# import --mlperf makes a platform per system from its description
# (systems/SYSTEM.json): a synthetic CPU-only cluster (4 nodes, no
# accelerators, 1 socket x 8 cores x 16 threads) becomes a CPU platform of
# 4 nodes and 16 threads per node, which perfrepro-gen validates; a GPU box
# keeps its accelerators per node; a count that is no number is refused
# naming the file and the key.  Exit 0 pass, other fail.
set -u
GEN="${GEN:-bin/perfrepro-gen}"
MEASURE="${MEASURE:-bin/perfrepro-measure}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
sub="$tmp/Acme"
mkdir -p "$sub/systems" "$sub/results/cpu4/resnet" "$tmp/data/platforms"
cat >"$sub/systems/cpu4.json" <<'J'
{"submitter": "Acme", "system_name": "Acme CPU cluster", "number_of_nodes": "4",
 "host_processors_per_node": "1", "host_processor_model_name": "AMD EPYC 7302",
 "host_processor_core_count": "8", "host_processor_vcpu_count": "16",
 "host_memory_capacity": "256 GB", "accelerators_per_node": "0",
 "accelerator_model_name": "", "accelerator_memory_capacity": "",
 "accelerator_interconnect": "", "framework": "PyTorch 2.3",
 "other_software_stack": {"python": "3.11"}}
J
i=0
for ms in 600000 540000 660000 630000 570000; do
    {
        echo ':::MLLOG {"key": "submission_benchmark", "value": "resnet", "time_ms": 1}'
        echo ':::MLLOG {"key": "run_start", "value": null, "time_ms": 1000, "metadata": {}}'
        echo ":::MLLOG {\"key\": \"run_stop\", \"value\": null, \"time_ms\": $((1000 + ms)), \"metadata\": {\"status\": \"success\"}}"
    } >"$sub/results/cpu4/resnet/result_$i.txt"
    i=$((i + 1))
done
"$MEASURE" import --mlperf "$sub" --data "$tmp/data" >"$tmp/out" 2>&1 || fail "import: $(cat "$tmp/out")"
p="$tmp/data/platforms/mlperf-Acme-cpu4.json"
[ -f "$p" ] || fail "no platform $p"
/usr/bin/python3 - "$p" <<'PY' || fail "platform content: $(cat "$p")"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["device"] == {"kind": "cpu", "model": "AMD EPYC 7302", "per_node": 16}, p["device"]
s = p["system"]
assert s["nodes"] == 4 and s["host"]["threads"] == 16 and s["host"]["cores"] == 8, s
assert s["description"] == "Acme/systems/cpu4.json" and s["software"] == {"python": "3.11"}, s
PY
"$GEN" validate --data "$tmp/data" >"$tmp/v" 2>&1 || fail "gen validate: $(cat "$tmp/v")"
grep -q 'score 10 min' "$tmp/out" || fail "score: $(cat "$tmp/out")"
# a second import writes the same bytes
cp "$p" "$tmp/first.json"
"$MEASURE" import --mlperf "$sub" --data "$tmp/data" >/dev/null 2>&1 || fail "second import"
cmp -s "$p" "$tmp/first.json" || fail "a second import changed the platform"
# a count that is no number is refused, naming the file and the key
sed 's/"number_of_nodes": "4"/"number_of_nodes": "four"/' "$sub/systems/cpu4.json" >"$tmp/s" &&
    mv "$tmp/s" "$sub/systems/cpu4.json"
"$MEASURE" import --mlperf "$sub" --data "$tmp/data" >"$tmp/out" 2>&1 && fail "\"four\" nodes imported"
grep -q 'cpu4.json.*number_of_nodes.*"four"' "$tmp/out" || fail "refusal: $(cat "$tmp/out")"
# --mlperf with a manifest is a usage error
"$MEASURE" import m.txt --mlperf "$sub" >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "--mlperf with a manifest: not exit 2"
echo ok
