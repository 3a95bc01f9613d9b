#!/bin/bash
# decode_matmul_bench runs on tiny weights: a bandwidth line, and a row per kernel, M and ISA.
set -euo pipefail
out=$(tools/bench/decode_matmul_bench --sizes=300 --gib=0.004 --rounds=1 --threads=2)
echo "$out"
grep -Eq "^read bandwidth, 1 thread\(s\): [0-9.]+ GB/s" <<<"$out" || { echo "no bandwidth line"; exit 1; }
for kernel in "f32 skinny" "f32 blocked" "int8 fused" "int4 fused" "nbits fused" "nbits dequant"; do
  grep -Eq " 300 x 300 +$kernel +[0-9.]+ ms +[0-9.]+ GB/s +[0-9.]+%" <<<"$out" || { echo "no row for $kernel"; exit 1; }
done
