#!/usr/bin/env bash
# The command-line tools on broken and hostile models: each gives one clear line and exit status 1,
# never a crash and never an output file; good models pass; usage errors exit 2.
set -uo pipefail
# (Pipelines into grep use plain grep, not grep -q: -q stops reading at the first match, and a
# writer still printing then dies of SIGPIPE, which pipefail reports as a failure.)
check=$1
opt=$2
make_bad=$3
good=$4
run=$5
convert=$6
make_old=$7
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/cli.XXXXXX")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$make_bad" "$good" "$work" || { echo "cannot make the bad models"; exit 1; }

for model in truncated random cycle undefined_input duplicate_output deep_nesting huge_dims escaping_external_data \
             two_value_attribute if_output_count; do
  # The verdict goes to stderr, one line; stdout (where "MODEL: ok" goes) stays empty.
  stdout=$("$check" "$work/$model.onnx" 2>"$work/$model.check.err"); rc=$?
  out=$(cat "$work/$model.check.err")
  [ "$rc" -eq 1 ] || fail "onnx-check $model: exit $rc, expected 1"
  [ -z "$stdout" ] || fail "onnx-check $model: printed on stdout: $stdout"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "onnx-check $model: expected one line, got: $out"
  case "$out" in *": error: "*) ;; *) fail "onnx-check $model: no error line: $out" ;; esac
  echo "onnx-check $model -> $out"

  err=$("$opt" "$work/$model.onnx" -o "$work/$model.out.onnx" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 1 ] || fail "onnx-opt $model: exit $rc, expected 1"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "onnx-opt $model: expected one line, got: $err"
  [ ! -e "$work/$model.out.onnx" ] || fail "onnx-opt $model: wrote an output file"
done
# Specific messages a user needs to see.
expect_message() {
  local out
  out=$("$check" "$work/$1.onnx" 2>&1 >/dev/null)
  case "$out" in *"$2"*) ;; *) fail "$1: expected '$2' in: $out" ;; esac
}
expect_message cycle "has a cycle through"
expect_message undefined_input "input 'missing' is not defined"
expect_message duplicate_output "output 'Y' is already defined"
expect_message huge_dims "dims [2147483648,2147483648]"
expect_message escaping_external_data "leaves the model folder"
expect_message truncated "cannot parse"
expect_message two_value_attribute "attribute 'alpha' carries 2 values (fields f, i); an attribute holds exactly one"
expect_message if_output_count "then_branch 'then_branch_g' produces 2 outputs but the node has 1 output"
# float8 in an IR 8 model: refused (onnxruntime refuses it too), after the warning that opset 19 is
# newer than IR 8 (which alone would pass).
f8="$work/float8_at_ir8.onnx"
"$check" "$f8" >/dev/null 2>"$work/f8.err"; rc=$?
[ "$rc" -eq 1 ] || fail "onnx-check float8 at IR 8: exit $rc, expected 1"
grep -q "^$f8: error: graph 'g': input 'X': element type float8e4m3fn needs IR version >= 9 (the model has 8)$" "$work/f8.err" ||
  fail "onnx-check float8 at IR 8: $(cat "$work/f8.err")"
