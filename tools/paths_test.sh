#!/usr/bin/env bash
# Every path form a user can type, for every tool, on a model with external data: a bare file name,
# ./x.onnx, ../dir/x.onnx, an absolute path, a symlinked model (in its own folder and elsewhere), a
# symlinked folder; outputs with external data written to a bare name, ./ and another folder. Also:
# external data locations that leave the model's folder are refused, and legitimate ones are not.
#
# Symlinked models: external data is looked for beside the path given (as ONNX does), then beside
# the link's target (ir/io/model_io.h).
set -uo pipefail
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
check=$(abs "$1")
opt=$(abs "$2")
run=$(abs "$3")
convert=$(abs "$4")
good=$(abs "$5")
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/paths.XXXXXX")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The model: tiny_cnn with every tensor of 256 bytes or more in mlp.onnx.data.
mkdir -p "$work/models" "$work/other" "$work/out" "$work/moved" "$work/outside"
cd "$work/models" || exit 1
"$opt" "$good" -o mlp.onnx --passes=dead-nodes --external-data-threshold=256 2>/dev/null ||
  { echo "cannot make the model"; exit 1; }
[ -s mlp.onnx.data ] || { echo "the model has no external data"; exit 1; }
# The data really is external: without the side file the model does not load.
mv mlp.onnx.data mlp.onnx.data.away
"$check" mlp.onnx >/dev/null 2>&1 && fail "mlp.onnx loads without its external data"
mv mlp.onnx.data.away mlp.onnx.data
# Reference outputs, from an absolute path.
"$run" "$work/models/mlp.onnx" --dim N=2 --outputs "$work/ref" 2>/dev/null || { echo "cannot run the model"; exit 1; }

ln -s ../models/mlp.onnx "$work/other/link.onnx"  # data only beside the target
ln -s mlp.onnx "$work/models/same.onnx"           # data beside link and target
ln -s models "$work/dirlink"                      # a symlinked folder

# Runs every tool on model path $2 from folder $1.
n=0
every_tool() {
  local dir=$1 model=$2 label="$2 (from ${1#"$work"/})"
  n=$((n + 1))
  cd "$dir" || { fail "cd $dir"; return; }
  "$check" "$model" 2>&1 | grep -x "$model: ok" >/dev/null || fail "onnx-check $label: $("$check" "$model" 2>&1)"
  "$run" "$model" --dim N=2 --outputs "$work/run$n" >/dev/null 2>&1 || fail "onnx-run $label"
  cmp -s "$work/ref/output_0.pb" "$work/run$n/output_0.pb" || fail "onnx-run $label: outputs differ from the reference"
  "$opt" "$model" -o "$work/out/opt$n.onnx" >/dev/null 2>&1 || fail "onnx-opt $label"
  local err
  err=$("$opt" "$model" -o "$work/out/verified$n.onnx" --verify --dim N=2 2>&1) || fail "onnx-opt --verify $label: $err"
  case "$err" in *"verified: 1 output equal"*) ;; *) fail "onnx-opt --verify $label did not verify: $err" ;; esac
  err=$("$opt" "$model" -o "$work/out/each$n.onnx" --verify-each --report --dim N=2 2>&1) ||
    fail "onnx-opt --verify-each --report $label: $err"
  err=$("$convert" "$model" -o "$work/out/conv$n.onnx" --opset=18 --verify --dim N=2 2>&1) ||
    fail "onnx-convert --verify $label: $err"
  case "$err" in *"verified: 1 output equal"*) ;; *) fail "onnx-convert --verify $label did not verify: $err" ;; esac
}
every_tool "$work/models" mlp.onnx
every_tool "$work/models" ./mlp.onnx
every_tool "$work/models" same.onnx
every_tool "$work/models" "$work/models/mlp.onnx"
every_tool "$work/other" ../models/mlp.onnx
every_tool "$work/other" link.onnx
every_tool "$work/other" ./link.onnx
every_tool "$work/other" "$work/other/link.onnx"
every_tool "$work" dirlink/mlp.onnx
every_tool "$work/models" ../dirlink/mlp.onnx
echo "every tool ran on $n path forms"

# A symlinked model whose link folder also holds a file of that name reads the one beside the link
# (ONNX resolves relative to the path given): zeros of the same size give other outputs.
mkdir -p "$work/shadow"
ln -s ../models/mlp.onnx "$work/shadow/link.onnx"
head -c "$(stat -c %s "$work/models/mlp.onnx.data")" /dev/zero >"$work/shadow/mlp.onnx.data"
cp "$work/models/mlp.onnx" "$work/shadow/copy.onnx"  # the same model, beside the zeros only
cd "$work/shadow" || exit 1
# (copy.onnx names mlp.onnx.data too: its data is the zeros.)
"$run" link.onnx --dim N=2 --outputs "$work/shadow_link" >/dev/null 2>&1 || fail "onnx-run of a shadowed link"
"$run" copy.onnx --dim N=2 --outputs "$work/shadow_copy" >/dev/null 2>&1 || fail "onnx-run of the zero-weight copy"
cmp -s "$work/shadow_link/output_0.pb" "$work/shadow_copy/output_0.pb" ||
  fail "a symlinked model did not read the external data beside the link"
cmp -s "$work/shadow_link/output_0.pb" "$work/ref/output_0.pb" && fail "the zero weights changed nothing: a weak test"

