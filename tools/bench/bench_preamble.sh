# What the benchmark scripts of this folder share (decode_step_bench.sh, large_model_memory.sh).
# Sourced after a script has parsed its flags into $dir and $keep and set $here, where its tools are
# (runfiles under bazel run); their sh_binary targets depend on :bench_preamble for it.

# The scripts read peak RSS from /usr/bin/time -f '%M'; bash's time keyword has no such field.
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

# bench_work_dir NAME [NEED_KB]: makes $work, a new folder under $dir, removed on exit unless $keep
# is 1. With NEED_KB, fails first when $dir has less free, so a long run does not die near its end.
bench_work_dir() {
  local name="$1" need_kb="${2:-0}" free_kb
  if ((need_kb > 0)); then
    free_kb=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
    if ((free_kb < need_kb)); then
      echo "not enough room in $dir: $((free_kb / 1024)) MiB free, $((need_kb / 1024)) MiB needed (use --dir)" >&2
      exit 1
    fi
  fi
  work="$(mktemp -d "$dir/$name.XXXXXX")"
  if ((keep)); then
    echo "models kept in $work"
  else
    trap 'rm -rf "$work"' EXIT
  fi
}
