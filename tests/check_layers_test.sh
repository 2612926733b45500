#!/bin/sh
# check_layers_test.sh SOURCE_DIR: tools/check-layers.py passes a copy of
# the library's sources and fails each copy with one include planted
# against the layers, naming the file and line: an engine folder including
# one above it (which also closes a cycle), one beside it, core/ including
# the engine, the shim reaching the engine past dispatch, and mpi/composed/
# including the MPI entry points above it (a cycle of the two).
set -u
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
check="$src/tools/check-layers.py"
copy() {
  rm -rf "$tmp/tree"
  mkdir "$tmp/tree"
  for d in include core engine fallback dispatch shim mpi; do cp -R "$src/$d" "$tmp/tree/$d"; done
}
# plant FILE INCLUDE WORDS...: FILE of a fresh copy gets `#include "INCLUDE"`
# as its last line; the check must fail with a line naming FILE and each
# of WORDS.
plant() {
  file=$1 include=$2
  shift 2
  copy
  [ -f "$tmp/tree/$file" ] || fail "$file is not in the tree"
  printf '#include "%s"\n' "$include" >> "$tmp/tree/$file"
  line=$(wc -l < "$tmp/tree/$file" | tr -d ' ')
  "$check" "$tmp/tree" > "$tmp/out" 2>&1 && fail "$file including $include passed: $(cat "$tmp/out")"
  grep -q "^check-layers: $file:$line: " "$tmp/out" || fail "no line for $file:$line: $(cat "$tmp/out")"
  for w in "$@"; do
    grep -q -- "$w" "$tmp/out" || fail "$file including $include: no '$w' in: $(cat "$tmp/out")"
  done
  echo "failed as it should: $file including $include"
}
copy
"$check" "$tmp/tree" > "$tmp/out" 2>&1 || fail "the unchanged copy: $(cat "$tmp/out")"
plant engine/device/context.h engine/plan/planner.h "upward: engine/plan" "cycle among" "engine/device -> engine/plan"
plant engine/in_core/cufft_job.cc engine/multi/split_job.h "beside it: engine/multi"
plant core/env.h engine/engine.h "upward: engine/"
plant shim/memory.cc engine/engine.h "engine/ is reached through dispatch/ only"
plant mpi/composed/layout.cc mpi/api_impl.h "upward: mpi/api" "cycle among" "mpi/api -> mpi/composed"
echo PASS
