#!/usr/bin/env bash
# Proves that the onnx_model rule's shrink actions (mnemonic OnnxShrink) are shared through a real
# HTTP remote cache. Starts Debian's nginx with WebDAV PUT on 127.0.0.1 as Bazel's --remote_cache,
# builds every onnx_model target under //examples/... in one fresh output base, then again in a
# second fresh, empty one, and reads both builds' --execution_log_json_file:
#   build 1 must have executed every shrink action itself (nothing of them was in the cache yet),
#           and nginx must have stored what it uploaded;
#   build 2 (with --remote_download_toplevel, as a team member's checkout would) must have run no
#           shrink action: each one a remote cache hit with build 1's output digests, and the files it
#           downloaded must have those contents.
# Both builds run with --disk_cache= (off), so the remote cache is the only cache they have.
#
# The onnx-opt tool the shrink actions run is built in the exec configuration; building it from
# nothing takes long on a small machine. So by default nginx answers a GET that misses its own
# uploads from the project's disk cache (the --disk_cache folder of .bazelrc, read-only; its
# ac/ab/abcd... layout mapped to the HTTP cache's ac/abcd...), except for the action results of the
# shrink actions under test, which it never serves from there: those can only come from build 1's
# uploads. With --no-seed nginx serves its uploads alone and build 1 builds the tool too.
#
# Usage: scripts/remote_cache_test.sh [--no-seed]
# Needs nginx (scripts/setup.sh installs it). Works as root (CI) and as another user. Leaves nothing
# behind: nginx is stopped and both output bases are shut down and removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

seed=1
for arg in "$@"; do
  case "$arg" in
    --no-seed) seed=0 ;;
    *) echo "remote_cache_test: unknown argument $arg (usage: $0 [--no-seed])" >&2; exit 2 ;;
  esac
done

log() { echo "remote_cache_test: $*" >&2; }
fail() { log "FAIL: $*"; exit 1; }

nginx_bin=$(command -v nginx || true)
[ -z "$nginx_bin" ] && [ -x /usr/sbin/nginx ] && nginx_bin=/usr/sbin/nginx
[ -n "$nginx_bin" ] || fail "nginx is not installed (scripts/setup.sh installs Debian's nginx)"
"$nginx_bin" -V 2>&1 | grep -q -- --with-http_dav_module ||
  fail "$nginx_bin has no WebDAV module (http_dav_module); Debian 12's nginx package has it"
python=/usr/bin/python3
[ -x "$python" ] || python=python3

work=$(mktemp -d "${TMPDIR:-/tmp}/onnx-opt-remote-cache.XXXXXX")
nginx_pid=
servers=()  # output bases whose Bazel server may be running
stop_server() {
  bazel --output_base="$1" shutdown >/dev/null 2>&1 || true
  local kept=() ob
  for ob in "${servers[@]}"; do [ "$ob" = "$1" ] || kept+=("$ob"); done
  servers=("${kept[@]}")
}
cleanup() {
  local rc=$?
  for ob in "${servers[@]}"; do stop_server "$ob"; done
  if [ -n "$nginx_pid" ]; then
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ] && [ -f "$work/nginx/error.log" ]; then
    log "nginx error log (last lines):"
    tail -n 20 "$work/nginx/error.log" >&2 || true
  fi
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The targets: every onnx_model rule under //examples/... (queried in output base 1, which build 1
# then uses).
mkdir -p "$work/nginx/tmp" "$work/uploads"
servers+=("$work/ob1")
targets=$(bazel --output_base="$work/ob1" query 'kind("onnx_model rule", //examples/...)' 2>"$work/query.err") ||
  { cat "$work/query.err" >&2; fail "bazel query for the onnx_model targets failed"; }
read -r -a targets <<<"$(echo $targets)"
[ "${#targets[@]}" -gt 0 ] || fail "no onnx_model target under //examples/..."
log "${#targets[@]} onnx_model targets: ${targets[*]}"

