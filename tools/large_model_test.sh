#!/usr/bin/env bash
# The tools on a generated MLP with external data (64 MiB here; tools/bench:large_model_memory runs
# the same at 3 GiB and reports memory): saving copies the weights file to file, so with no pass
# changing them the side file equals the input's byte for byte; the default pipeline and conversion
# verify (the interpreter reads weights whose pages are released as it goes); the input is never
# touched.
set -uo pipefail
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
make_model=$(abs "$1")
opt=$(abs "$2")
convert=$(abs "$3")
run=$(abs "$4")
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/large.XXXXXX")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

mkdir -p "$work/in" "$work/out"
"$make_model" "$work/in" 0.0625 1024 >/dev/null || { echo "cannot make the model"; exit 1; }
[ "$(stat -c %s "$work/in/large.onnx.data")" = $((64 << 20)) ] || { echo "the model is not 64 MiB"; exit 1; }
before=$(cat "$work/in/large.onnx" "$work/in/large.onnx.data" | sha256sum)

"$opt" "$work/in/large.onnx" -o "$work/out/nops.onnx" --passes=nops 2>"$work/log" || fail "load + save: $(cat "$work/log")"
cmp -s "$work/in/large.onnx.data" "$work/out/nops.onnx.data" || fail "saved external data differs from the input's"

"$opt" "$work/in/large.onnx" -o "$work/out/opt.onnx" --verify 2>"$work/log" || fail "default --verify: $(cat "$work/log")"
grep -q "verified: 1 output equal" "$work/log" || fail "default --verify did not verify: $(cat "$work/log")"
# The fused model computes the same as the input on other inputs too.
"$opt" "$work/out/opt.onnx" -o "$work/out/again.onnx" --passes=nops --verify --seed=7 2>"$work/log" ||
  fail "the optimized model does not run: $(cat "$work/log")"

"$convert" "$work/in/large.onnx" -o "$work/out/conv.onnx" --opset=20 --verify 2>"$work/log" ||
  fail "onnx-convert --verify: $(cat "$work/log")"
cmp -s "$work/in/large.onnx.data" "$work/out/conv.onnx.data" || fail "converted external data differs from the input's"

# Repeated runs read the weights into memory once (ir/resident_weights.h): the same outputs as a
# single run over the mapping.
"$run" "$work/in/large.onnx" --outputs "$work/run1" 2>"$work/log" >/dev/null || fail "onnx-run: $(cat "$work/log")"
"$run" "$work/in/large.onnx" --outputs "$work/run3" --repeat=3 2>"$work/log" >/dev/null ||
  fail "onnx-run --repeat=3: $(cat "$work/log")"
cmp -s "$work/run1/output_0.pb" "$work/run3/output_0.pb" || fail "onnx-run --repeat=3 changed the outputs"

[ "$(cat "$work/in/large.onnx" "$work/in/large.onnx.data" | sha256sum)" = "$before" ] || fail "the input changed"
# Outputs are written whole: no temporary files are left behind.
leftovers=$(find "$work/out" -name '.*.tmp.*')
[ -z "$leftovers" ] || fail "temporary files left: $leftovers"

rm -rf "$work"
if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS"
