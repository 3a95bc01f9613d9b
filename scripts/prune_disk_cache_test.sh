#!/usr/bin/env bash
# scripts/prune_disk_cache.sh on a fake disk cache of 1 MiB files with set access times: it removes
# the least recently accessed (not the least recently modified) until under 75% of the limit, and
# nothing outside the cache folder, the folder itself, links, or a folder that is not a disk cache.
set -euo pipefail
prune="$(dirname "$0")/prune_disk_cache.sh"
[ -x "$prune" ] || prune="${TEST_SRCDIR:-}/onnx_opt/scripts/prune_disk_cache.sh"
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/prune_disk_cache_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# Ten 1 MiB files f0..f9, f0 accessed longest ago, f9 last; their mtimes the other way round, so a
# pruning by mtime would remove the wrong ones. f1's name has a space and a newline. Nothing below
# reads the files' contents, which could update their access times.
cache="$tmp/cache"
mkdir -p "$cache/ac/00" "$cache/cas/aa" "$cache/cas/bb"
names=(ac/00/f0 $'cas/aa/f 1\nx' cas/bb/f2 ac/00/f3 cas/aa/f4 cas/bb/f5 ac/00/f6 cas/aa/f7 cas/bb/f8 cas/aa/f9)
make_cache() {
  local base=1700000000 i
  for i in "${!names[@]}"; do
    head -c $((1024 * 1024)) /dev/zero >"$cache/${names[$i]}"
    touch -m -d "@$((base + (10 - i) * 86400))" "$cache/${names[$i]}"
    touch -a -d "@$((base + i * 86400))" "$cache/${names[$i]}"
  done
}
make_cache
echo outside >"$tmp/outside"
ln -s "$tmp/outside" "$cache/cas/aa/link"

# 10 MiB against an 8 MiB limit: the four oldest go (6 MiB left, 75% of 8).
out=$(ONNX_OPT_DISK_CACHE_GIB=0.0078125 "$prune" "$cache/")
echo "$out"
[[ "$out" == *"removed the 4 least recently used (4.0 MiB), 6.0 MiB left"* ]] || fail "summary: $out"
for i in "${!names[@]}"; do
  if ((i < 4)); then
    [ ! -e "$cache/${names[$i]}" ] || fail "${names[$i]} (accessed longest ago) was kept"
  else
    [ -f "$cache/${names[$i]}" ] || fail "${names[$i]} (accessed recently) was removed"
  fi
done
[ -d "$cache/ac/00" ] && [ -d "$cache/cas/aa" ] || fail "a folder was removed"
[ -L "$cache/cas/aa/link" ] && [ -f "$tmp/outside" ] || fail "the link or its target was removed"

# Under the limit now: nothing more goes.
out=$(ONNX_OPT_DISK_CACHE_GIB=0.0078125 "$prune" "$cache")
[[ "$out" == *"nothing removed"* ]] || fail "second run: $out"
[ "$(find "$cache" -type f -printf x | wc -c)" -eq 6 ] || fail "second run removed files"

# Off, a bad value, and a folder without ac/ or cas/ leave everything.
rm -rf "$cache"
mkdir -p "$cache/ac/00" "$cache/cas/aa" "$cache/cas/bb"
make_cache
out=$(ONNX_OPT_DISK_CACHE_GIB=0 "$prune" "$cache")
[[ "$out" == *"off"* ]] || fail "ONNX_OPT_DISK_CACHE_GIB=0: $out"
if ONNX_OPT_DISK_CACHE_GIB=lots "$prune" "$cache" 2>/dev/null; then
  fail "ONNX_OPT_DISK_CACHE_GIB=lots was accepted"
fi
mkdir -p "$tmp/other/x"
head -c $((1024 * 1024)) /dev/zero >"$tmp/other/x/f"
out=$(ONNX_OPT_DISK_CACHE_GIB=0.0001 "$prune" "$tmp/other")
[[ "$out" == *"no disk cache"* ]] || fail "not a disk cache: $out"
[ -f "$tmp/other/x/f" ] || fail "a file of a folder that is not a disk cache was removed"
[ "$(find "$cache" -type f -printf x | wc -c)" -eq 10 ] || fail "off or a bad value removed files"

if ((failures)); then
  echo "$failures failures" >&2
  exit 1
fi
echo PASS
