#!/bin/sh
# breaks_test.sh BUILD_DIR: tests/mpi/breaks_main.cc (the 1-D DFTs and r2r
# the real FFTW MPI crashes on or writes past its arrays on: NULL plans)
# relinked on 1 to 4 ranks. First the program runs on the real FFTW MPI
# alone, to show what that does (not a failure of gpufftw's).
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$here/mpirun.sh" 2 "$b/tests/mpi/mpi_breaks" > "$tmp/out" 2>&1 || true
crashed=; grep -q "signal" "$tmp/out" && crashed=", then crashed"
echo "the real FFTW MPI alone, np 2: $(grep -c FAILED "$tmp/out" || true) failed$crashed"
for np in ${BREAKS_NP:-1 2 3 4}; do
  "$here/mpirun.sh" "$np" "$b/tests/mpi/mpi_breaks_relink" > "$tmp/out" 2>&1 || true
  if ! grep -q "^np $np: PASS" "$tmp/out"; then cat "$tmp/out"; echo "FAIL: np $np"; exit 1; fi
  echo "np $np: $(grep -c "^np $np: .*: NULL" "$tmp/out") NULL, $(grep -c "^np $np: .*: a plan" "$tmp/out") planned and run"
done
echo PASS
