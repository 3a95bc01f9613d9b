#!/bin/bash
# process_bench runs the three tools on a tiny model and prints a row for each, with phase shares.
set -euo pipefail
out=$(tools/bench/process_bench --runs=1 --generated= --tools_dir=tools testdata/models/tiny_cnn.onnx)
echo "$out"
for tool in onnx-check onnx-opt onnx-convert; do
  grep -Eq "^tiny_cnn .* $tool +[0-9.]+ +[0-9.]+ +[0-9]+%" <<<"$out" || { echo "no row for $tool"; exit 1; }
done
grep -q "^start-up (--version)" <<<"$out" || { echo "no start-up line"; exit 1; }

# With a baseline, each row is followed by the baseline's, timed alternately.
out=$(tools/bench/process_bench --runs=1 --generated= --tools_dir=tools --baseline_dir=tools testdata/models/tiny_cnn.onnx)
echo "$out"
[ "$(grep -Ec '^ +baseline +[0-9.]+ +[0-9.]+ +[0-9]+%' <<<"$out")" -eq 3 ] || { echo "expected 3 baseline rows"; exit 1; }
grep -q "(baseline [0-9.]*)" <<<"$out" || { echo "no baseline start-up"; exit 1; }
