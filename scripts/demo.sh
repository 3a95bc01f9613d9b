#!/usr/bin/env bash
# Sets up the machine, builds the tools, and runs the main job on the bundled model: check it,
# optimize it with the default pipeline (printing what each pass did and the size report), and check
# the result.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
bazel build -c opt //tools:onnx-check //tools:onnx-opt

bin=$(bazel info -c opt bazel-bin)
outdir=$(mktemp -d)
for name in tiny_cnn transformer_block; do
  model=testdata/models/$name.onnx
  out=$outdir/$name.opt.onnx
  echo "== $model"
  "$bin/tools/onnx-check" "$model"
  # Optimize with the default pipeline, prove the result computes the same outputs, print what
  # each pass did and the size report (bytes, nodes by op type, output error).
  "$bin/tools/onnx-opt" "$model" -o "$out" --verify --dim N=2 --print-stats --report
  "$bin/tools/onnx-check" "$out"
  echo "demo: wrote $out ($(stat -c %s "$model") -> $(stat -c %s "$out") bytes)"
done
