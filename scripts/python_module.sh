#!/usr/bin/env bash
# Installs what the onnx_opt Python module needs (scripts/setup.sh, as root), builds it optimized, and
# prints the line that makes it importable by Debian's Python:
#
#   eval "$(./scripts/python_module.sh)"
#   /usr/bin/python3 -c 'import onnx_opt; print(onnx_opt.__version__)'
#
# Everything but that line goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh >&2
bazel build -c opt //python:onnx_opt >&2
site="$(bazel info -c opt bazel-bin 2>/dev/null)/python/site"
/usr/bin/python3 -c "import sys; sys.path.insert(0, '$site'); import onnx_opt" >&2
echo "export PYTHONPATH=$site\${PYTHONPATH:+:\$PYTHONPATH}"
