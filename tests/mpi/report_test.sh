#!/bin/sh
# report_test.sh BUILD_DIR: gpufftw-run --report on an FFTW MPI program
# (tests/mpi/composed_main.cc, 1 rank: plans on the real FFTW MPI and
# composed ones, forward and backward, executed through fftw_execute and
# fftw_mpi_execute_dft). The report lists the real FFTW MPI's plans too,
# each c2c with its direction, and counts the distributed plans' executes.
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Measured choices go to a cache folder of the run's own, never the user's.
export GPUFFTW_CACHE_DIR=${GPUFFTW_CACHE_DIR:-$tmp/cache}
"$here/mpirun.sh" 1 "$b/gpufftw-run" --report -- "$b/tests/mpi/mpi_composed" > "$tmp/out" 2>&1 || true
fail() { cat "$tmp/out"; echo "FAIL: $1"; exit 1; }
grep -q "^np 1: PASS" "$tmp/out" || fail "the program did not pass"
grep -q "^gpufftw report" "$tmp/out" || fail "no report"
# where plans executes ms problem... why: the rows of distributed plans.
rows() { awk -v why="$1" -v dir="$2" 'index($0, why) && index($0, dir) && $1 != "total" { print $3 }' "$tmp/out"; }
# (Plans of one problem share a row, under the first plan's why.)
for case in "planned by the real FFTW MPI|" "composed over 1 rank| fwd " "composed over 1 rank| bwd "; do
  why=${case%%|*}; dir=${case#*|}
  n=$(rows "$why" "$dir" | awk '{ s += $1 } END { print s + 0 }')
  [ "$n" -gt 0 ] || fail "no executes counted for plans '$why'${dir:+ ($dir)}"
  echo "$why${dir:+,$dir}: $n executes"
done
echo PASS