"$convert" "$f8" -o "$work/f8.out.onnx" --opset=21 2>"$work/f8c.err"; rc=$?
[ "$rc" -eq 1 ] && [ ! -e "$work/f8.out.onnx" ] || fail "onnx-convert float8 at IR 8: exit $rc: $(cat "$work/f8c.err")"
# Both branches are wrong: one line saying so, or with --all-errors a line per error, all on stderr.
grep -q "(and 1 more)$" "$work/if_output_count.check.err" || fail "onnx-check: $(cat "$work/if_output_count.check.err")"
"$check" --all-errors "$work/if_output_count.onnx" >"$work/all.out" 2>"$work/all.err"; rc=$?
[ "$rc" -eq 1 ] || fail "onnx-check --all-errors: exit $rc, expected 1"
[ ! -s "$work/all.out" ] || fail "onnx-check --all-errors printed errors on stdout: $(cat "$work/all.out")"
[ "$(grep -c ": error: " "$work/all.err")" -eq 2 ] || fail "onnx-check --all-errors: $(cat "$work/all.err")"
# A valid and an invalid model in one run: the verdicts land on stdout and stderr respectively.
"$check" "$good" "$work/cycle.onnx" >"$work/mixed.out" 2>"$work/mixed.err"; rc=$?
[ "$rc" -eq 1 ] || fail "onnx-check good+bad: exit $rc, expected 1"
[ "$(cat "$work/mixed.out")" = "$good: ok" ] || fail "onnx-check good+bad stdout: $(cat "$work/mixed.out")"
grep -q "^$work/cycle.onnx: error: " "$work/mixed.err" || fail "onnx-check good+bad stderr: $(cat "$work/mixed.err")"

# A good model passes and optimizes; the input is untouched.
cp "$good" "$work/good.onnx"
before=$(md5sum < "$work/good.onnx")
"$check" "$work/good.onnx" | grep ": ok$" >/dev/null || fail "good model not ok"
"$opt" "$work/good.onnx" -o "$work/good.opt.onnx" || fail "onnx-opt failed on the good model"
"$check" "$work/good.opt.onnx" | grep ": ok$" >/dev/null || fail "optimized model not ok"
[ "$(md5sum < "$work/good.onnx")" = "$before" ] || fail "input file changed"
# stdin to stdout.
"$opt" - -o - < "$work/good.onnx" | "$check" - | grep "^-: ok$" >/dev/null || fail "stdin/stdout pipeline"
# Writing over the input is safe (atomic).
"$opt" "$work/good.onnx" -o "$work/good.onnx" || fail "in-place optimize"
"$check" "$work/good.onnx" | grep ": ok$" >/dev/null || fail "in-place result not ok"

# Usage errors exit 2; --help exits 0 and lists the options.
"$opt" >/dev/null 2>&1; [ $? -eq 2 ] || fail "onnx-opt without arguments should exit 2"
"$opt" "$work/good.onnx" -o "$work/x.onnx" --passes=nonsense >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown pass should exit 2"
"$opt" --bogus >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option should exit 2"
"$check" >/dev/null 2>&1; [ $? -eq 2 ] || fail "onnx-check without arguments should exit 2"
"$opt" --help | grep -- "--passes" >/dev/null || fail "--help does not list --passes"
"$opt" --list-passes | grep "fuse-bn-into-conv" >/dev/null || fail "--list-passes"
"$opt" --help | grep -- "--fold-input-defaults" >/dev/null || fail "--help does not list --fold-input-defaults"
"$opt" "$good" -o "$work/frozen.onnx" --fold-input-defaults --verify --dim N=2 2>/dev/null || fail "--fold-input-defaults"
"$opt" --help | grep -- "--threads=N" >/dev/null || fail "--help does not list --threads"
"$opt" "$good" -o "$work/x.onnx" --threads=0 >/dev/null 2>&1; [ $? -eq 2 ] || fail "onnx-opt --threads=0 should exit 2"
"$opt" "$good" -o "$work/threads1.onnx" --threads=1 --verify --dim N=2 2>/dev/null || fail "onnx-opt --threads=1 --verify"
"$opt" "$good" -o "$work/threads2.onnx" --threads=2 --verify --dim N=2 2>/dev/null || fail "onnx-opt --threads=2 --verify"
cmp -s "$work/threads1.onnx" "$work/threads2.onnx" || fail "onnx-opt wrote different models on 1 and 2 threads"
[ ! -e "$work/x.onnx" ] || fail "onnx-opt --threads=0 wrote an output"

# --verify proves the result; --infer prints types.
"$opt" "$work/good.onnx" -o "$work/verified.onnx" --verify --dim N=2 2>"$work/verify.log" || fail "--verify failed"
grep -q "verified: 1 output equal" "$work/verify.log" || fail "--verify did not report: $(cat "$work/verify.log")"
"$check" --infer "$good" 2>/dev/null | grep "probs: tensor(float)\[N,10\]" >/dev/null || fail "--infer did not print the output type"

