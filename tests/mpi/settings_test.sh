#!/bin/sh
# settings_test.sh BUILD_DIR: bad values of GPUFFTW_MPI_PATH and
# GPUFFTW_MPI_EXCHANGE in an FFTW MPI program (tests/mpi/plans_main.cc,
# relinked, 1 rank, no composed plan among its plans on a machine without a
# GPU): each said once, as fftw_mpi_init reads it, in the wording of every
# other switch, and the program still right.
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export GPUFFTW_CACHE_DIR=${GPUFFTW_CACHE_DIR:-$tmp/cache}
GPUFFTW_MPI_PATH=gpu GPUFFTW_MPI_EXCHANGE=nccl "$here/mpirun.sh" 1 -x GPUFFTW_MPI_PATH -x GPUFFTW_MPI_EXCHANGE \
  "$b/tests/mpi/mpi_plans_relink" > "$tmp/out" 2>&1 || true
fail() { cat "$tmp/out"; echo "FAIL: $1"; exit 1; }
grep -q "^np 1: PASS" "$tmp/out" || fail "the program did not pass"
for said in "GPUFFTW_MPI_PATH=gpu is not one of auto, composed, real; using the default (auto)" \
            "GPUFFTW_MPI_EXCHANGE=nccl is not one of auto, host; using the default (auto)"; do
  n=$(grep -cF "gpufftw: $said" "$tmp/out" || true)
  [ "$n" = 1 ] || fail "'gpufftw: $said' said $n times, not once"
  echo "said once: $said"
done
echo PASS
