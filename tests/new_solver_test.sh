#!/bin/sh
# new_solver_test.sh SOURCE_DIR CXX [CUDA_INCLUDE_DIR]: a new solver is one
# folder under engine/ (its suits, its cost and its make) and its entry in
# engine/plan/table.cc (with the include of its header). On a copy of the library's sources given a
# stand-in solver so (engine/standin/ and its entry), tools/check-layers.py
# passes and places the folder among the solvers (including another
# solver's folder, or being included by the staging primitives, fails), the
# engine library's sources (engine/sources.cmake) take it in, and where
# CUDA's headers are given the stand-in and the table compile with it.
set -u
src=$1 cxx=$2 cuda=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
tree=$tmp/tree
mkdir "$tree" "$tree/tools"
for d in include core engine fallback dispatch shim mpi; do cp -R "$src/$d" "$tree/$d"; done
cp "$src/tools/check-layers.py" "$tree/tools/"

mkdir "$tree/engine/standin"
cat > "$tree/engine/standin/standin.h" <<'H'
#pragma once
#include "engine/solver/solver.h"
namespace gpufftw::engine {
extern const Solver kStandInSolver;
}  // namespace gpufftw::engine
H
cat > "$tree/engine/standin/standin.cc" <<'C'
#include "engine/standin/standin.h"
namespace gpufftw::engine {
namespace {
bool suits(const Geometry &, const std::vector<int> &, Reason *why_not) {
  return decline(why_not, Reason::Code::NotItsKind, "a stand-in takes nothing");
}
Price cost(const Geometry &g, const std::vector<int> &) { return {array_bytes(g), array_bytes(g)}; }
std::unique_ptr<FftJob> make(const Geometry &, const Ask &, Reason *why) {
  return *why = {Reason::Code::NoJob, "a stand-in makes nothing"}, nullptr;
}
}  // namespace
const Solver kStandInSolver = {"stand-in", false, Gives::Transform, suits, cost, make};
}  // namespace gpufftw::engine
C
table=$tree/engine/plan/table.cc
grep -q '^  };$' "$table" || fail "engine/plan/table.cc has no end of its list to add a line before"
sed -i -e 's|^#include "engine/plan/table.h"$|&\n#include "engine/standin/standin.h"|' \
  -e 's|^  };$|      kStandInSolver,\n  };|' "$table"
grep -q 'kStandInSolver,' "$table" && grep -q 'standin/standin.h' "$table" || fail "the stand-in's line not added: $(cat "$table")"

check="$tree/tools/check-layers.py"
"$check" "$tree" > "$tmp/out" 2>&1 || fail "the layer check refused the stand-in solver: $(cat "$tmp/out")"
echo "the layer check takes engine/standin/"
# against FILE INCLUDE WORDS: the check fails once FILE includes INCLUDE,
# saying WORDS.
against() {
  cp "$tree/$1" "$tmp/kept"
  printf '#include "%s"\n' "$2" >> "$tree/$1"
  "$check" "$tree" > "$tmp/out" 2>&1 && fail "$1 including $2 passed: $(cat "$tmp/out")"
  grep -q -- "$3" "$tmp/out" || fail "$1 including $2: no '$3' in: $(cat "$tmp/out")"
  cp "$tmp/kept" "$tree/$1"
  echo "the layer check places it: $1 including $2 fails ($3)"
}
against engine/standin/standin.cc engine/in_core/cufft_job.h "beside it: engine/in_core"
against engine/staging/sides.h engine/standin/standin.h "upward: engine/standin"

cat > "$tmp/list.cmake" <<'L'
include(${ENGINE}/sources.cmake)
gpufftw_engine_sources(sources ${ENGINE})
foreach(f ${sources})
  message("${f}")
endforeach()
L
cmake -DENGINE="$tree/engine" -P "$tmp/list.cmake" > "$tmp/sources" 2>&1 || fail "engine/sources.cmake: $(cat "$tmp/sources")"
grep -qx "standin/standin.cc" "$tmp/sources" || fail "the engine's sources leave out standin/standin.cc: $(cat "$tmp/sources")"
grep -qx "plan/table.cc" "$tmp/sources" || fail "the engine's sources leave out plan/table.cc: $(cat "$tmp/sources")"
echo "the engine library builds engine/standin/standin.cc"

if [ -z "$cuda" ] || [ ! -f "$cuda/cuda_runtime_api.h" ]; then
  echo "no CUDA headers here: the stand-in and the table are not compiled"
else
  for f in engine/standin/standin.cc engine/plan/table.cc; do
    "$cxx" -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I"$tree" -I"$tree/include" -isystem "$cuda" "$tree/$f" \
      > "$tmp/cc" 2>&1 || fail "$f does not compile with the stand-in: $(cat "$tmp/cc")"
  done
  echo "the stand-in and the table with its line compile"
fi
echo PASS
