#!/usr/bin/env bash
# Sets up the machine, builds the tools, and runs the main job on the bundled model: check it,
# optimize it with the default pipeline (printing what each pass did), and check the result.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
bazel build -c opt //tools:onnx-check //tools:onnx-opt

model=testdata/models/tiny_cnn.onnx
out=$(mktemp -d)/tiny_cnn.opt.onnx
./bazel-bin/tools/onnx-check "$model"
./bazel-bin/tools/onnx-opt "$model" -o "$out" --print-stats
./bazel-bin/tools/onnx-check "$out"
echo "demo: wrote $out ($(stat -c %s "$model") -> $(stat -c %s "$out") bytes)"