# Outputs with external data: a bare name, ./, another folder. Each side file sits beside its model,
# named by a bare location, so the pair still loads after being moved elsewhere together.
cd "$work/models" || exit 1
k=0
for out in o_bare.onnx ./o_dot.onnx ../out/o_up.onnx "$work/out/o_abs.onnx"; do
  k=$((k + 1))
  for tool in opt convert; do
    if [ $tool = opt ]; then
      err=$("$opt" mlp.onnx -o "$out" --external-data-threshold=256 --verify --dim N=2 2>&1)
    else
      err=$("$convert" mlp.onnx -o "$out" --opset=18 --verify --dim N=2 2>&1)
    fi
    [ $? -eq 0 ] || { fail "onnx-$tool -o $out: $err"; continue; }
    [ -s "$out.data" ] || fail "onnx-$tool -o $out: no $out.data beside it"
    "$check" "$out" | grep ": ok$" >/dev/null || fail "onnx-$tool -o $out: output not ok"
    rm -rf "$work/moved" && mkdir -p "$work/moved"
    base=$(basename "$out")
    mv "$out" "$out.data" "$work/moved/"
    (cd "$work/moved" && "$check" "$base" | grep ": ok$" >/dev/null) || fail "onnx-$tool -o $out: does not load once moved"
    (cd / && "$run" "$work/moved/$base" --dim N=2 --outputs "$work/moved_run$k$tool" >/dev/null 2>&1) ||
      fail "onnx-$tool -o $out: moved output does not run"
    if [ $tool = convert ]; then
      cmp -s "$work/ref/output_0.pb" "$work/moved_run$k$tool/output_0.pb" || fail "onnx-convert -o $out: outputs changed"
    fi
  done
done
# --external-data-file names the side file of a bare output.
"$opt" mlp.onnx -o named.onnx --external-data-threshold=256 --external-data-file=named.bin 2>/dev/null ||
  fail "--external-data-file with a bare output"
[ -s named.bin ] || fail "--external-data-file with a bare output: no named.bin"
"$check" named.onnx | grep "^named.onnx: ok$" >/dev/null || fail "named.onnx not ok"

# Locations: the model is written with an 11-character side file name, which is then rewritten in
# place (same length, so the protobuf stays valid) to other locations.
mkdir -p "$work/loc/sub" "$work/loc/w"
cd "$work/loc" || exit 1
"$opt" "$good" -o base.onnx --passes=dead-nodes --external-data-threshold=256 --external-data-file=datafile123 \
  2>/dev/null || fail "cannot write base.onnx"
with_location() { perl -0777 -pe "s|datafile123|$2|g" base.onnx >"$1"; }
refused() {  # model, expected message part
  local out
  for dir in "$work/loc" "$work/loc/sub"; do
    local path=$1
    [ "$dir" = "$work/loc/sub" ] && path=../$1
    out=$(cd "$dir" && "$check" "$path" 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "onnx-check $path (from ${dir#"$work"/}): exit $rc, expected 1: $out"
    case "$out" in *"$2"*) ;; *) fail "onnx-check $path: expected '$2' in: $out" ;; esac
    out=$(cd "$dir" && "$opt" "$path" -o refused.out.onnx --verify 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "onnx-opt $path: exit $rc, expected 1"
    case "$out" in *"$2"*) ;; *) fail "onnx-opt $path: expected '$2' in: $out" ;; esac
    out=$(cd "$dir" && "$run" "$path" 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "onnx-run $path: exit $rc, expected 1"
    out=$(cd "$dir" && "$convert" "$path" -o refused.out.onnx --opset=18 2>&1); rc=$?
    [ $rc -eq 1 ] || fail "onnx-convert $path: exit $rc, expected 1"
  done
  [ ! -e refused.out.onnx ] && [ ! -e sub/refused.out.onnx ] || fail "a refused model was written"
}
# A readable file at each refused location (but /etc/passwd): only the refusal stops it.
cp datafile123 "$work/up12.bin"
cp datafile123 datafi
with_location up.onnx "../up12.bin"
refused up.onnx "leaves the model folder"
with_location abs.onnx "/etc/passwd"
refused abs.onnx "is absolute"
with_location dots.onnx "w/../datafi"
refused dots.onnx "leaves the model folder"
# A side file that is a symlink out of the folder.
cp datafile123 "$work/outside/linked.bin"
mkdir -p "$work/loc2"
cp base.onnx "$work/loc2/base.onnx"
ln -s "$work/outside/linked.bin" "$work/loc2/datafile123"
out=$(cd "$work/loc2" && "$check" base.onnx 2>&1)
case "$out" in *"leaves the model folder"*) ;; *) fail "a side file symlinked out of the folder was not refused: $out" ;; esac
(cd "$work/loc2" && "$opt" base.onnx -o x.onnx --verify >/dev/null 2>&1); [ $? -eq 1 ] || fail "onnx-opt on an escaping symlink"
# Legitimate: a side file in a subfolder, and a symlink that stays inside the folder, from a bare name.
cp datafile123 sub/data123
with_location insub.onnx "sub/data123"
ln -s datafile123 inlink.bn
with_location inlink.onnx "./inlink.bn"
for model in base.onnx insub.onnx inlink.onnx; do
  "$check" "$model" | grep -x "$model: ok" >/dev/null || fail "onnx-check $model: $("$check" "$model" 2>&1)"
  (cd sub && "$check" "../$model" | grep ": ok$" >/dev/null) || fail "onnx-check ../$model from sub"
  "$opt" "$model" -o "v_$model" --verify --dim N=2 >/dev/null 2>&1 || fail "onnx-opt --verify $model"
  "$run" "$model" --dim N=2 --outputs "$work/loc_run_$model" >/dev/null 2>&1 || fail "onnx-run $model"
  cmp -s "$work/ref/output_0.pb" "$work/loc_run_$model/output_0.pb" || fail "onnx-run $model: outputs differ"
done

rm -rf "$work"
if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "PASS"