# Shrinking: the report (table and JSON), float16 with and without a tolerance, external data.
"$opt" "$good" -o "$work/small.onnx" --dim N=2 --strip-doc-strings --report --report-json="$work/report.json" \
    2>"$work/report.txt" || fail "--report failed: $(cat "$work/report.txt")"
grep -q "BatchNormalization *2 *0" "$work/report.txt" || fail "--report has no op table: $(cat "$work/report.txt")"
grep -q '"pipeline": "default,strip-doc-strings"' "$work/report.json" || fail "--report-json: $(cat "$work/report.json")"
grep -q "\"file\": $(stat -c %s "$work/small.onnx")," "$work/report.json" || fail "--report-json after bytes differ from the file"
# Lossy: without --tolerance, float16 is verified by whole-output figures (relative L2, cosine), which
# --report lists per output; bounds it cannot meet write nothing.
"$opt" "$good" -o "$work/half.onnx" --float16 --report 2>"$work/half.log" || fail "--float16 alone: $(cat "$work/half.log")"
grep -q "^onnx-opt: verified: 1 output within the lossy tolerance at N=2 and at N=3 (relative L2 error " "$work/half.log" ||
  fail "--float16 alone, verification line: $(cat "$work/half.log")"
grep -q "^  [a-z_0-9]*: max abs error .*, relative L2 error .*, cosine similarity " "$work/half.log" ||
  fail "--float16 --report has no per-output figures: $(cat "$work/half.log")"
rm -f "$work/half.onnx"
"$opt" "$good" -o "$work/half.onnx" --float16 --lossy-tolerance=1e-9 >/dev/null 2>"$work/half.log"; rc=$?
[ "$rc" -eq 1 ] || fail "--float16 with a lossy tolerance it cannot meet: exit $rc, expected 1"
grep -q "relative L2 error .* > 1e-09" "$work/half.log" || fail "--lossy-tolerance failure not explained: $(cat "$work/half.log")"
[ ! -e "$work/half.onnx" ] || fail "--float16 wrote a model that failed its lossy verification"
"$opt" "$good" -o "$work/half.onnx" --float16 --lossy-tolerance=x >/dev/null 2>&1; [ $? -eq 2 ] || fail "--lossy-tolerance=x should exit 2"
"$opt" "$good" -o "$work/half.onnx" --float16 --tolerance=1e-9,1e-12 --dim N=2 >/dev/null 2>"$work/half.log"; rc=$?
[ "$rc" -eq 1 ] || fail "--float16 with a tolerance it cannot meet: exit $rc, expected 1"
grep -q "verification failed" "$work/half.log" || fail "--float16 failure not explained: $(cat "$work/half.log")"
[ ! -e "$work/half.onnx" ] || fail "--float16 wrote a model that failed verification"
"$opt" "$good" -o "$work/half.onnx" --float16 --tolerance=1e-2,1e-3 --dim N=2 2>/dev/null || fail "--float16 with a tolerance"
[ "$(stat -c %s "$work/half.onnx")" -lt "$(stat -c %s "$work/small.onnx")" ] || fail "--float16 did not shrink the model"
"$check" "$work/half.onnx" | grep ": ok$" >/dev/null || fail "float16 model not ok"
"$opt" "$good" -o "$work/ext.onnx" --external-data-threshold=1024 --external-data-file=ext.bin 2>/dev/null || fail "external data"
[ -s "$work/ext.bin" ] || fail "no external data file written"
"$check" "$work/ext.onnx" | grep ": ok$" >/dev/null || fail "model with external data not ok"
"$opt" "$good" -o "$work/noext.onnx" --external-data-threshold=100000000 --external-data-file=noext.bin 2>/dev/null ||
  fail "external data above every tensor"
