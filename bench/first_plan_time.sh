#!/usr/bin/env bash
# bench/first_plan_time.sh [BUILD_DIR]: what the first FFTW_ESTIMATE plan
# of a kind costs in a process whose CUDA is already up, through gpufftw
# (GPUFFTW_MODE=gpu), NVIDIA's cuFFTW and the real FFTW: the planning that
# dispatch's 5 ms target for its own share leaves to cuFFT and the real
# FFTW. Each
# problem runs in a fresh process after one warm-up plan (c2c-f32-4096-b64,
# which starts CUDA and cuFFT); the table gives the second plan's time.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
bench=$build/bench/fft_bench
cufftw=$(ls /usr/local/cuda/lib64/libcufftw.so.* 2>/dev/null | head -n1)
problems=${GPUFFTW_FIRST_PLAN_PROBLEMS:-"c2c-f32-512x512 c2c-f64-256x256 c2c-f64-512x512 r2c-f32-512x512 \
r2c-f64-512x512 r2c-f32-128x128x128 r2c-f32-1024-b16384 r2c-f32-16384 r2c-f64-65536"}
warm=c2c-f32-4096-b64
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT

plan_ms() {  # plan_ms PROBLEM ENV...: the problem's plan time after the warm-up's
  local p=$1; shift
  env "$@" "$bench" --flags estimate --alloc fftw --seconds 0.01 "$warm" "$p" 2>/dev/null |
    awk -v p="$p" '$1 == "RESULT" && $2 == p { print $3; found = 1 } END { if (!found) print "-" }'
}

printf '| problem | gpufftw (GPU) ms | cuFFTW ms | real FFTW ms |\n| --- | --- | --- | --- |\n'
for p in $problems; do
  printf '| %s | %s | %s | %s |\n' "$p" \
    "$(plan_ms "$p" LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu GPUFFTW_CACHE_DIR="$cache")" \
    "$( [ -n "$cufftw" ] && plan_ms "$p" LD_PRELOAD="$cufftw" || echo -)" \
    "$(plan_ms "$p" GPUFFTW_UNUSED=1)"
done
