#!/usr/bin/env bash
# Sets up the machine, builds everything and runs every test. Ends with one line
# "N passed, M failed, K skipped" counted from the test cases Bazel ran (test.xml of each target),
# plus one for scripts/remote_cache_test.sh, run after them.
# ONNX_CONFORMANCE_DIR and ONNX_REFERENCE_DIR default to the shared folder beside the checkout.
# In CI ($CI set and not "false"; .ci/run sets it) the conformance data must be there: a run without it
# would skip the tests that need it and could pass. Checked first, before anything is installed.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)

if [ -z "${ONNX_CONFORMANCE_DIR:-}" ] && [ -d "$top/../shared/onnx-conformance" ]; then
  export ONNX_CONFORMANCE_DIR="$top/../shared/onnx-conformance"
fi
if [ -z "${ONNX_REFERENCE_DIR:-}" ] && [ -d "$top/../shared/reference" ]; then
  export ONNX_REFERENCE_DIR="$top/../shared/reference"
fi
if [ -n "${CI:-}" ] && [ "$CI" != false ] && [ -z "${ONNX_CONFORMANCE_DIR:-}" ]; then
  echo "test: CI: ONNX_CONFORMANCE_DIR is not set and ../shared/onnx-conformance is missing" >&2
  exit 1
fi
# A folder given must exist (and hold node/). Tests need absolute paths: they run in Bazel's sandbox.
if [ -n "${ONNX_CONFORMANCE_DIR:-}" ]; then
  if [ ! -d "$ONNX_CONFORMANCE_DIR/node" ]; then
    echo "test: ONNX_CONFORMANCE_DIR=$ONNX_CONFORMANCE_DIR has no node/ folder of ONNX's backend tests" >&2
    exit 1
  fi
  export ONNX_CONFORMANCE_DIR="$(cd "$ONNX_CONFORMANCE_DIR" && pwd)"
fi
[ -n "${ONNX_REFERENCE_DIR:-}" ] && export ONNX_REFERENCE_DIR="$(cd "$ONNX_REFERENCE_DIR" && pwd)"

./scripts/setup.sh || exit 1
./scripts/check_format.sh || exit 1
echo "test: ONNX_CONFORMANCE_DIR=${ONNX_CONFORMANCE_DIR:-<unset: conformance tests will skip>}"
echo "test: ONNX_REFERENCE_DIR=${ONNX_REFERENCE_DIR:-<unset: schema table test will skip>}"

log=$(mktemp)
bazel test //... --keep_going "$@" 2>&1 | tee "$log"
bazel_rc=${PIPESTATUS[0]}

# Count test cases from each target's test.xml; a target without one (build failure, crash, timeout)
# counts as one failure.
passed=0
failed=0
skipped=0
while read -r target status; do
  xml="bazel-testlogs/${target#//}"
  xml="${xml/://}/test.xml"
  if [ "$status" = PASSED ] || [ "$status" = FAILED ]; then
    if [ -f "$xml" ]; then
      header=$(grep -m1 -o '<testsuites [^>]*>' "$xml" || true)
      tests=$(sed -n 's/.* tests="\([0-9]*\)".*/\1/p' <<<"$header")
      fails=$(sed -n 's/.* failures="\([0-9]*\)".*/\1/p' <<<"$header")
      errors=$(sed -n 's/.* errors="\([0-9]*\)".*/\1/p' <<<"$header")
      skips=$(grep -c 'result="skipped"' "$xml" || true)
      if [ -n "$tests" ]; then
        bad=$(( ${fails:-0} + ${errors:-0} ))
        if [ "$status" = FAILED ] && [ "$bad" -eq 0 ]; then bad=1; fi
        passed=$(( passed + tests - bad - skips ))
        failed=$(( failed + bad ))
        skipped=$(( skipped + skips ))
        continue
      fi
    fi
  fi
  if [ "$status" = PASSED ]; then passed=$(( passed + 1 )); else failed=$(( failed + 1 )); fi
done < <(grep -E '^//[^ ]+ +(\(cached\) )?(PASSED|FAILED|TIMEOUT|FLAKY|NO STATUS|INCOMPLETE|FAILED TO BUILD)' "$log" \
           | sed -E 's/\(cached\) //' | awk '{print $1, $2}')
rm -f "$log"

if [ "$bazel_rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "test: bazel exited with $bazel_rc before running the tests" >&2
  failed=1
fi

# The onnx_model rule's actions shared through a real HTTP remote cache (nginx): one more test case.
# It runs nested Bazel builds in output bases of its own, so it cannot be a target of `bazel test`.
echo "test: scripts/remote_cache_test.sh"
if ./scripts/remote_cache_test.sh; then
  echo "test: remote cache test PASSED"
  passed=$(( passed + 1 ))
else
  echo "test: remote cache test FAILED" >&2
  failed=$(( failed + 1 ))
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$bazel_rc" -eq 0 ]