[ -e "$work/noext.bin" ] && [ ! -s "$work/noext.bin" ] || fail "--external-data-file must exist (empty) when nothing goes there"
"$opt" "$good" -o "$work/x.onnx" --external-data-file=../escape.bin >/dev/null 2>&1; [ $? -eq 2 ] || fail "--external-data-file with a path should exit 2"
"$opt" "$good" -o "$work/x.onnx" --tolerance=abc >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --tolerance should exit 2"

# onnx-run writes output_K.pb files; bad usage exits 2; bad models exit 1.
"$run" "$good" --dim N=3 --outputs "$work/run" --time 2>"$work/time.log" || fail "onnx-run failed"
grep -q "^Conv " "$work/time.log" || fail "onnx-run --time has no per-op line: $(cat "$work/time.log")"
[ -s "$work/run/output_0.pb" ] || fail "onnx-run wrote no output_0.pb"
grep -q "^vector kernels: .*, threads: 1, peak RSS: [0-9.]* MiB$" "$work/time.log" ||
  fail "onnx-run --time has no ISA/threads/RSS line: $(cat "$work/time.log")"
# --threads: the same bits on 2 threads; --isa=baseline runs; an unknown ISA or a bad count exits 2.
"$run" "$good" --dim N=3 --outputs "$work/run2" --threads=2 --time 2>"$work/time2.log" || fail "onnx-run --threads=2 failed"
cmp -s "$work/run/output_0.pb" "$work/run2/output_0.pb" || fail "onnx-run --threads=2 changed the outputs"
grep -q "threads: 2," "$work/time2.log" || fail "onnx-run --time does not report 2 threads: $(cat "$work/time2.log")"
"$run" "$good" --dim N=3 --outputs "$work/runb" --isa=baseline --time 2>"$work/timeb.log" || fail "onnx-run --isa=baseline failed"
grep -q "^vector kernels: baseline " "$work/timeb.log" || fail "onnx-run --isa=baseline not in effect: $(cat "$work/timeb.log")"
[ -s "$work/runb/output_0.pb" ] || fail "onnx-run --isa=baseline wrote no output_0.pb"
"$run" "$good" --isa=bogus >/dev/null 2>"$work/isa.log"; [ $? -eq 2 ] || fail "onnx-run --isa=bogus should exit 2"
grep -q "unknown instruction set 'bogus'" "$work/isa.log" || fail "onnx-run --isa=bogus message: $(cat "$work/isa.log")"
"$run" "$good" --threads=0 >/dev/null 2>&1; [ $? -eq 2 ] || fail "onnx-run --threads=0 should exit 2"
"$run" "$good" --threads=two >/dev/null 2>&1; [ $? -eq 2 ] || fail "onnx-run --threads=two should exit 2"
# --repeat: the same outputs; with --time a warm-up and the median of the other runs.
"$run" "$good" --dim N=3 --outputs "$work/runr" --repeat=3 --time 2>"$work/timer.log" || fail "onnx-run --repeat=3 failed"
cmp -s "$work/run/output_0.pb" "$work/runr/output_0.pb" || fail "onnx-run --repeat=3 changed the outputs"
grep -q "^total: [0-9.]* ms (median of 2 runs after a warm-up)$" "$work/timer.log" ||
  fail "onnx-run --repeat=3 --time total: $(cat "$work/timer.log")"
"$run" "$good" --repeat=0 >/dev/null 2>&1; [ $? -eq 2 ] || fail "onnx-run --repeat=0 should exit 2"
"$run" --version >"$work/version.txt" || fail "onnx-run --version failed"
grep -q "^onnx-run [0-9]" "$work/version.txt" || fail "onnx-run --version has no version: $(cat "$work/version.txt")"
grep -q "^vector kernels: [a-z0-9]* (CPU supports [a-z0-9]*)$" "$work/version.txt" ||
  fail "onnx-run --version has no ISA line: $(cat "$work/version.txt")"
