#!/bin/sh
# composed_test.sh BUILD_DIR: tests/mpi/composed_main.cc (the composed
# distributed DFTs against the real FFTW MPI) relinked on 1 to 4 ranks, and
# on 2 ranks through gpufftw-run and the drop-in folder. GPUFFTW_MODE and
# the rest of the environment pass through (bench/mpi_run.sh runs it with
# GPUFFTW_MODE=gpu on a GPU machine).
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Measured choices go to a cache folder of the run's own, never the user's.
export GPUFFTW_CACHE_DIR=${GPUFFTW_CACHE_DIR:-$tmp/cache}
run() {  # NP WAY
  case $2 in
    relink) set -- "$1" "$b/tests/mpi/mpi_composed_relink" ;;
    gpufftw-run) set -- "$1" "$b/gpufftw-run" -- "$b/tests/mpi/mpi_composed" ;;
    dropin) set -- "$1" -x LD_LIBRARY_PATH="$b/dropin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$b/tests/mpi/mpi_composed" ;;
  esac
  np=$1; shift
  "$here/mpirun.sh" "$np" "$@" > "$tmp/out" 2>&1 || true
  if ! grep -q "^np $np: PASS" "$tmp/out"; then cat "$tmp/out"; echo "FAIL: np $np $way"; exit 1; fi
  echo "np $np $way: $(grep "^np $np: .* compared" "$tmp/out" | sed "s/^np $np: //")"
  # What auto chose, where every rank has a GPU (the program prints it there).
  grep "^np $np: FFTW_[A-Z]* under auto" "$tmp/out" | sed "s/^/  /"
}
for np in ${COMPOSED_NP:-1 2 3 4}; do way=relink; run "$np" relink; done
for way in gpufftw-run dropin; do run 2 $way; done
echo PASS
