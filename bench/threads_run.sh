#!/usr/bin/env bash
# bench/threads_run.sh [BUILD_DIR]: gpufftw's choice of the real FFTW's
# thread count, on the GPU machine, in one run of ROUNDS rounds
# (GPUFFTW_THREADS_ROUNDS, default 5): in each, under each of FFTW_MEASURE
# and FFTW_ESTIMATE, a process each for the real FFTW alone at one thread
# and at all cores, the GPU alone (GPUFFTW_MODE=gpu), and gpufftw's own
# choice with all cores asked for (fftw_plan_with_nthreads), each flag with
# a dispatch store of its own (so that FFTW_ESTIMATE recalls no measured
# choice; the store lives across the rounds, as a user's does). Prints the
# table (bench/threads_table.py) last: per side, the median over the rounds
# of each process's median execute, and gpufftw's over the best of the
# three peers of the same flag. A side is a process's draw: the real FFTW's
# FFTW_MEASURE picks its algorithm anew in each process, and the rounds
# interleave the sides so that a slow spell of the host falls on all.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
results=$out/threads_results.txt
problems=${GPUFFTW_THREADS_PROBLEMS:-"c2c-f32-256 c2c-f32-1024 c2c-f32-4096 c2c-f32-1024-b16 c2c-f32-64x64 c2c-f32-256x256"}
cores=$(nproc)
options=(--alloc fftw --seconds "${GPUFFTW_THREADS_SECONDS:-0.25}")

: > "$results"
rm -rf "$out/cache-measure" "$out/cache-estimate"
for round in $(seq "${GPUFFTW_THREADS_ROUNDS:-5}"); do
  echo "ROUND $round" >> "$results"
  for flags in measure estimate; do
    export GPUFFTW_CACHE_DIR=$out/cache-$flags
    run fftw1_$flags -- --threads 1 --flags $flags
    run fftw${cores}_$flags -- --threads "$cores" --flags $flags
    run gpu_$flags LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu -- --threads "$cores" --flags $flags
    run auto_$flags LD_PRELOAD="$build/libgpufftw.so.1" -- --threads "$cores" --flags $flags
  done
done
python3 "$here/threads_table.py" "$results" | tee "$out/threads_table.md"
