#!/bin/bash
# model_bench --limits on two small models: the CPU and probe lines, and a row with numbers for each
# model on the ISA in use and the baseline, at 1 and 2 threads (figures from a test build mean
# nothing; only their presence is checked).
set -euo pipefail
out=$(tools/bench/model_bench --limits --models=small_ops,lstm --runs=1 --threads=2 --bandwidth_mib=64)
echo "$out"
grep -Eq "^CPU: .+; ISA in use: [a-z0-9]+$" <<<"$out" || { echo "no CPU line"; exit 1; }
isa=$(sed -nE 's/^CPU: .*; ISA in use: ([a-z0-9]+)$/\1/p' <<<"$out")
for probe_isa in $(echo "$isa baseline" | tr ' ' '\n' | sort -u); do
  grep -Eq "^peak of one core, $probe_isa \(FMA probe\): [0-9.]+ GFLOP/s$" <<<"$out" || { echo "no peak line for $probe_isa"; exit 1; }
done
for threads in 1 2; do
  grep -Eq "^read bandwidth, $threads thread\(s\): [0-9.]+ GB/s$" <<<"$out" || { echo "no bandwidth line for $threads threads"; exit 1; }
done
num='[0-9]+\.[0-9]+'
for config in "$isa x1" "$isa x2" "baseline x1" "baseline x2"; do
  # small_ops has no matrix work: its GFLOP/s and %peak are "-".
  grep -Eq "^small_ops +$config +$num +- +- +$num +$num +($num%|-)$" <<<"$out" || { echo "no small_ops row for $config"; exit 1; }
  grep -Eq "^lstm +$config +$num +$num +$num% +$num +$num +$num%$" <<<"$out" || { echo "no lstm row for $config"; exit 1; }
done
# An unknown model is refused with the zoo's names.
if err=$(tools/bench/model_bench --limits --models=nope 2>&1); then echo "--models=nope accepted"; exit 1; fi
grep -q "no model 'nope' in the zoo (resnet50, " <<<"$err" || { echo "unexpected error: $err"; exit 1; }
