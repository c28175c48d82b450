#!/bin/sh
# perfrepro-gen import-table on the table shapes of issue 33 item 5:
#   - node count and GPU count in two columns (--nodes-column, --gpus-column):
#     each row's counts from its own cells, not the first cell; a column not
#     in the header and a count that is not a whole number are errors naming
#     the file, line and option;
#   - a CSV file read as one table (RFC 4180: quoted fields with commas, ""
#     and Markdown punctuation kept as written), its rows named by their CSV
#     lines, the figures exactly as printed; a byte order mark left out; a
#     .tsv file split at tabs; a CSV whose table would pass 4 MiB refused;
#   - the manifest's table line takes both options (measure import).
. tests/scripts/lib/preamble.sh
need_bins GEN
mkdir -p "$tmp/data/published" "$tmp/data/platforms"
cp data/platforms/V100-SXM2-32GB-x8.json "$tmp/data/platforms/"
imp() { # imp FILE OUT OPTION...
  f=$1 out=$2
  shift 2
  "$GEN" import-table --markdown "$f" --column 'Throughput' --model M --framework F \
    --precision fp32 --batch-size 8 --unit samples/s --platform V100-SXM2-32GB-x8 \
    --repo o/r --commit 0123456789abcdef0123456789abcdef01234567 --path "$(basename "$f")" \
    --out "$out" "$@"
}
rows() { python3 -c 'import json,sys
for t in json.load(open(sys.argv[1]))["tables"]:
  print(t["source"]["line"], *["%d/%d=%s" % (r["nodes"], r["gpus"], r.get("printed")) for r in t["rows"]])' "$1"; }

# Two columns: nodes and (total) GPUs.
cat >"$tmp/two.md" <<'MD'
## Results

| System | Nodes | GPUs | Throughput |
|---|---|---|---|
| box-a | 1 | 8 | 100.5 |
| cluster-b | 4 | 32 | 380.25 |
| cluster-c | 2 | 16 | - |
MD
imp "$tmp/two.md" "$tmp/data/published/two.json" --table 1 --nodes-column Nodes --gpus-column GPUs \
  >"$tmp/log" 2>&1 || fail "two columns: exit $? ($(cat "$tmp/log"))"
[ "$(rows "$tmp/data/published/two.json" 2>&1)" = "3 1/8=100.5 4/32=380.25" ] ||
  fail "two columns: read $(rows "$tmp/data/published/two.json" 2>&1)"
# GPUs alone: nodes split by --gpus-per-node.
imp "$tmp/two.md" "$tmp/data/published/gpus.json" --table 1 --gpus-column GPUs --model G >"$tmp/log" 2>&1 ||
  fail "GPU column alone: exit $? ($(cat "$tmp/log"))"
[ "$(rows "$tmp/data/published/gpus.json" 2>&1)" = "3 1/8=100.5 4/32=380.25" ] ||
  fail "GPU column alone: read $(rows "$tmp/data/published/gpus.json" 2>&1)"
imp "$tmp/two.md" "$tmp/data/published/x.json" --table 1 --gpus-column Devices >"$tmp/log" 2>&1 &&
  fail "an unknown GPU column was accepted"
grep -qF "two.md:3: --gpus-column: table 1 has no column \"Devices\"" "$tmp/log" ||
  fail "unknown column: $(cat "$tmp/log")"
sed 's/| 4 | 32 |/| four | 32 |/' "$tmp/two.md" >"$tmp/bad.md"
imp "$tmp/bad.md" "$tmp/data/published/x.json" --table 1 --nodes-column Nodes --gpus-column GPUs \
  >"$tmp/log" 2>&1 && fail "a node count \"four\" was accepted"
grep -qF 'bad.md:6: Nodes: "four" is not a node count' "$tmp/log" || fail "bad count: $(cat "$tmp/log")"
[ -e "$tmp/data/published/x.json" ] && fail "a failed import wrote its file"

# CSV: quoted fields, a comma and a quote inside, Markdown punctuation as is.
printf 'System,Nodes,GPUs,Throughput,Note\r\nbox-a,1,8,100.50,"plain, with a comma"\r\n\r\n"cluster *b*",4,32,380.25,"say ""hi"" | pipe"\r\n' >"$tmp/res.csv"
imp "$tmp/res.csv" "$tmp/data/published/csv.json" --nodes-column Nodes --gpus-column GPUs --model C >"$tmp/log" 2>&1 ||
  fail "csv: exit $? ($(cat "$tmp/log"))"
[ "$(rows "$tmp/data/published/csv.json" 2>&1)" = "1 1/8=100.50 4/32=380.25" ] ||
  fail "csv: read $(rows "$tmp/data/published/csv.json" 2>&1)"
grep -qF '"url": "https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/res.csv#L1"' \
  "$tmp/data/published/csv.json" || fail "csv: the source link is not the CSV's line 1"
printf 'GPUs,Throughput\n1,10.5\n8,x80\n' >"$tmp/bad.csv"
imp "$tmp/bad.csv" "$tmp/data/published/x.json" --gpus-column GPUs >"$tmp/log" 2>&1 &&
  fail "csv: a figure x80 was accepted"
grep -qF 'bad.csv:3: Throughput: "x80" is not a figure' "$tmp/log" || fail "csv bad figure: $(cat "$tmp/log")"
# A first column the CSV names its GPU counts in, as in Markdown tables.
printf 'GPUs,Throughput\n1,10.5\n8,80\n' >"$tmp/first.csv"
imp "$tmp/first.csv" "$tmp/data/published/first.json" --model First >"$tmp/log" 2>&1 || fail "csv first cell: $(cat "$tmp/log")"
[ "$(rows "$tmp/data/published/first.json" 2>&1)" = "1 1/1=10.5 1/8=80" ] ||
  fail "csv first cell: read $(rows "$tmp/data/published/first.json" 2>&1)"

# A byte order mark (spreadsheets write one) is not part of the first header;
# a .tsv file is read the same way, split at tabs.
printf '\357\273\277GPUs,Throughput\n1,10.5\n' >"$tmp/bom.csv"
imp "$tmp/bom.csv" "$tmp/data/published/bom.json" --model Bom --gpus-column GPUs >"$tmp/log" 2>&1 ||
  fail "csv with a BOM: $(cat "$tmp/log")"
printf 'Nodes\tGPUs\tThroughput\n2\t16\t150.75\n' >"$tmp/res.tsv"
imp "$tmp/res.tsv" "$tmp/data/published/tsv.json" --model Tsv --nodes-column Nodes --gpus-column GPUs \
  >"$tmp/log" 2>&1 || fail "tsv: $(cat "$tmp/log")"
[ "$(rows "$tmp/data/published/tsv.json" 2>&1)" = "1 2/16=150.75" ] ||
  fail "tsv: read $(rows "$tmp/data/published/tsv.json" 2>&1)"

# A 3 MiB header of commas: the table it would make (three bytes a comma) is
# refused before cmark reads it.
python3 -c 'import sys; sys.stdout.write("," * (3 << 20) + "\n1\n")' >"$tmp/wide.csv"
imp "$tmp/wide.csv" "$tmp/data/published/x.json" --gpus-column GPUs >"$tmp/log" 2>&1 &&
  fail "a 3 MiB row of commas was read"
grep -qF 'wide.csv: the table it makes is larger than 4 MiB' "$tmp/log" || fail "wide csv: $(cat "$tmp/log")"

finish "import_table_shapes: ok"
