#!/usr/bin/env bash
# onnx-compare's verdicts from the command line: equal models, a rewrite that is right only at batch 1
# (caught with default flags), infinities and NaN; usage errors; and two edges of the proof: an IR 3
# model whose data input comes after its weights, run on a folder of inputs, and a pipeline's round
# bound too large to hold.
set -uo pipefail
to_onnx=$1
compare=$2
opt=$3
run=$4
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/compare.XXXXXX")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
model() {  # model NAME < TEXT: writes $work/NAME.onnx
  cat >"$work/$1.txt"
  "$to_onnx" "$work/$1.txt" "$work/$1.onnx" || fail "cannot make $1"
}

model sum <<'M'
<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 3] x, float[1, 3] b) => (float[1, 3] y) {
  axes = Constant<value = int64[1] {0}>()
  s = Add(x, b)
  y = ReduceSum<keepdims = 1>(s, axes)
}
M
# Right only when N is 1: the sum over the batch dropped.
model sum_at_batch_one <<'M'
<ir_version: 8, opset_import: ["" : 17]>
g (float[N, 3] x, float[1, 3] b) => (float[1, 3] y) {
  y = Add(x, b)
}
M

out=$("$compare" "$work/sum.onnx" "$work/sum.onnx" 2>"$work/err"); rc=$?
[ "$rc" -eq 0 ] || fail "a model against itself: exit $rc: $out $(cat "$work/err")"
grep -q "^y: equal (max abs error 0, max rel error 0)$" <<<"$out" || fail "no per-output line: $out"
grep -q "^equal: 1 output at N=2 and at N=3$" <<<"$out" || fail "no verdict with the sizes: $out"

out=$("$compare" "$work/sum.onnx" "$work/sum_at_batch_one.onnx" 2>"$work/err"); rc=$?
[ "$rc" -eq 1 ] || fail "batch-1-only rewrite: exit $rc, expected 1: $out $(cat "$work/err")"
grep -q "^y: different: " <<<"$out" || fail "batch-1-only rewrite: $out $(cat "$work/err")"
grep -q "^different: 1 of 1 outputs" <<<"$out" || fail "batch-1-only rewrite, verdict: $out"
"$compare" "$work/sum.onnx" "$work/sum_at_batch_one.onnx" --dim N=1 >"$work/out" 2>&1 ||
  fail "at N=1 the two agree: $(cat "$work/out")"

# Infinities match only the same infinity, and NaN only NaN.
model minus_inf <<'M'
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) {
  z = Sub(x, x)
  y = Log(z)
}
M
model plus_inf <<'M'
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) {
  z = Sub(x, x)
  l = Log(z)
  y = Neg(l)
}
M
model finite <<'M'
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) {
  y = Identity(x)
}
M
model nan <<'M'
<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) {
  z = Sub(x, x)
  y = Div(z, z)
}
M
"$compare" "$work/minus_inf.onnx" "$work/minus_inf.onnx" >/dev/null 2>&1 || fail "-inf against -inf should be equal"
"$compare" "$work/nan.onnx" "$work/nan.onnx" >/dev/null 2>&1 || fail "NaN against NaN should be equal"
out=$("$compare" "$work/minus_inf.onnx" "$work/plus_inf.onnx" 2>&1); rc=$?
[ "$rc" -eq 1 ] || fail "-inf against +inf: exit $rc: $out"
grep -q "is inf, expected -inf" <<<"$out" || fail "-inf against +inf: $out"
out=$("$compare" "$work/finite.onnx" "$work/nan.onnx" 2>&1); rc=$?
[ "$rc" -eq 1 ] || fail "finite against NaN: exit $rc: $out"
out=$("$compare" "$work/finite.onnx" "$work/plus_inf.onnx" 2>&1); rc=$?
[ "$rc" -eq 1 ] || fail "finite against inf: exit $rc: $out"

# Usage errors exit 2; a model that does not load exits 1.
"$compare" "$work/sum.onnx" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "one model: exit $rc, expected 2"
"$compare" "$work/sum.onnx" "$work/sum.onnx" --tolerance=abc >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "--tolerance=abc: exit $rc, expected 2"
"$compare" "$work/sum.onnx" "$work/missing.onnx" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 1 ] || fail "a missing model: exit $rc, expected 1"

# A round bound that does not fit is a usage error with one line, not an abort.
err=$("$opt" "$work/sum.onnx" -o "$work/bound.onnx" --passes='fixed<99999999999>(fold)' 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] || fail "fixed<99999999999>: exit $rc, expected 2: $err"
[ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || fail "fixed<99999999999>: not one line: $err"
[ ! -e "$work/bound.onnx" ] || fail "fixed<99999999999> wrote an output"

# IR 3 lists weights among the graph inputs, here before the data: input_0.pb is the first input
# without an initializer, or the input its tensor is named after.
model ir3 <<'M'
<ir_version: 3, opset_import: ["" : 9]>
g (float[2] w, float[1, 2] data_0) => (float[1, 2] y)
  <float[2] w = {10, 20}> {
  y = Add(data_0, w)
}
M
model named_data <<'M'
<ir_version: 8, opset_import: ["" : 17]>
g () => (float[1, 2] data_0) {
  data_0 = Constant<value = float[1, 2] {1, 2}>()
}
M
model unnamed_data <<'M'
<ir_version: 8, opset_import: ["" : 17]>
g () => (float[1, 2] t) {
  t = Constant<value = float[1, 2] {1, 2}>()
}
M
model expected <<'M'
<ir_version: 8, opset_import: ["" : 17]>
g () => (float[1, 2] y) {
  y = Constant<value = float[1, 2] {11, 22}>()
}
M
"$run" "$work/expected.onnx" --outputs "$work/expected.out" >/dev/null 2>&1 || fail "cannot run the expected model"
for kind in named unnamed; do
  "$run" "$work/${kind}_data.onnx" --outputs "$work/$kind.gen" >/dev/null 2>&1 || fail "cannot make $kind input"
  mkdir -p "$work/$kind.in"
  mv "$work/$kind.gen/output_0.pb" "$work/$kind.in/input_0.pb"
  "$run" "$work/ir3.onnx" --inputs "$work/$kind.in" --outputs "$work/$kind.out" >"$work/err" 2>&1 ||
    fail "onnx-run on an IR 3 model with a $kind input file: $(cat "$work/err")"
  cmp -s "$work/$kind.out/output_0.pb" "$work/expected.out/output_0.pb" ||
    fail "IR 3 with a $kind input file did not compute data_0 + w = {11, 22}"
done

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "compare_test: all passed"
