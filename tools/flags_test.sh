#!/usr/bin/env bash
# The four tools' command lines (gflags): --help documents exactly the flags the tool defines (its own
# and the shared ones it links, from gflags' registry as --helpxml lists it, plus the common ones),
# and names no flag that does not exist; --version; usage errors exit 2; --flagfile and the older
# forms (-o FILE, repeated --dim) still work.
set -uo pipefail
# (Pipelines end in plain grep, not grep -q, which would stop reading and SIGPIPE the writer.)
model=$1
shift
work=$(mktemp -d "${TEST_TMPDIR:-/tmp}/flags.XXXXXX")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# gflags' and glog's flags each tool's --help lists too (tools/cli/flag_help.cc).
common="flagfile help helpfull v version"

for tool in "$@"; do
  name=$(basename "$tool")
  "$tool" --help >"$work/$name.help" 2>"$work/$name.help.err"; rc=$?
  [ "$rc" -eq 0 ] || fail "$name --help: exit $rc: $(cat "$work/$name.help.err")"
  # (gflags ends --helpxml with exit status 1.)
  "$tool" --helpxml >"$work/$name.xml" 2>/dev/null
  grep -q "^<program>$name</program>$" "$work/$name.xml" || fail "$name --helpxml: $(head -3 "$work/$name.xml")"
  # Defined: every flag registered from a file under tools/, by gflags' own account; typed with dashes.
  defined=$( (grep -o '<flag><file>tools/[^<]*</file><name>[^<]*</name>' "$work/$name.xml" |
                sed 's/.*<name>\(.*\)<\/name>/\1/' | tr _ -; printf '%s\n' $common) | sort -u)
  # Documented: the flag column of --help ("  -o, --output=FILE   ...", "      --verify   ...").
  documented=$(sed -n 's/^  \(-[a-z], \)\{0,1\} *--\([a-z0-9-]*\).*/\2/p' "$work/$name.help" | sort -u)
  [ -n "$(printf '%s\n' $defined | grep -vx -e help -e helpfull -e version -e flagfile -e v)" ] ||
    fail "$name: no flags of its own in --helpxml"
  [ "$defined" = "$documented" ] ||
    fail "$name --help documents other flags than it defines: $(diff <(echo "$defined") <(echo "$documented") | grep '^[<>]' | tr '\n' ' ')"
  # Every --flag the help text mentions (usage prose included) exists in this binary.
  known=$(sed -n 's/.*<name>\([^<]*\)<\/name>.*/\1/p' "$work/$name.xml" | tr _ - | sort -u)
  for mentioned in $(grep -o -- '--[a-z][a-z0-9-]*' "$work/$name.help" | sed 's/^--//' | sort -u); do
    printf '%s\n' $known | grep -x -- "$mentioned" >/dev/null || fail "$name --help mentions --$mentioned, which it does not define"
  done
  grep -q "^usage: $name " "$work/$name.help" || fail "$name --help has no usage line"
  # gflags' internal flags stay out of --help (they are in --helpfull).
  ! grep -q -- "--tryfromenv\|--logtostderr" "$work/$name.help" || fail "$name --help lists gflags/glog internals"
  "$tool" --helpfull >"$work/$name.full" 2>&1 || fail "$name --helpfull: exit $?"
  grep -q -- "-logtostderr" "$work/$name.full" || fail "$name --helpfull does not list glog's flags"

  # --version: version, git revision, build mode, vector kernels.
  "$tool" --version >"$work/$name.version" 2>&1 || fail "$name --version failed: $(cat "$work/$name.version")"
  grep -q "^$name [0-9][0-9.]*$" "$work/$name.version" || fail "$name --version: $(cat "$work/$name.version")"
  grep -q "^git revision: [0-9a-z-]*$" "$work/$name.version" || fail "$name --version has no git revision line"
  grep -Eq "^build: (opt|fastbuild|dbg)$" "$work/$name.version" || fail "$name --version has no build mode"
  grep -q "^vector kernels: [a-z0-9]* (CPU supports [a-z0-9]*)$" "$work/$name.version" ||
    fail "$name --version has no vector kernels line"

  # Usage errors exit 2 (gflags alone would exit 1), with one line naming the flag.
  err=$("$tool" --no-such-flag "$model" 2>&1 >/dev/null); rc=$?
  [ "$rc" -eq 2 ] || fail "$name --no-such-flag: exit $rc, expected 2"
  case "$err" in *"unknown flag '--no-such-flag'"*) ;; *) fail "$name --no-such-flag: $err" ;; esac
  "$tool" --v=many "$model" >/dev/null 2>&1; rc=$?
  [ "$rc" -eq 2 ] || fail "$name --v=many: exit $rc, expected 2"
done

by_name() { for t in "$@"; do [ "$(basename "$t")" = "$name" ] && echo "$t"; done; }
name=onnx-opt; opt=$(by_name "$@")
name=onnx-run; run=$(by_name "$@")
name=onnx-convert; convert=$(by_name "$@")
name=onnx-check; check=$(by_name "$@")

# Integer flags are gflags' to parse: a word is a usage error.
for bad in "$opt $model -o $work/x.onnx --fold-size-limit=big" "$opt $model -o $work/x.onnx --threads=two" \
           "$run $model --repeat=x" "$convert $model -o $work/x.onnx --opset=x" "$opt $model -o $work/x.onnx --seed=-1"; do
  $bad >/dev/null 2>&1; rc=$?
  [ "$rc" -eq 2 ] || fail "'$bad': exit $rc, expected 2"