# The seed: the project's disk cache without the shrink actions' results. An action result (ac/)
# names its output files; each onnx_model action writes bin/<package>/<name>.report.json.
: >"$work/nginx/deny.map"
seed_dir=
if [ "$seed" -eq 1 ]; then
  seed_dir=$(sed -n 's/^build --disk_cache=//p' .bazelrc | tail -n 1)
  seed_dir=${seed_dir/#\~/$HOME}
  if [ -z "$seed_dir" ] || [ ! -d "$seed_dir/ac" ]; then
    log "no disk cache at '${seed_dir}': nothing to seed from, build 1 builds everything"
    seed_dir=
  else
    for t in "${targets[@]}"; do
      t=${t#//}
      echo "/bin/${t%%:*}/${t#*:}.report.json"
    done >"$work/patterns"
    grep -rlF -f "$work/patterns" "$seed_dir/ac" 2>/dev/null |
      sed 's|.*/\([0-9a-f]*\)$|/ac/\1 1;|' >"$work/nginx/deny.map" || true
    log "seeding from $seed_dir, without its $(wc -l <"$work/nginx/deny.map") shrink action results"
  fi
fi

# nginx as the current user on a free port of 127.0.0.1. PUT writes under uploads/; a GET (or HEAD)
# that finds nothing there is answered from the seed, if any, unless the map denies the key.
user_line=
[ "$(id -u)" -eq 0 ] && user_line="user root;"  # else root's nginx hands its workers to nobody
if [ -n "$seed_dir" ]; then
  fallback="error_page 404 = @seed;"
else
  fallback=
fi
port=
zeros=$(printf '0%.0s' $(seq 64))  # a key no one has: GET answers 404 once nginx is up
for attempt in 1 2 3 4 5; do
  port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  cat >"$work/nginx/nginx.conf" <<EOF
$user_line
worker_processes 2;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 512; }
http {
  access_log $work/nginx/access.log;
  client_body_temp_path $work/nginx/tmp/body;
  proxy_temp_path $work/nginx/tmp/proxy;
  fastcgi_temp_path $work/nginx/tmp/fastcgi;
  uwsgi_temp_path $work/nginx/tmp/uwsgi;
  scgi_temp_path $work/nginx/tmp/scgi;
  client_max_body_size 0;
  default_type application/octet-stream;
  map_hash_bucket_size 128;
  map \$uri \$denied {
    default 0;
    include $work/nginx/deny.map;
  }
  server {
    listen 127.0.0.1:$port;
    root $work/uploads;
    location ~ "^/(ac|cas)/[0-9a-f]{64}\$" {
      log_not_found off;
      dav_methods PUT;
      create_full_put_path on;
      $fallback
    }
    location @seed {
      log_not_found off;
      if (\$denied) { return 404; }
      root ${seed_dir:-$work/uploads};
      rewrite "^/(ac|cas)/([0-9a-f]{2})([0-9a-f]{62})\$" /\$1/\$2/\$2\$3 break;
    }
  }
}
EOF
  "$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
  nginx_pid=$!
  for _ in $(seq 50); do
    if curl -s -o /dev/null "http://127.0.0.1:$port/cas/$zeros"; then break; fi
    kill -0 "$nginx_pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$nginx_pid" 2>/dev/null && curl -s -o /dev/null "http://127.0.0.1:$port/cas/$zeros"; then break; fi
  wait "$nginx_pid" 2>/dev/null || true
  nginx_pid=
  log "nginx did not start on port $port (attempt $attempt)"
  # Another process took the port between the probe and nginx's bind: try another one.
  grep -q 'Address already in use' "$work/nginx/error.log" 2>/dev/null || break
  : >"$work/nginx/error.log"
done
[ -n "$nginx_pid" ] || fail "nginx did not start; see the error log above"
cache="http://127.0.0.1:$port"

# The server stores and returns a blob, and answers 404 for one it does not have.
key=$(printf 'onnx-opt remote cache test %s' "$work" | sha256sum | cut -d' ' -f1)
code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT --data-binary 'probe' "$cache/cas/$key")
[ "$code" = 201 ] || [ "$code" = 204 ] || fail "PUT $cache/cas/$key answered $code"
[ "$(curl -s "$cache/cas/$key")" = probe ] || fail "GET $cache/cas/$key did not return what was PUT"
rm -f "$work/uploads/cas/$key"
code=$(curl -s -o /dev/null -w '%{http_code}' "$cache/ac/$(printf 'absent %s' "$work" | sha256sum | cut -d' ' -f1)")
[ "$code" = 404 ] || fail "GET of an absent key answered $code, not 404"
log "nginx serves $cache (WebDAV PUT, uploads in $work/uploads)"

# Reads an execution log (Bazel 4.2 writes its SpawnExec messages as concatenated JSON objects) and
# prints: shrink actions, of them executed, of them remote cache hits, all spawns executed, and the
# shrink actions' output digests (path:hash,...), and the other actions executed
# (mnemonic=count,...).
summarize() {
  "$python" - "$1" <<'EOF'
import json, sys
text = open(sys.argv[1]).read()
decoder, i, spawns = json.JSONDecoder(), 0, []
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    spawn, i = decoder.raw_decode(text, i)
    spawns.append(spawn)
shrink = [s for s in spawns if s.get("mnemonic") == "OnnxShrink"
          or s.get("progressMessage", "").startswith("Shrinking ONNX model")]
hits = [s for s in shrink if s.get("remoteCacheHit")]
failed = [s for s in shrink if s.get("exitCode", 0) != 0]
executed_all = [s for s in spawns if not s.get("remoteCacheHit")]
outputs = sorted("%s:%s" % (o["path"], o.get("digest", {}).get("hash", "?"))
                 for s in shrink for o in s.get("actualOutputs", []))
counts = {}
for s in executed_all:
    if s not in shrink:
        counts[s.get("mnemonic", "?")] = counts.get(s.get("mnemonic", "?"), 0) + 1
others = ["%s=%d" % (m, n) for m, n in sorted(counts.items())]
print(len(shrink), len(shrink) - len(hits), len(hits), len(executed_all), len(failed),
      ",".join(outputs) or "-", ",".join(others) or "none")
EOF
}

