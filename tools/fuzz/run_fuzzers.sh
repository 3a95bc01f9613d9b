#!/usr/bin/env bash
# Builds the fuzz targets with clang (ASan + UBSan) and runs each for a bounded time.
#   tools/fuzz/run_fuzzers.sh [SECONDS_PER_TARGET] [TARGET...]
# Seeds: testdata/models and, when ONNX_CONFORMANCE_DIR is set, ONNX's node-test models (read in
# place, copied only into the scratch corpus outside the checkout). The corpus grows in
# ${FUZZ_WORK_DIR:-$HOME/.cache/onnx-opt-fuzz}/corpus/TARGET between runs. A crash stops the run
# with its input saved as FUZZ_WORK_DIR/TARGET-crash-*; copy it into tools/fuzz/regressions/TARGET/
# once fixed. Each target first replays its regression inputs and corpus unmutated (a failure there
# is a regression), then mutates. Exit status: 0 when nothing failed (with FUZZ_NEW_FINDINGS_FAIL=0,
# new findings of the mutation phase are reported but do not fail).
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ "${#targets[@]}" -eq 0 ] && targets=(load_model_fuzzer parse_text_fuzzer optimize_fuzzer convert_fuzzer run_fuzzer)
work="${FUZZ_WORK_DIR:-$HOME/.cache/onnx-opt-fuzz}"
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
mkdir -p "$work"
bazel_fuzz=(bazel --output_base="$work/bazel-output-base")

labels=()
for t in "${targets[@]}"; do labels+=("//tools/fuzz:$t"); done
# --symlink_prefix=/: the checkout's bazel-* links keep pointing at the main build.
"${bazel_fuzz[@]}" build --config=fuzz --symlink_prefix=/ "${labels[@]}" || { echo "fuzz: build failed" >&2; exit 1; }
bin="$("${bazel_fuzz[@]}" info --config=fuzz bazel-bin 2>/dev/null)/tools/fuzz"

# Seeds, made with the ordinary build's tool.
seeds="$work/seeds"
if [ ! -d "$seeds/binary" ]; then
  bazel build //tools/fuzz:make_seed_corpus || exit 1
  inputs=(testdata/models)
  [ -n "${ONNX_CONFORMANCE_DIR:-}" ] && [ -d "$ONNX_CONFORMANCE_DIR/node" ] && inputs+=("$ONNX_CONFORMANCE_DIR/node")
  "$(bazel info bazel-bin 2>/dev/null)/tools/fuzz/make_seed_corpus" "$seeds" "${inputs[@]}" || exit 1
fi

status=0
for t in "${targets[@]}"; do
  corpus="$work/corpus/$t"
  mkdir -p "$corpus"
  seed_dir="$seeds/binary"
  [ "$t" = parse_text_fuzzer ] && seed_dir="$seeds/text"
  limits=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 -max_len=65536)
  # First the inputs that once crashed and the corpus as it is, without mutation: a failure here is
  # a regression in the code (the corpus held only inputs that ran cleanly when they were added).
  replay=(tools/fuzz/regressions/"$t" "$corpus" "$seed_dir")
  [ -d "${replay[0]}" ] || replay=("${replay[@]:1}")
  "$bin/$t" -runs=0 "${limits[@]}" -artifact_prefix="$work/$t-replay-" "${replay[@]}" >"$work/$t.replay.log" 2>&1
  if [ $? -ne 0 ]; then
    echo "fuzz: $t fails on an input it ran cleanly before (a regression); see $work/$t.replay.log" >&2
    grep -v 'libprotobuf' "$work/$t.replay.log" | grep -m5 -E 'ERROR|SUMMARY|^fuzz:|runtime error' >&2
    status=1
    continue
  fi
  echo "fuzz: $t replayed its corpus; mutating for ${seconds}s"
  # -rss_limit_mb / -timeout: a run over 2 GB or 10 s is a finding, as is a leak.
  "$bin/$t" "$corpus" "$seed_dir" -dict=tools/fuzz/onnx.dict -max_total_time="$seconds" "${limits[@]}" \
      -artifact_prefix="$work/$t-" -print_final_stats=1 2>"$work/$t.log"
  rc=$?
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ +DONE|cov:' "$work/$t.log" | tail -3
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: $t found a new problem (exit $rc); the input is saved as $work/$t-*; see $work/$t.log" >&2
    grep -v 'libprotobuf' "$work/$t.log" | grep -m5 -E 'ERROR|SUMMARY|^fuzz:|runtime error' >&2
    # New findings of the mutation phase fail the run unless FUZZ_NEW_FINDINGS_FAIL=0 (CI: a finding
    # is reported for a person to fix and keep as a regression input, not a gate on unrelated work).
    [ "${FUZZ_NEW_FINDINGS_FAIL:-1}" = 0 ] || status=1
  fi
done
exit "$status"