done
[ ! -e "$work/x.onnx" ] || fail "a usage error wrote an output"
"$opt" "$model" -o "$work/x.onnx" --fold-size-limit=-1 >/dev/null 2>&1; [ $? -eq 2 ] || fail "--fold-size-limit=-1 should exit 2"
"$opt" "$model" -o >/dev/null 2>&1; [ $? -eq 2 ] || fail "-o without a value should exit 2"

# -o, --output=, repeated and listed --dim, --shape: the same run.
"$run" "$model" --dim N=2 --outputs "$work/a" >/dev/null 2>&1 || fail "onnx-run --dim N=2"
"$run" "$model" --dim=N=2,M=5 --outputs "$work/b" >/dev/null 2>&1 || fail "onnx-run --dim=N=2,M=5"
"$run" "$model" --dim N=2 --dim M=5 --outputs "$work/c" >/dev/null 2>&1 || fail "onnx-run --dim N=2 --dim M=5"
cmp -s "$work/a/output_0.pb" "$work/b/output_0.pb" && cmp -s "$work/a/output_0.pb" "$work/c/output_0.pb" ||
  fail "--dim forms give different outputs"
"$run" "$model" --shape input=3,3,16,16 --outputs "$work/d" >/dev/null 2>&1 || fail "onnx-run --shape input=3,3,16,16"
"$run" "$model" --dim=N=3 --outputs "$work/e" >/dev/null 2>&1 || fail "onnx-run --dim=N=3"
cmp -s "$work/d/output_0.pb" "$work/e/output_0.pb" || fail "--shape and --dim give different outputs"
"$opt" "$model" -o "$work/o1.onnx" 2>/dev/null || fail "onnx-opt -o FILE"
"$opt" "$model" --output="$work/o2.onnx" 2>/dev/null || fail "onnx-opt --output=FILE"
cmp -s "$work/o1.onnx" "$work/o2.onnx" || fail "-o and --output wrote different models"

# --flagfile comes with gflags.
printf -- '--passes=nonsense\n' >"$work/flags"
"$opt" "$model" -o "$work/x.onnx" --flagfile="$work/flags" >/dev/null 2>&1; [ $? -eq 2 ] || fail "--flagfile not read"
printf -- '--all-errors\n' >"$work/flags"
"$check" --flagfile="$work/flags" "$model" | grep ": ok$" >/dev/null || fail "onnx-check --flagfile"

# Short runs log nothing extra; --v=1 traces every pass with its rewrite count; --quiet silences it.
"$opt" "$model" -o "$work/q.onnx" 2>"$work/short.err" || fail "onnx-opt on the model"
[ ! -s "$work/short.err" ] || fail "a short run printed: $(cat "$work/short.err")"
"$opt" "$model" -o "$work/q.onnx" --v=1 2>"$work/v1.err" || fail "onnx-opt --v=1"
grep -q "^onnx-opt: pass fuse-bn-into-conv: [0-9]* rewrites, nodes [0-9]* -> [0-9]*, [0-9.]* ms$" "$work/v1.err" ||
  fail "--v=1 does not trace passes: $(head -5 "$work/v1.err")"
"$opt" "$model" -o "$work/q.onnx" --v=1 --quiet 2>"$work/quiet.err" || fail "onnx-opt --v=1 --quiet"
[ ! -s "$work/quiet.err" ] || fail "--quiet printed: $(head -3 "$work/quiet.err")"
"$convert" "$model" -o "$work/c11.onnx" --opset=11 --v=1 2>"$work/cv1.err" || fail "onnx-convert --v=1"
grep -q "^onnx-convert: opset step ai.onnx [0-9]* -> [0-9]*: [0-9]* nodes$" "$work/cv1.err" ||
  fail "onnx-convert --v=1 does not trace steps: $(head -5 "$work/cv1.err")"
ls /tmp/onnx-opt.* /tmp/onnx-convert.* >/dev/null 2>&1 && fail "glog wrote log files to /tmp"

# --dot writes DOT text or, for .svg, renders it with Graphviz; --dot-diff colours the changes.
"$opt" "$model" -o "$work/p.onnx" --dot="$work/p.dot" --dot-diff 2>/dev/null || fail "onnx-opt --dot --dot-diff"
grep -q "^digraph model {" "$work/p.dot" || fail "--dot wrote no DOT: $(head -3 "$work/p.dot")"
grep -q "(removed)" "$work/p.dot" || fail "--dot-diff shows no removed node"
"$opt" "$model" -o "$work/p.onnx" --dot="$work/p.svg" 2>/dev/null || fail "onnx-opt --dot=FILE.svg"
grep -q "<svg" "$work/p.svg" || fail "--dot=FILE.svg is not SVG"
"$opt" "$model" -o "$work/p2.onnx" --dot-diff >/dev/null 2>&1; [ $? -eq 2 ] || fail "--dot-diff without --dot should exit 2"
PATH=/nonexistent "$opt" "$model" -o "$work/p3.onnx" --dot="$work/p3.svg" 2>"$work/nodot.err"; rc=$?
[ "$rc" -eq 1 ] || fail "--dot=FILE.svg without dot: exit $rc, expected 1"
grep -q "needs Graphviz's dot on the PATH" "$work/nodot.err" || fail "no dot: $(cat "$work/nodot.err")"
[ ! -e "$work/p3.onnx" ] || fail "a failed --dot still wrote the model"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all flag checks passed"