grep -q "^threads: 1$" "$work/version.txt" || fail "onnx-run --version has no thread count: $(cat "$work/version.txt")"
"$run" --version --threads=3 --isa=baseline | grep -q "^threads: 3$" || fail "onnx-run --version ignores --threads"
"$run" --help | grep -- "--threads=N" >/dev/null || fail "onnx-run --help does not list --threads"
"$run" >/dev/null 2>&1; [ $? -eq 2 ] || fail "onnx-run without a model should exit 2"
"$run" "$work/cycle.onnx" >/dev/null 2>&1; [ $? -eq 1 ] || fail "onnx-run on a cyclic model should exit 1"

# onnx-convert: down to 11, back up to 21, each step verified; bad usage exits 2.
"$convert" "$good" -o "$work/c11.onnx" --opset=11 --verify --dim N=2 2>/dev/null || fail "convert to 11"
"$convert" "$work/c11.onnx" -o "$work/c21.onnx" --opset=21 --verify --dim N=2 2>/dev/null || fail "convert 11 -> 21"
"$check" "$work/c21.onnx" | grep ": ok$" >/dev/null || fail "converted model not ok"
"$convert" "$good" -o "$work/x.onnx" >/dev/null 2>&1; [ $? -eq 2 ] || fail "onnx-convert without --opset should exit 2"
"$convert" "$work/cycle.onnx" -o "$work/x.onnx" --opset=21 >/dev/null 2>&1; [ $? -eq 1 ] || fail "onnx-convert on a cyclic model should exit 1"
[ ! -e "$work/x.onnx" ] || fail "onnx-convert wrote an output on failure"

# Old IR versions (hand-made, tools/testing/old_ir_models.h): an IR 3 model at opset 9 is accepted by
# every tool with a warning on stderr; IR < 4 results list the initializers passes made as inputs.
"$make_old" "$work" || { echo "cannot make the old-IR models"; exit 1; }
cnn="$work/ir3_cnn.onnx"
"$check" "$cnn" >"$work/cnn.out" 2>"$work/cnn.err" || fail "onnx-check refused the IR 3 CNN: $(cat "$work/cnn.err")"
[ "$(cat "$work/cnn.out")" = "$cnn: ok" ] || fail "onnx-check IR 3 CNN stdout: $(cat "$work/cnn.out")"
grep -q "^$cnn: warning: model: opset 9 of domain 'ai.onnx' was released with IR version 4, but the model's ir_version is 3" \
  "$work/cnn.err" || fail "onnx-check IR 3 CNN: no release-table warning: $(cat "$work/cnn.err")"
"$run" "$cnn" --outputs "$work/cnn_run" 2>"$work/cnn_run.err" || fail "onnx-run refused the IR 3 CNN: $(cat "$work/cnn_run.err")"
[ -s "$work/cnn_run/output_0.pb" ] || fail "onnx-run wrote no output for the IR 3 CNN"
grep -q "^onnx-run: $cnn: warning: model: opset 9" "$work/cnn_run.err" || fail "onnx-run: no warning: $(cat "$work/cnn_run.err")"
"$opt" "$cnn" -o "$work/cnn.opt.onnx" --verify --print-stats 2>"$work/cnn_opt.err" ||
  fail "onnx-opt refused the IR 3 CNN: $(cat "$work/cnn_opt.err")"
grep -q "^onnx-opt: $cnn: warning: model: opset 9" "$work/cnn_opt.err" || fail "onnx-opt: no warning: $(cat "$work/cnn_opt.err")"
[ "$(grep -c "warning:" "$work/cnn_opt.err")" -eq 1 ] || fail "onnx-opt repeated the warning: $(cat "$work/cnn_opt.err")"
grep -q "^ir_version 3: 1 new initializer listed as graph inputs$" "$work/cnn_opt.err" ||
  fail "onnx-opt --print-stats does not say what it did for IR 3: $(cat "$work/cnn_opt.err")"
