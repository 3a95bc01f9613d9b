#!/bin/bash
# One decode step of a whole generated decoder LLM (make_decoder: GQA, KV cache, rotary from
# position ids, external weights), float32 and quantized to int8 (per channel) and int4 (blocks of
# 32), every weight included (keep_ends=0): quantize time and peak RSS, file sizes, and the step's
# time in onnx-run (median of --repeat runs after a warm-up, --threads threads), as weight bytes per
# second against the machine's measured read bandwidth (decode_matmul_bench --bandwidth_only).
# A decode step reads every weight once, so that share is its figure of merit.
#
#   bazel run -c opt //tools/bench:decode_step_bench -- [--layers=8] [--hidden=2048]
#       [--tokens=4] [--past=60] [--repeat=8] [--threads=1] [--dir=/tmp] [--keep]
#
# The default is the 8-layer, hidden-2048 decoder of issue 36 (0.62B parameters, 2.3 GB float32);
# it needs ~3.2 GB of disk under --dir (removed afterwards unless --keep). Not a test: it takes
# about two minutes.
set -euo pipefail

layers=8
hidden=2048
tokens=4
past=60
repeat=8
threads=1
dir="${TMPDIR:-/tmp}"
keep=0
for arg in "$@"; do
  case "$arg" in
    --layers=*) layers="${arg#*=}" ;;
    --hidden=*) hidden="${arg#*=}" ;;
    --tokens=*) tokens="${arg#*=}" ;;
    --past=*) past="${arg#*=}" ;;
    --repeat=*) repeat="${arg#*=}" ;;
    --threads=*) threads="${arg#*=}" ;;
    --dir=*) dir="${arg#*=}" ;;
    --keep) keep=1 ;;
    *)
      echo "usage: $0 [--layers=8] [--hidden=2048] [--tokens=4] [--past=60] [--repeat=8]" \
        "[--threads=1] [--dir=DIR] [--keep]" >&2
      exit 2
      ;;
  esac
done

# Tools from runfiles under bazel run; beside the script otherwise.
here="${RUNFILES_DIR:-$0.runfiles}/onnx_opt"
[[ -d "$here" ]] || here="$(cd "$(dirname "$0")/../.." && pwd)"
source "$here/tools/bench/bench_preamble.sh"
make_decoder="$here/tools/bench/make_decoder"
bandwidth_bench="$here/tools/bench/decode_matmul_bench"
onnx_opt="$here/tools/onnx-opt"
onnx_run="$here/tools/onnx-run"
bench_work_dir decode_step_bench

dims="batch=1,seq=$tokens,past=$past,total=$((past + tokens))"
echo "decoder: $layers layers, hidden $hidden (preset 1b otherwise); step: $tokens tokens after $past"
# The 1b preset's other sizes, given explicitly for the share below.
heads=32 kv_heads=8 intermediate=8192 vocab=32000
mkdir -p "$work/source"
"$make_decoder" --out="$work/source" --preset=1b --layers="$layers" --hidden="$hidden" \
  --heads="$heads" --kv_heads="$kv_heads" --intermediate="$intermediate" --vocab="$vocab" |
  sed 's/^/  /'
# A step reads every weight once but the embedding table, of which it gathers a row per token: the
# share of the file it reads (the same in every format, as every weight is quantized alike).
read_share=$(awk -v l="$layers" -v h="$hidden" -v hd="$heads" -v kv="$kv_heads" \
  -v i="$intermediate" -v v="$vocab" 'BEGIN {
    kvw = kv * h / hd
    params = l * (h * (2 * h + 2 * kvw) + 3 * h * i + 2 * h) + 2 * v * h + h
    printf "%.6f", 1 - v * h / params }')

# Over huge pages, as onnx-run --repeat holds the weights (ir/resident_weights.h).
bandwidth=$("$bandwidth_bench" --bandwidth_only --huge_pages --threads="$threads" |
  awk -v t="$threads" '$0 ~ "^read bandwidth, " t " thread" { print $(NF - 1) }')
echo "read bandwidth, $threads thread(s): $bandwidth GB/s"
printf '\n%-8s %10s %8s %12s %12s %10s %10s %8s %9s\n' model bytes "of f32" "quantize s" "quantize RSS" \
  "step ms" "GB/s" "of bw" "vs f32"

f32_bytes=0
f32_ms=0
for kind in f32 int8 int4; do
  case "$kind" in
    f32) passes='default,convert(21)' ;;
    int8) passes='default,convert(21),quantize-weights(bits=8,keep_ends=0)' ;;
    int4) passes='default,convert(21),quantize-weights(bits=4,block=32,keep_ends=0)' ;;
  esac
  mkdir -p "$work/$kind"
  # Quantizing includes onnx-opt's verification (a lossy pipeline is always verified).
  /usr/bin/time -f '%e %M' -o "$work/$kind.time" "$onnx_opt" "$work/source/decoder.onnx" \
    -o "$work/$kind/decoder.onnx" --passes="$passes" --external-data-threshold=1024 \
    --dim="$dims" --quiet
  read -r seconds rss_kb <"$work/$kind.time"
  bytes=$(cat "$work/$kind"/decoder.onnx* | wc -c)
  step_ms=$("$onnx_run" "$work/$kind/decoder.onnx" --dim="$dims" --repeat="$repeat" --time \
    --threads="$threads" --quiet 2>&1 >/dev/null | awk '/^total: / { print $2 }')
  [[ -n "$step_ms" ]] || { echo "onnx-run printed no total for $kind" >&2; exit 1; }
  if [[ "$kind" == f32 ]]; then
    f32_bytes=$bytes
    f32_ms=$step_ms
  fi
  awk -v k="$kind" -v b="$bytes" -v share="$read_share" -v fb="$f32_bytes" -v s="$seconds" -v r="$rss_kb" \
    -v ms="$step_ms" -v fms="$f32_ms" -v bw="$bandwidth" 'BEGIN {
      gbs = b * share / (ms / 1000) / 1e9
      printf "%-8s %8.0f MB %7.3fx %12.1f %9.0f MiB %10.1f %10.2f %7.0f%% %8.2fx\n",
        k, b / 1e6, b / fb, s, r / 1024, ms, gbs, 100 * gbs / bw, fms / ms }'
done
echo
echo "bytes: model file and its external data; quantize: onnx-opt wall time and peak RSS (with"
echo "its verification); step ms: onnx-run --repeat=$repeat --time median after a warm-up;"
echo "GB/s: bytes a step reads (every weight once, the embedding table only in the rows it takes:"
echo "$read_share of the file) per second; vs f32: step speed-up."
