#!/bin/bash
# Checks the layout hot_code_at_start.cc relies on, in each statically linked tool: the listed
# functions sit before the end marker, the tool's other functions after it, and all of them before
# .fini and the read-only data. Sanitizer builds link the tools dynamically, without the
# ordering and without the marker; the test checks that instead.
#   hot_code_layout_test.sh TEXT_ORDER_TXT TOOL...
set -euo pipefail
order=$1
shift
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# The address of symbol $1 in the current tool's symbols (nm -n), in hex; empty when it has none.
address() { awk -v s="$1" '$3 == s { print $1; exit }' <<<"$symbols"; }

for tool in "$@"; do
  name=$(basename "$tool")
  symbols=$(nm -n "$tool")
  marker=$(address onnx_opt_hot_text_end)
  if readelf -l "$tool" | grep -q INTERP; then
    [[ -z $marker ]] || fail "$name is linked dynamically but has the hot code marker"
    echo "$name: linked dynamically, no hot code marker"
    continue
  fi
  [[ -n $marker ]] || fail "$name: no onnx_opt_hot_text_end"
  start=$((16#$(address __ehdr_start)))
  hot_end=$((16#$marker))
  fini=$((16#$(address _fini)))
  etext=$((16#$(address etext)))
  ((start < hot_end && hot_end < fini && fini < etext)) ||
    fail "$name: expected __ehdr_start < onnx_opt_hot_text_end < _fini < etext"

  # The tool's own functions (onnx_opt's): the listed ones lie before the marker, the others after
  # it. A name can stand for several local functions (a clone per file): it counts once, at its
  # first address.
  read -r listed before unlisted after < <(
    awk -v hot_end="$hot_end" '
      function hex(s,   n, i) {
        n = 0
        for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return n
      }
      FNR == NR { if (sub(/^\.text\./, "")) in_list[$0] = 1; next }
      $2 ~ /^[tT]$/ && $3 ~ /^_ZN8onnx_opt/ && !seen[$3]++ {
        low = hex($1) < hot_end
        if ($3 in in_list) { listed++; before += low } else { unlisted++; after += !low }
      }
      END { print listed + 0, before + 0, unlisted + 0, after + 0 }' "$order" - <<<"$symbols")
  ((listed > 100 && unlisted > 100)) || fail "$name: $listed listed and $unlisted other functions of its own"
  ((before * 100 >= listed * 98)) || fail "$name: $before of $listed listed functions before the marker"
  ((after * 100 >= unlisted * 98)) || fail "$name: $after of $unlisted functions not listed after the marker"
  echo "$name: hot code $(((hot_end - start) / 1024)) KiB of $(((fini - start) / 1024)) KiB; before the marker" \
    "$before of $listed listed functions, after it $after of $unlisted others"
done
echo PASS
