#!/usr/bin/env bash
# Installs onnxruntime-node for the onnxruntime interop test (a test-only dependency; the tools never
# load it) into $ONNX_OPT_NPM_DIR (default /opt/onnx-opt/npm), outside the checkout, with `npm ci`
# from package.json and package-lock.json beside this script: the version and every dependency's
# hash are pinned there. scripts/setup.sh runs it. When the same lock file is already installed it
# only says so.
#
# --ignore-scripts: no package's install script runs (as root). onnxruntime-node's would only fetch
# the CUDA provider from NuGet; its CPU binaries are in the package itself.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${ONNX_OPT_NPM_DIR:-/opt/onnx-opt/npm}
stamp="$dir/installed-package-lock.json"

if cmp -s "$here/package-lock.json" "$stamp" && [ -f "$dir/node_modules/onnxruntime-node/package.json" ]; then
  echo "setup: onnxruntime-node (tools/ort_interop/package-lock.json) is installed in $dir"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "setup: npm is missing; it is needed to install onnxruntime-node for the interop test" >&2
  exit 1
fi
if ! mkdir -p "$dir" 2>/dev/null || [ ! -w "$dir" ]; then
  echo "setup: cannot write $dir to install onnxruntime-node; run this as root, or set ONNX_OPT_NPM_DIR" \
       "to a folder you can write (and pass it to the tests: bazel reads it through --test_env)" >&2
  exit 1
fi
echo "setup: installing onnxruntime-node into $dir"
rm -f "$stamp"
cp "$here/package.json" "$here/package-lock.json" "$dir/"
(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
cp "$here/package-lock.json" "$stamp"
echo "setup: onnxruntime-node installed in $dir"
