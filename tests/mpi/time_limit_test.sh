#!/bin/sh
# time_limit_test.sh BUILD_DIR: the program's fftw_set_timelimit bounds
# distributed planning (docs/mpi.md, "Plan time"). On the real FFTW MPI's
# path, the serial FFTW under it is given the limit before it plans; under
# auto with a limit already passed, gpufftw times nothing past it and keeps
# what it read for this plan only. 2 ranks of bench/mpi_fft_bench.
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export GPUFFTW_CACHE_DIR=$tmp/cache
fail() { cat "$tmp/out"; echo "FAIL: $1"; exit 1; }
bench() {  # LIMIT MPIRUN-ARGS...: one 2-rank FFTW_MEASURE plan through gpufftw-run, its output in $tmp/out
  limit=$1; shift
  "$here/mpirun.sh" 2 "$@" "$b/gpufftw-run" -- "$b/bench/mpi_fft_bench" --flags measure --seconds 0.01 \
    --timelimit "$limit" c2c-f32-32x32x32 > "$tmp/out" 2>&1 || fail "the program failed"
  grep -q "^RESULT c2c-f32-32x32x32 np=2" "$tmp/out" || fail "no plan"
}

# A limit this plan never reaches: where the real FFTW MPI's planner runs
# out of time, each rank's serial sub-plans find it out on their own clock,
# and its ranks can part inside its collectives (the real FFTW MPI's own
# behaviour, with or without gpufftw).
bench 30 -x GPUFFTW_LOG=debug -x GPUFFTW_MPI_PATH=real
grep -q "the real FFTW MPI's serial planner: time limit 30.000000 s" "$tmp/out" ||
  fail "the real FFTW MPI's serial planner was not given the program's limit"
echo "the real FFTW MPI plans within the program's limit"

bench 0
grep "^RESULT" "$tmp/out" | grep -q "its FFTW_MEASURE plan" && fail "a measured plan made past the limit"
grep "^RESULT" "$tmp/out" | grep -qE "the time limit passed|past FFTW_MEASURE's cut|the model prices" ||
  fail "the why does not say how the choice was made"
if grep "^RESULT" "$tmp/out" | grep -q "the time limit passed"; then
  bench 0
  grep "^RESULT" "$tmp/out" | grep -q "measured earlier" && fail "a choice cut short by the limit was stored"
fi
echo "past the limit, nothing more is measured"

# Ranks whose limits stand at different points (rank 0's passed, rank 1's
# none: as ranks whose clocks started apart, one having waited for the
# other) still take one branch of the measuring, whose steps are
# collectives: the program ends, with a plan, within the time allowed.
bench_args="--flags measure --seconds 0.01 c2c-f32-32x32x32"
# shellcheck disable=SC2086
timeout 60 "$here/mpirun.sh" 1 "$b/gpufftw-run" -- "$b/bench/mpi_fft_bench" --timelimit 0 $bench_args : \
  -np 1 "$b/gpufftw-run" -- "$b/bench/mpi_fft_bench" $bench_args > "$tmp/out" 2>&1 ||
  fail "ranks with different time limits did not finish together"
grep -q "^RESULT c2c-f32-32x32x32 np=2" "$tmp/out" || fail "no plan with different time limits"
echo "ranks with different time limits plan alike"
echo PASS
