#!/bin/sh
# Every command block of the shipped reports runs as written.  The reports
# are built from data/ into a temporary folder; each ```bash block of every
# page (zh and en) is extracted and must:
#   - parse (bash -n);
#   - hold no placeholder for the reader to edit (<path to data>, <perfrepro>)
#     and no {name} left from a template;
#   - hold no command substitution $( or backquote: the blocks are made from
#     structured data (argv words, per-precision words), never shell glue;
# and no page may clone one repository twice.
. tests/scripts/lib/preamble.sh
need_bins GEN
command -v bash >/dev/null || { echo "no bash"; exit 77; }

ln -s "$PWD/data" "$tmp/data"
ln -s "$PWD/templates" "$tmp/templates"
(cd "$tmp" && "$GEN" build --out reports --no-charts) >"$tmp/log" 2>&1 ||
  { fail "build: $(cat "$tmp/log")"; exit 1; }

nblocks=0 npages=0
find "$tmp/reports" -name 'README*.md' | sort >"$tmp/pages"
while IFS= read -r page; do
  npages=$((npages + 1))
  rel=${page#"$tmp/reports/"}
  dir="$tmp/blocks/$npages"
  mkdir -p "$dir"
  # Each ```bash block (the fence may be longer than three) into its own file.
  awk -v dir="$dir" '
    fence == "" && /^```+bash$/ { fence = $0; sub(/bash$/, "", fence); n++;
                                  f = sprintf("%s/%03d", dir, n); printf "" > f; next }
    fence != "" && $0 == fence { fence = ""; close(f); next }
    fence != "" { print > f }' "$page"
  for b in "$dir"/*; do
    [ -f "$b" ] || continue
    nblocks=$((nblocks + 1))
    where="$rel block $(basename "$b")"
    bash -n "$b" 2>"$tmp/err" || fail "$where: bash -n: $(cat "$tmp/err")"
    # A single-quoted word without a blank is a literal argument ('<unk>', a
    # vocabulary token), not a placeholder to edit ("<path to data>").
    sed "s/'[^' ]*'//g" "$b" | grep -n '<[A-Za-z][^<>]*>' >"$tmp/hit" &&
      fail "$where: a placeholder to edit: $(cat "$tmp/hit")"
    sed 's/\${[A-Za-z_][A-Za-z0-9_]*:?}//g' "$b" | grep -n '{[A-Za-z_][A-Za-z0-9_]*}' >"$tmp/hit" &&
      fail "$where: template residue: $(cat "$tmp/hit")"
    grep -n '\$(\|`' "$b" >"$tmp/hit" && fail "$where: shell glue: $(cat "$tmp/hit")"
  done
  # One clone per repository per recipe: the page's own steps, or one run
  # set's steps that produced its figures (a folded block "<details><summary>Run
  # set" / "<details><summary>运行组").
  awk '/^<details><summary>(Run set|运行组)/ { sect = $0 } /^##?#? |^<\/details>/ { sect = "" }
       /^git clone / { print sect "\t" $3 }' "$page" | sort | uniq -d >"$tmp/dup"
  [ -s "$tmp/dup" ] && fail "$rel: cloned twice: $(cat "$tmp/dup")"
done <"$tmp/pages"
[ "$npages" -gt 10 ] || fail "only $npages pages"
[ "$nblocks" -gt 50 ] || fail "only $nblocks bash blocks"

# What the issue named, on the pages themselves.
P="$tmp/reports/ResNet50/PyTorch/README.en.md"
for want in '--dist-url tcp://"$MASTER_ADDR":"$MASTER_PORT"' '--multiprocessing-distributed' \
            '--world-size 4 --rank "$NODE_RANK"' '--world-size 2 --rank "$NODE_RANK"'; do
  grep -qF -- "$want" "$P" || fail "ResNet50/PyTorch: no $want"
done
M="$tmp/reports/DeepLabV3plus/mmsegmentation/README.md"
# One block for every node of a multi-node case: the rank is the node's NODE_RANK.
grep -qF 'NNODES=4 NODE_RANK="$NODE_RANK"' "$M" || fail "mmsegmentation: no 4-node command taking NODE_RANK"
for page in "$tmp/reports/GPT/Megatron/README.en.md" "$tmp/reports/MobileNetV1/MXNet/README.en.md"; do
  grep -q 'clones the default branch' "$page" || fail "$page: does not say it clones the default branch"
done
# The Megatron page's title names Megatron once (it read "Megatron … Megatron …").
for page in "$tmp/reports/GPT/Megatron/README.md" "$tmp/reports/GPT/Megatron/README.en.md"; do
  title=$(grep -m1 '^# ' "$page")
  [ "$(printf '%s\n' "$title" | grep -o Megatron | wc -l)" -eq 1 ] || fail "$page: title $title"
done
echo "$npages pages, $nblocks bash blocks"
[ "$fails" -eq 0 ]
