#!/usr/bin/env bash
# Installs what onnx-opt needs to build and test on Debian 12, as root. Safe to run again: it only
# installs what is missing. First it trims Bazel's disk cache to its size limit
# (scripts/prune_disk_cache.sh, $ONNX_OPT_DISK_CACHE_GIB).
set -euo pipefail

# Before the package check, which can end the script early. A failed pruning only costs disk.
"$(dirname "$0")/prune_disk_cache.sh" || echo "setup: pruning the disk cache failed; going on" >&2

packages=(
  bazel-bootstrap
  g++
  pkg-config
  protobuf-compiler
  libprotobuf-dev
  libabsl-dev
  libboost-graph-dev
  libgflags-dev
  libgoogle-glog-dev
  # the tools link statically (tools/tool_linkopts.bzl): glog's stack traces need these archives
  libunwind-dev
  liblzma-dev
  libgtest-dev
  libgmock-dev
  libbenchmark-dev
  libeigen3-dev
  # dot renders onnx-opt --dot=FILE.svg (tools/dot); its test renders for real
  graphviz
  # the fuzzers (tools/fuzz): clang, libFuzzer and the sanitizer runtimes
  clang
  # the code's format (.clang-format), checked by scripts/check_format.sh
  clang-format
  libclang-rt-14-dev
  # the Python module (python/): headers to build it, numpy and pytest to test it, onnx for the
  # interop tests; all for Debian's /usr/bin/python3
  python3-dev
  pybind11-dev
  python3-numpy
  python3-pytest
  python3-onnx
  # gives the module its own copy of libprotobuf (python/BUILD.bazel: private_protobuf)
  patchelf
  # Bazel's HTTP remote cache for scripts/remote_cache_test.sh: Debian 12's nginx has the WebDAV
  # module (PUT). The test runs its own instance on a free port; the package's service (started by
  # the install where systemd runs; not in our container, whose policy-rc.d denies it) is not used
  nginx
  # the test's probe of the server
  curl
)
# node and npm install and run onnxruntime-node for the onnxruntime interop test (tools/ort_interop):
# Debian's, unless a node is there already (NodeSource's nodejs brings its own npm).
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)
# Then onnxruntime-node itself, pinned, outside the checkout (quick when it is there already).
install_onnxruntime_node="$(dirname "$0")/../tools/ort_interop/install.sh"

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages are installed"
  exec "$install_onnxruntime_node"
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]}; run this script as root to install them" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
exec "$install_onnxruntime_node"
