#!/usr/bin/env bash
# bench/threads_run.sh [BUILD_DIR]: FFTW_MEASURE's choice of thread count,
# on the GPU machine, in one run, twice over: the real FFTW alone at one
# thread and at all cores, the GPU alone (GPUFFTW_MODE=gpu), and gpufftw's
# own choice with all cores asked for (fftw_plan_with_nthreads), under
# FFTW_MEASURE and FFTW_ESTIMATE; prints the table (bench/threads_table.py)
# last: gpufftw's median over the best of the three peers.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${OUT:-/tmp/bench}
mkdir -p "$out"
bench=$build/bench/fft_bench
problems=${GPUFFTW_THREADS_PROBLEMS:-"c2c-f32-256 c2c-f32-1024 c2c-f32-4096 c2c-f32-1024-b16 c2c-f32-64x64 c2c-f32-256x256"}
cores=$(nproc)
export GPUFFTW_CACHE_DIR=$out/cache
rm -rf "$GPUFFTW_CACHE_DIR"

run() {  # run NAME ENV... -- ARGS...
  local name=$1; shift
  local env=()
  while [ "$1" != -- ]; do env+=("$1"); shift; done
  shift
  env "${env[@]}" "$bench" --alloc fftw "$@" $problems 2> "$out/$name.err" | sed "s/^RESULT/RESULT $name/" |
    tee -a "$out/threads_results.txt"
}

: > "$out/threads_results.txt"
for pass in 1 2; do
  echo "PASS $pass" >> "$out/threads_results.txt"
  run fftw1 -- --threads 1
  run fftw$cores -- --threads "$cores"
  run gpu LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu -- --threads "$cores"
  run auto_measure LD_PRELOAD="$build/libgpufftw.so.1" -- --threads "$cores"
  run auto_estimate LD_PRELOAD="$build/libgpufftw.so.1" -- --threads "$cores" --flags estimate
done
python3 "$here/threads_table.py" "$out/threads_results.txt" | tee "$out/threads_table.md"
