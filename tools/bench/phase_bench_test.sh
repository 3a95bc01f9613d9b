#!/bin/bash
# phase_bench runs every step on both generated models (one short round each; it times nothing here).
set -euo pipefail
out=$(tools/bench/phase_bench --benchmark_min_time=0.01 2>&1)
echo "$out"
if grep -q "ERROR OCCURRED" <<<"$out"; then echo "a step failed"; exit 1; fi
for step in Load Verify Check Convert21 WriteWire Save; do
  for model in cnn-700 transformer-700; do
    grep -Eq "^$step/$model +[0-9.]+ us" <<<"$out" || { echo "no row for $step/$model"; exit 1; }
  done
done
