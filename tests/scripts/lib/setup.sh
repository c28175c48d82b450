# Data folders the test scripts build on, sourced after the preamble:
#   . tests/scripts/lib/setup.sh
# Functions (each writes under $tmp, from the repository root):
#   toy_gpu_data  $tmp/data with the platform "Toy GPU × 8" (platforms/
#             Toy-GPU-x8.json: 8 GPUs of 16 GB a node, matched by the device
#             name "Toy GPU") and the shipped precision classes, and a copy of
#             the templates at $tmp/templates
#   shipped_platforms_data  $tmp/data with runs/, published/ and the shipped
#             platforms and precision classes, a copy of the templates at
#             $tmp/templates, and an import's source folder $tmp/from with
#             logs/ and a LICENSE
#   repo_copy [PATH...]  $tmp/repo: a copy of data/, templates/ and each PATH
#             given, with bin/perfrepro-gen and bin/perfrepro-measure linked
#             to the binaries under test ($GEN, $MEASURE)
# Variables and functions of its own begin with setup_.

toy_gpu_data() {
  mkdir -p "$tmp/data/platforms"
  cp -R templates "$tmp/templates"
  cp data/precision-classes.json "$tmp/data/"
  cat >"$tmp/data/platforms/Toy-GPU-x8.json" <<'JSON'
{"perfrepro": 1, "title": {"zh": "Toy GPU × 8", "en": "Toy GPU × 8"},
 "device": {"kind": "gpu", "model": "Toy GPU", "memory_gb": 16, "per_node": 8},
 "interconnect": "none", "match": ["Toy GPU"]}
JSON
}

shipped_platforms_data() {
  mkdir -p "$tmp/data/runs" "$tmp/data/published" "$tmp/from/logs"
  cp -R data/platforms data/precision-classes.json "$tmp/data/"
  cp -R templates "$tmp/templates"
  echo "test licence" >"$tmp/from/LICENSE"
}

repo_copy() { # [PATH...]
  mkdir -p "$tmp/repo/bin"
  cp -R data templates "$@" "$tmp/repo/"
  ln -s "$GEN" "$tmp/repo/bin/perfrepro-gen"
  ln -s "$MEASURE" "$tmp/repo/bin/perfrepro-measure"
}
