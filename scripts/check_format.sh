#!/usr/bin/env bash
# Checks that every C++ file git tracks follows .clang-format (clang-format 14, Debian 12's), or with
# --fix rewrites those that do not. Exit status 1 names the files to fix.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
  echo "check_format: clang-format is not installed (scripts/setup.sh installs it)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files '*.cc' '*.h')
if [ "${1:-}" = --fix ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 50 -P "$(nproc)" clang-format -i
  exit 0
fi
bad=$(printf '%s\0' "${files[@]}" | xargs -0 -n 1 -P "$(nproc)" \
  sh -c 'clang-format --dry-run -Werror "$1" >/dev/null 2>&1 || echo "$1"' check_format | sort)
if [ -n "$bad" ]; then
  echo "check_format: these files do not follow .clang-format (scripts/check_format.sh --fix):" >&2
  echo "$bad" | sed 's/^/  /' >&2
  exit 1
fi
echo "check_format: ${#files[@]} files follow .clang-format"