"$check" "$work/cnn.opt.onnx" 2>/dev/null | grep ": ok$" >/dev/null || fail "optimized IR 3 CNN not ok"
"$run" "$work/cnn.opt.onnx" --outputs "$work/cnn_opt_run" 2>/dev/null || fail "onnx-run on the optimized IR 3 CNN"
cmp -s "$work/cnn_run/output_0.pb" "$work/cnn_opt_run/output_0.pb" || fail "optimized IR 3 CNN computes something else"
"$convert" "$cnn" -o "$work/cnn13.onnx" --opset=13 --verify 2>"$work/cnn_convert.err" ||
  fail "onnx-convert --opset=13 refused the IR 3 CNN: $(cat "$work/cnn_convert.err")"
grep -q "ir_version 3 -> 7" "$work/cnn_convert.err" || fail "onnx-convert: $(cat "$work/cnn_convert.err")"
"$check" "$work/cnn13.onnx" 2>"$work/cnn13.err" | grep ": ok$" >/dev/null || fail "converted IR 3 CNN not ok"
[ ! -s "$work/cnn13.err" ] || fail "converted IR 3 CNN has warnings: $(cat "$work/cnn13.err")"
# A folding chain at IR 3 and IR 4 through the default pipeline: written, valid, equal outputs.
for ir in 3 4; do
  m="$work/ir${ir}_fold.onnx"
  "$opt" "$m" -o "$work/ir${ir}_fold.opt.onnx" --verify --print-stats 2>"$work/fold$ir.err" ||
    fail "onnx-opt IR $ir fold chain: $(cat "$work/fold$ir.err")"
  grep -q "verified: 1 output equal" "$work/fold$ir.err" || fail "IR $ir fold chain not verified: $(cat "$work/fold$ir.err")"
  "$check" "$work/ir${ir}_fold.opt.onnx" 2>/dev/null | grep ": ok$" >/dev/null || fail "optimized IR $ir fold chain not ok"
  "$run" "$m" --seed 3 --outputs "$work/fold${ir}_a" 2>/dev/null && "$run" "$work/ir${ir}_fold.opt.onnx" --seed 3 --outputs "$work/fold${ir}_b" 2>/dev/null &&
    cmp -s "$work/fold${ir}_a/output_0.pb" "$work/fold${ir}_b/output_0.pb" || fail "IR $ir fold chain: outputs differ after onnx-opt"
done
grep -q "^ir_version 3: 1 new initializer listed as graph inputs$" "$work/fold3.err" || fail "IR 3 fold: $(cat "$work/fold3.err")"
! grep -q "listed as graph inputs" "$work/fold4.err" || fail "IR 4 fold listed initializers as inputs"
# In a Loop body the folded constant follows the inputs Loop passes; the result optimizes again.
loop="$work/ir3_loop.onnx"
"$opt" "$loop" -o "$work/loop1.onnx" --verify --print-stats 2>"$work/loop1.err" || fail "onnx-opt IR 3 Loop: $(cat "$work/loop1.err")"
grep -q "^ir_version 3: 1 new initializer listed as graph inputs$" "$work/loop1.err" || fail "IR 3 Loop: $(cat "$work/loop1.err")"
"$opt" "$work/loop1.onnx" -o "$work/loop2.onnx" --verify 2>"$work/loop2.err" || fail "onnx-opt on its IR 3 Loop output: $(cat "$work/loop2.err")"
"$check" "$work/loop1.onnx" "$work/loop2.onnx" 2>/dev/null | grep -c ": ok$" | grep -qx 2 || fail "optimized IR 3 Loop not ok"
"$convert" "$work/loop1.onnx" -o "$work/loop13.onnx" --opset=13 --verify 2>/dev/null || fail "onnx-convert of the optimized IR 3 Loop"
# Caffe2-style IR 3 models at opset 9 (weights listed before the data input, Dropout-7 with its mask
# unused, read, or a graph output too) run, and convert to 21 and back to 9 with equal outputs, valid at
# each end. (compare_test runs such a model on input files.)
for m in ir3_dropout ir3_dropout_mask_used ir3_dropout_mask_output; do
  "$run" "$work/$m.onnx" >/dev/null 2>"$work/${m}_run.err" || fail "onnx-run $m: $(cat "$work/${m}_run.err")"
  "$convert" "$work/$m.onnx" -o "$work/${m}_21.onnx" --opset=21 --verify 2>"$work/${m}_21.err" ||
    fail "onnx-convert --opset=21 $m: $(cat "$work/${m}_21.err")"
  "$convert" "$work/${m}_21.onnx" -o "$work/${m}_9.onnx" --opset=9 --verify 2>"$work/${m}_9.err" ||
    fail "onnx-convert --opset=9 $m: $(cat "$work/${m}_9.err")"
  "$check" "$work/${m}_21.onnx" "$work/${m}_9.onnx" 2>/dev/null | grep -c ": ok$" | grep -qx 2 || fail "converted $m not ok"
