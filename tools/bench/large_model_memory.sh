#!/bin/bash
# Peak resident memory and wall time of the tools on a generated MLP with external data (one
# W x W float weight per layer, see ir/io/testing/make_large_model.cc): load + save, the default pipeline,
# the default pipeline with --verify, onnx-convert and onnx-convert --verify. The weights are mapped,
# so the peak should stay far below the model's size.
#
#   bazel run -c opt //tools/bench:large_model_memory -- [--gib=3] [--width=8192] [--dir=/tmp] [--keep]
#
# The model and each output take GIB of disk in a temporary folder under --dir (removed afterwards
# unless --keep). Not a test: a 3 GB run takes minutes and needs ~2x its size of free disk.
set -euo pipefail

gib=3
width=8192
dir="${TMPDIR:-/tmp}"
keep=0
for arg in "$@"; do
  case "$arg" in
    --gib=*) gib="${arg#*=}" ;;
    --width=*) width="${arg#*=}" ;;
    --dir=*) dir="${arg#*=}" ;;
    --keep) keep=1 ;;
    *) echo "usage: $0 [--gib=3] [--width=8192] [--dir=DIR] [--keep]" >&2; exit 2 ;;
  esac
done

# Tools from runfiles under bazel run; beside the script otherwise.
here="${RUNFILES_DIR:-$0.runfiles}/onnx_opt"
[[ -d "$here" ]] || here="$(cd "$(dirname "$0")/../.." && pwd)"
make_model="$here/ir/io/testing/make_large_model"
onnx_opt="$here/tools/onnx-opt"
onnx_convert="$here/tools/onnx-convert"
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

# Input + one output at a time, plus slack.
need_kb=$(awk -v g="$gib" 'BEGIN { printf "%d", g * 2.1 * 1024 * 1024 }')
free_kb=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
if (( free_kb < need_kb )); then
  echo "not enough room in $dir: $((free_kb / 1024)) MiB free, $((need_kb / 1024)) MiB needed (use --dir)" >&2
  exit 1
fi

work="$(mktemp -d "$dir/large_model_memory.XXXXXX")"
if (( ! keep )); then trap 'rm -rf "$work"' EXIT; fi
"$make_model" "$work" "$gib" "$width"
model="$work/large.onnx"

printf '%-28s %12s %10s\n' case "peak RSS MiB" "wall s"
run() {
  local name="$1"
  shift
  rm -f "$work"/out.onnx "$work"/out.onnx.data
  if ! /usr/bin/time -o "$work/time" -f '%M %e' "$@" -o "$work/out.onnx" >/dev/null 2>"$work/log"; then
    echo "$name failed:" >&2
    cat "$work/log" >&2
    exit 1
  fi
  local kb seconds
  read -r kb seconds <"$work/time"
  printf '%-28s %12.0f %10s\n' "$name" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" "$seconds"
}
run "load+save (--passes=nops)" "$onnx_opt" "$model" --passes=nops
run "onnx-opt (default)" "$onnx_opt" "$model"
run "onnx-opt --verify" "$onnx_opt" "$model" --verify
run "onnx-convert --opset=20" "$onnx_convert" "$model" --opset=20
run "onnx-convert --verify" "$onnx_convert" "$model" --opset=20 --verify
