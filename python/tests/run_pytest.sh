#!/usr/bin/env bash
# Runs the onnx_opt module's pytest suite with Debian's Python (whose numpy, pytest and onnx
# scripts/setup.sh installs), on the package built into the runfiles.
# Arguments: the package's __init__.py, tools/cli/version.h, testdata/models/tiny_cnn.onnx.
set -euo pipefail

python=/usr/bin/python3
package_init="$1"
export ONNX_OPT_VERSION_H="$PWD/$2"
export ONNX_OPT_TESTDATA="$(cd "$(dirname "$3")" && pwd)"
export PYTHONPATH="$(cd "$(dirname "$package_init")/.." && pwd)"
tests="$(cd "$(dirname "$0")" && pwd)"

for module in numpy pytest onnx; do
  if ! "$python" -c "import $module" 2>/dev/null; then
    echo "run_pytest: $python cannot import $module; run scripts/setup.sh as root to install it" >&2
    exit 1
  fi
done

# Under --config=asan (scripts/sanitize_and_fuzz.sh) the module needs the ASan runtime loaded before
# anything else, and Python is not built with it: preload it, with libstdc++ (which Python does not
# load), whose __cxa_throw ASan must find at start-up to intercept C++ throws. Python's own
# allocations at exit are not leaks of the module.
if readelf -d "$(dirname "$package_init")/_onnx_opt.so" | grep -q 'libasan'; then
  export LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libstdc++.so)${LD_PRELOAD:+:$LD_PRELOAD}"
  export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi

# The cache and temporary folders go to the test's own temporary folder, not the runfiles.
exec "$python" -m pytest -p no:cacheprovider --basetemp="${TEST_TMPDIR:-/tmp}/pytest" -v \
  "$tests/test_onnx_opt.py" "$tests/test_onnx_interop.py"
