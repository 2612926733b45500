#!/bin/sh
# address_space_measure_test.sh BUILD_DIR PROGRAM BUDGET_KB: PROGRAM
# (tests/hazards/impulse_main.c) with a 16 MB array under FFTW_MEASURE,
# preloaded and through the drop-in folder, under ulimit -v from the lowest
# limit at which plain FFTW runs it upward in steps of 1,024 KB. The real
# FFTW aborts where its planner runs out; gpufftw plans with FFTW_ESTIMATE
# or gives a NULL plan where the room left may not hold the plan
# (docs/how-it-works.md, "Address space"). So no run dies by a signal:
# each exits 0, or 3 or 4 as FFTW's NULLs; and from BUDGET_KB above plain
# FFTW's lowest limit each exits 0. Far above, the plan is measured, and
# with no limit nothing is said.
set -u
build=$1 program=$2 budget=$3
. "$(dirname "$0")/scratch.sh"
# status WAY LIMIT: PROGRAM's exit status under ulimit -v LIMIT (unlimited: none).
status() {
  case $1 in
    plain) (ulimit -v "$2" && exec "$program" 1048576 measure) > "$tmp/out" 2>&1 ;;
    preload) (ulimit -v "$2" && LD_PRELOAD="$build/libgpufftw.so.1" exec "$program" 1048576 measure) > "$tmp/out" 2>&1 ;;
    drop-in) (ulimit -v "$2" && LD_LIBRARY_PATH="$build/dropin" exec "$program" 1048576 measure) > "$tmp/out" 2>&1 ;;
  esac
  echo $?
}
lo=8192 hi=262144
[ "$(status plain $hi)" = 0 ] || fail "plain: fails at $hi KB: $(cat "$tmp/out")"
while [ $((hi - lo)) -gt 256 ]; do
  mid=$(((lo + hi) / 2))
  if [ "$(status plain $mid)" = 0 ]; then hi=$mid; else lo=$mid; fi
done
plain=$hi
for way in preload drop-in; do
  limit=$plain first=0 estimated=0
  while [ $limit -le $((plain + budget)) ]; do
    s=$(status $way $limit)
    case $s in
      0) [ $first != 0 ] || first=$limit
         ! grep -q "FFTW_ESTIMATE's plan:" "$tmp/out" || estimated=1 ;;
      3|4) [ $first = 0 ] || fail "$way: ran at $first KB, but at $limit KB exited $s: $(cat "$tmp/out")" ;;
      *) fail "$way: at $limit KB exited $s (a signal, not a NULL): $(cat "$tmp/out")" ;;
    esac
    limit=$((limit + 1024))
  done
  [ $first != 0 ] || fail "$way: no run to $((plain + budget)) KB exited 0, $budget KB above plain FFTW's $plain KB"
  [ $estimated = 1 ] || fail "$way: no run between $first and $((plain + budget)) KB was planned with FFTW_ESTIMATE"
  echo "$way: runs from $first KB, plain FFTW from $plain KB: $((first - plain)) KB more (budget $budget KB); none aborted"
  far=$((plain + 262144))
  [ "$(status $way $far)" = 0 ] || fail "$way: at $far KB exited $?: $(cat "$tmp/out")"
  ! grep -q "address space" "$tmp/out" || fail "$way: at $far KB the plan was cut: $(cat "$tmp/out")"
  [ "$(status $way unlimited)" = 0 ] || fail "$way: with no limit exited $?: $(cat "$tmp/out")"
  ! grep -q "address space" "$tmp/out" || fail "$way: with no limit the plan was cut: $(cat "$tmp/out")"
done
echo PASS
