#!/bin/sh
# local_size_test.sh BUILD_DIR: tests/mpi/local_size_main.cc on 1, 2, 3 and
# 4 ranks, run five ways: on the real FFTW MPI alone (which proves gpufftw's
# own copy of the arithmetic against it), preloaded with gpufftw, preloaded
# with gpufftw that finds no real FFTW MPI (so its own arithmetic answers),
# through the drop-in names, and relinked to -lgpufftw_mpi. Each way must
# print exactly what the real FFTW MPI alone prints.
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { "$here/mpirun.sh" "$@" 2>"$tmp/err" || { cat "$tmp/err" >&2; echo "FAIL: mpirun $*"; exit 1; }; }
# gpufftw in the loop: its log (GPUFFTW_LOG=info) names the real FFTW MPI it
# opened, or says it found none; the plain run must print no such line.
proof() { grep -q "$1" "$tmp/err" || { cat "$tmp/err"; echo "FAIL: np $np $2: no '$1' in the log"; exit 1; }; }
export GPUFFTW_LOG=info
pre="$b/libgpufftw_mpi.so.1:$b/libgpufftw.so.1"
for np in 1 2 3 4; do
  run "$np" "$b/tests/mpi/mpi_local_size" > "$tmp/real.$np"
  if grep -q gpufftw "$tmp/err"; then echo "FAIL: gpufftw in the plain run"; exit 1; fi
  cat "$tmp/real.$np"
  run "$np" -x LD_PRELOAD="$pre" "$b/tests/mpi/mpi_local_size" > "$tmp/preload.$np"
  proof "real FFTW MPI double from" preload
  run "$np" -x LD_PRELOAD="$pre" -x GPUFFTW_FFTW_MPI_DIR=/nonexistent "$b/tests/mpi/mpi_local_size" > "$tmp/own.$np"
  proof "real FFTW MPI (double precision) was not found" own
  run "$np" -x LD_LIBRARY_PATH="$b/dropin" "$b/tests/mpi/mpi_local_size" > "$tmp/dropin.$np"
  proof "real FFTW MPI double from" dropin
  run "$np" "$b/tests/mpi/mpi_local_size_relink" > "$tmp/relink.$np"
  proof "real FFTW MPI double from" relink
  for way in preload own dropin relink; do
    cmp -s "$tmp/real.$np" "$tmp/$way.$np" || { echo "FAIL: np $np $way differs:"; cat "$tmp/$way.$np"; exit 1; }
  done
  grep -q '^PASS$' "$tmp/real.$np" || { echo "FAIL: np $np"; exit 1; }
  echo "np $np: real, preload, preload without the real FFTW MPI (own arithmetic), drop-in, relink: identical"
done
echo PASS
