#!/bin/sh
# wisdom_test.sh BUILD_DIR: tests/mpi/wisdom_main.cc (FFTW_WISDOM_ONLY on
# distributed plans) on the real FFTW MPI alone, which shows the answers
# the checks expect are FFTW's, then relinked on 1 to 3 ranks, and on 2
# ranks through gpufftw-run and the drop-in folder. Each run has a cache
# folder of its own: a choice a run stored must not answer the next run's
# first FFTW_WISDOM_ONLY plan, which expects no wisdom.
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() {  # NP WAY
  np=$1; way=$2
  case $way in
    real) set -- "$b/tests/mpi/mpi_wisdom" ;;
    relink) set -- "$b/tests/mpi/mpi_wisdom_relink" ;;
    gpufftw-run) set -- "$b/gpufftw-run" -- "$b/tests/mpi/mpi_wisdom" ;;
    dropin) set -- -x LD_LIBRARY_PATH="$b/dropin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$b/tests/mpi/mpi_wisdom" ;;
  esac
  rm -rf "$tmp/cache"
  GPUFFTW_CACHE_DIR=$tmp/cache "$here/mpirun.sh" "$np" -x GPUFFTW_CACHE_DIR "$@" > "$tmp/out" 2>&1 || true
  if ! grep -q "^np $np: PASS" "$tmp/out"; then cat "$tmp/out"; echo "FAIL: np $np $way"; exit 1; fi
  echo "np $np $way: PASS"
  grep "^np $np: .*: FFTW_WISDOM_ONLY after" "$tmp/out" | sed "s/^np $np: /  /"
}
run 2 real
for np in 1 2 3; do run "$np" relink; done
for way in gpufftw-run dropin; do run 2 $way; done
echo PASS