build() {  # build N [FLAGS]: builds the targets in output base N with the remote cache as the only cache
  local n=$1 start=$SECONDS
  shift
  servers+=("$work/ob$n")
  log "build $n: fresh output base $work/ob$n, --remote_cache=$cache, --disk_cache= (off)${*:+ $*}"
  if ! bazel --output_base="$work/ob$n" build --disk_cache= --remote_cache="$cache" \
      --remote_upload_local_results --execution_log_json_file="$work/exec$n.json" "$@" \
      "${targets[@]}" >"$work/build$n.log" 2>&1; then
    tail -n 40 "$work/build$n.log" >&2
    fail "build $n failed"
  fi
  log "build $n took $((SECONDS - start)) s; Bazel: $(grep -o '[0-9]* processes:.*' "$work/build$n.log" | tail -n 1)"
}

build 1
summary=$(summarize "$work/exec1.json") || fail "could not read build 1's execution log"
read -r shrink1 executed1 hits1 spawns_executed1 failed1 outputs1 others1 <<<"$summary"
log "build 1: $shrink1 shrink actions: $executed1 executed, $hits1 from the cache ($spawns_executed1 actions executed in all; others: $others1)"
uploads=$(find "$work/uploads/ac" -type f 2>/dev/null | wc -l)
put_ac=$(grep -c '"PUT /ac/[0-9a-f]* HTTP/1.1" 20[14]' "$work/nginx/access.log" || true)
log "build 1: nginx stored $uploads action results (PUT /ac/: $put_ac) and $(find "$work/uploads/cas" -type f 2>/dev/null | wc -l) blobs"

[ "$shrink1" -ge "${#targets[@]}" ] || fail "build 1 logged $shrink1 shrink actions, expected ${#targets[@]}"
[ "$failed1" -eq 0 ] || fail "build 1: $failed1 shrink actions failed"
[ "$executed1" -eq "$shrink1" ] ||
  fail "build 1: $hits1 of $shrink1 shrink actions came from the cache before any was uploaded"
[ "$uploads" -ge "$shrink1" ] || fail "build 1 uploaded $uploads action results, fewer than its $shrink1 shrink actions"
stop_server "$work/ob1"  # its memory, for build 2

# As a team member's checkout would: only the top-level outputs (the models and reports) are downloaded.
build 2 --remote_download_toplevel
summary=$(summarize "$work/exec2.json") || fail "could not read build 2's execution log"
read -r shrink2 executed2 hits2 spawns_executed2 failed2 outputs2 others2 <<<"$summary"
log "build 2: $shrink2 shrink actions: $executed2 executed, $hits2 remote cache hits ($spawns_executed2 actions executed in all; others: $others2)"

[ "$shrink2" -eq "$shrink1" ] || fail "build 2 logged $shrink2 shrink actions, build 1 $shrink1"
[ "$executed2" -eq 0 ] || fail "build 2 executed $executed2 of $shrink2 shrink actions instead of taking them from the cache"
[ "$hits2" -eq "$shrink1" ] || fail "build 2: $hits2 remote cache hits, expected $shrink1"
[ "$outputs2" = "$outputs1" ] || fail "build 2's shrink outputs differ from build 1's: $outputs2 vs $outputs1"
# And they are there, with those contents.
execroot=$(bazel --output_base="$work/ob2" info execution_root 2>/dev/null) || fail "bazel info execution_root failed"
IFS=, read -r -a outputs <<<"$outputs2"
for output in "${outputs[@]}"; do
  file="$execroot/${output%:*}"
  [ -f "$file" ] || fail "build 2 did not download $file"
  [ "$(sha256sum <"$file" | cut -d' ' -f1)" = "${output##*:}" ] || fail "$file is not what build 1 made"
done
log "build 2 downloaded the ${#outputs[@]} output files of the shrink actions, identical to build 1's"
log "PASS: build 2 ran none of the $shrink2 shrink actions; all came from the remote cache with build 1's outputs"
