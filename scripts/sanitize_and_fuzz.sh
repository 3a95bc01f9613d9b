#!/usr/bin/env bash
# The checks CI runs besides the test suite: every test under AddressSanitizer and
# UndefinedBehaviorSanitizer together (one build), then every fuzz target for a bounded time.
#   scripts/sanitize_and_fuzz.sh [FUZZ_SECONDS_PER_TARGET]   (default 60)
# Ends with one line per part; exit status 0 when both are clean.
set -uo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds="${1:-60}"

./scripts/setup.sh || exit 1

# Every top-level package by name rather than //...: from another output base, //... would also walk
# into the main build's bazel-<checkout name> link, which .bazelignore can list only for known names.
targets=()
for dir in */; do
  dir=${dir%/}
  [ -L "$dir" ] && continue
  [ -n "$(find "$dir" \( -name BUILD.bazel -o -name BUILD \) -print -quit)" ] && targets+=("//$dir/...")
done

start=$(date +%s)
# An output base of its own: the sanitizer build never replaces the main build's outputs.
# --symlink_prefix=/: the checkout's bazel-* links keep pointing at the main build.
bazel --output_base="${SANITIZER_OUTPUT_BASE:-$HOME/.cache/onnx-opt-sanitizers}" test --config=asan --config=ubsan \
    --symlink_prefix=/ \
    --keep_going -- "${targets[@]}" 2>&1 | tail -40
sanitizer_rc=${PIPESTATUS[0]}
sanitizer_seconds=$(( $(date +%s) - start ))

start=$(date +%s)
# Regression inputs and the corpus must replay cleanly (a failure there fails CI); what the short
# mutation phase newly finds is reported with its saved input, for a person to fix.
FUZZ_NEW_FINDINGS_FAIL="${FUZZ_NEW_FINDINGS_FAIL:-0}" ./tools/fuzz/run_fuzzers.sh "$fuzz_seconds"
fuzz_rc=$?
fuzz_seconds_total=$(( $(date +%s) - start ))

echo "sanitizers (asan+ubsan, every test): $([ "$sanitizer_rc" -eq 0 ] && echo clean || echo FAILED) in ${sanitizer_seconds}s"
echo "fuzzers (replay, then ${fuzz_seconds}s of mutation each): $([ "$fuzz_rc" -eq 0 ] && echo "replays clean" || echo FAILED) in ${fuzz_seconds_total}s (new findings, if any, are listed above)"
[ "$sanitizer_rc" -eq 0 ] && [ "$fuzz_rc" -eq 0 ]