done
# Opset-6 Add/Mul with size-1 broadcast dims: run and converted with numpy's reading, and said: by the
# checker for the Add (its shapes are declared), by the conversion for the Mul (inferred).
legacy="$work/opset6_size1_broadcast.onnx"
"$check" "$legacy" >/dev/null 2>"$work/legacy.err" || fail "onnx-check refused the opset-6 size-1 broadcast: $(cat "$work/legacy.err")"
grep -q "^$legacy: warning: graph 'legacy', node 0 (Add): B of shape \[2,1\] has size 1 where A of shape \[2,3\] does not" \
  "$work/legacy.err" || fail "onnx-check: no warning for the size-1 broadcast: $(cat "$work/legacy.err")"
"$run" "$legacy" --seed 5 --outputs "$work/legacy_run" 2>"$work/legacy_run.err" || fail "onnx-run opset-6 size-1 broadcast: $(cat "$work/legacy_run.err")"
"$convert" "$legacy" -o "$work/legacy21.onnx" --opset=21 --verify 2>"$work/legacy21.err" ||
  fail "onnx-convert --opset=21 of the opset-6 size-1 broadcast: $(cat "$work/legacy21.err")"
grep -q "^onnx-convert: warning: node producing 'y' (Mul), Mul-6 -> Mul-7: B of shape \[1,3\]" "$work/legacy21.err" ||
  fail "onnx-convert: no warning for the Mul: $(cat "$work/legacy21.err")"
"$run" "$work/legacy21.onnx" --seed 5 --outputs "$work/legacy21_run" 2>/dev/null &&
  cmp -s "$work/legacy_run/output_0.pb" "$work/legacy21_run/output_0.pb" || fail "opset-6 size-1 broadcast: outputs differ at 21"
"$convert" "$work/legacy21.onnx" -o "$work/legacy6.onnx" --opset=6 --verify 2>"$work/legacy6.err" ||
  fail "onnx-convert back to 6: $(cat "$work/legacy6.err")"

# A fixed(...) loop stopped at its round limit while the model still changed: one warning on stderr
# (beside the statistics' own line with --print-stats), the result written and valid, exit 0.
"$opt" "$good" -o "$work/fixed1.onnx" --passes='fixed<1>(default)' --print-stats 2>"$work/fixed1.err" ||
  fail "onnx-opt fixed<1>(default): $(cat "$work/fixed1.err")"
[ "$(grep -c "warning: 1 fixed(...) loop stopped at the round limit while still changing the model" "$work/fixed1.err")" -eq 1 ] ||
  fail "onnx-opt fixed<1>(default): no single round-limit warning: $(cat "$work/fixed1.err")"
"$check" "$work/fixed1.onnx" 2>/dev/null | grep ": ok$" >/dev/null || fail "fixed<1>(default) result not ok"
"$opt" "$good" -o "$work/fixed16.onnx" --passes='fixed(default)' 2>"$work/fixed16.err" ||
  fail "onnx-opt fixed(default): $(cat "$work/fixed16.err")"
if grep -q "round limit" "$work/fixed16.err"; then
  fail "onnx-opt fixed(default) warned of a limit it did not reach: $(cat "$work/fixed16.err")"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all CLI checks passed"
