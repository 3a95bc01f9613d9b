#!/usr/bin/env bash
# Keeps Bazel's disk cache (.bazelrc's --disk_cache, or the folder given) under a size limit: Bazel
# 4.2 never removes anything from it. Over $ONNX_OPT_DISK_CACHE_GIB GiB (default 20; 0 turns this
# off) it removes the least recently used files until under 75% of the limit, so that it does not
# run again at the next set-up. Prints one line. scripts/setup.sh runs it.
#
#   scripts/prune_disk_cache.sh [DIR]
#
# "Recently used" is the access time. Bazel 4.2 reads a hit's files and never touches their mtime
# (its DiskCacheClient has no setLastModifiedTime), so the mtime is when an entry was written. Under
# relatime (this machine's ext4 mount) a read updates an access time a day old or older, so the order
# is exact to within a day; under noatime it falls back to the order in which entries were written.
# Removing a cas/ blob whose ac/ entry stays is safe: Bazel 4.2 takes the missing blob for a cache
# miss and runs the action again.
set -euo pipefail
# sort -n and awk read and print "1.5" with a point whatever the user's locale.
export LC_ALL=C

dir="${1:-}"
if [ -z "$dir" ]; then
  dir=$(sed -n 's/^build --disk_cache=//p' "$(dirname "$0")/../.bazelrc" | tail -n 1)
  dir=${dir/#\~/$HOME}
fi
# find prints "$dir/..." as given: one form for the prefix check below.
while [[ "$dir" == */ && "$dir" != / ]]; do dir=${dir%/}; done
limit_gib="${ONNX_OPT_DISK_CACHE_GIB:-20}"
if ! [[ "$limit_gib" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
  echo "prune_disk_cache: ONNX_OPT_DISK_CACHE_GIB=$limit_gib is not a number of GiB" >&2
  exit 2
fi
if awk -v l="$limit_gib" 'BEGIN { exit !(l == 0) }'; then
  echo "prune_disk_cache: off (ONNX_OPT_DISK_CACHE_GIB=0)"
  exit 0
fi
# Only a folder that looks like a disk cache: a mistyped path must not empty some other folder.
if [ -z "$dir" ] || { [ ! -d "$dir/ac" ] && [ ! -d "$dir/cas" ]; }; then
  echo "prune_disk_cache: no disk cache at '${dir}' yet"
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One pass over the files (never the folder itself, nor links or other mounts): access time, disk
# use in 512-byte blocks (what du counts) and path, NUL-separated, least recently used first. Files
# a running build renames or removes meanwhile are skipped (-ignore_readdir_race).
find "$dir" -mindepth 1 -xdev -ignore_readdir_race -type f -printf '%A@ %b %p\0' |
  sort -z -n >"$tmp/files"
# The paths to remove, NUL-separated, to xargs; the summary to a file, printed once they are gone.
awk -v RS='\0' -v ORS='\0' -v prefix="$dir/" -v limit_gib="$limit_gib" -v summary="$tmp/summary" '
  function size(bytes) {
    if (bytes >= 1024 * 1024 * 1024) return sprintf("%.1f GiB", bytes / (1024 * 1024 * 1024))
    return sprintf("%.1f MiB", bytes / (1024 * 1024))
  }
  {
    rest = substr($0, index($0, " ") + 1)
    blocks[NR] = substr(rest, 1, index(rest, " ") - 1)
    path[NR] = substr(rest, index(rest, " ") + 1)
    total += blocks[NR] * 512
  }
  END {
    limit = limit_gib * 1024 * 1024 * 1024
    removed = 0
    freed = 0
    if (total > limit) {
      for (i = 1; i <= NR && total - freed > 0.75 * limit; i++) {
        if (substr(path[i], 1, length(prefix)) != prefix) continue
        print path[i]
        removed++
        freed += blocks[i] * 512
      }
    }
    if (removed == 0)
      printf "%s in %d files, under the %s GiB limit: nothing removed\n", size(total), NR, limit_gib \
        >summary
    else
      printf "%s in %d files, over the %s GiB limit: removed the %d least recently used (%s), %s left\n",
        size(total), NR, limit_gib, removed, size(freed), size(total - freed) >summary
  }' "$tmp/files" | xargs -0 -r rm -f --
echo "prune_disk_cache: $dir: $(cat "$tmp/summary")"
