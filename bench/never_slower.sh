#!/usr/bin/env bash
# bench/never_slower.sh [BUILD_DIR]: every GPU against one, through
# gpufftw's own choice (auto mode), on the GPU machine, in one run. For
# FFTW_ESTIMATE and FFTW_MEASURE, on fftw_malloc and malloc arrays, times
# the points below with GPUFFTW_DEVICES=0 and then with every GPU, each a
# process of its own; prints bench/never_slower_table.py's table last (the
# set's time over one GPU's, point by point, and the worst).
#
# Each flag and device set gets a fresh dispatch store of its own: a choice
# measured under FFTW_MEASURE is recalled by a later FFTW_ESTIMATE plan, and
# a choice made with one GPU must not stand for the set. The first plan in
# each store calibrates, which only its plan time shows.
#
# With GPUFFTW_BENCH_BASELINE (another revision's libgpufftw.so.1, from
# bench/baseline.sh), that library too, each point's process right after
# this build's with the same devices, arrays and flags and a store of its
# own, and a second table of this build against it: a planner's change
# must leave every point within noise of the revision before it.
#
# Settings (environment): OUT (results folder, default /tmp/bench),
# GPUFFTW_NEVER_SLOWER_POINTS (the points), GPUFFTW_NEVER_SLOWER_FLAGS
# (default "estimate measure"), GPUFFTW_NEVER_SLOWER_SECONDS (fft_bench
# --seconds, default 0.5), GPUFFTW_NEVER_SLOWER_LIMIT (seconds a process
# may take before it is stopped, its later points then missing; default 90).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
results=$out/never_slower_results.txt
# The standard set (bench/run.sh), then out-of-place r2c and c2r of the
# shapes the slab split takes, smallest first.
problems=${GPUFFTW_NEVER_SLOWER_POINTS:-"r2c-f32-1024x1024 c2r-f32-1024x1024 c2c-f32-4096-b4096 \
c2c-f32-1000-b16384 c2c-f32-1009-b16384 r2c-f32-4096x4096 c2r-f32-4096x4096 r2c-f32-256x256x256 \
c2r-f32-256x256x256 c2c-f32-16777216 c2c-f32-4096x4096 c2c-f32-256x256x256 c2c-f64-256x256x256 \
c2c-f64-16777216 r2c-f32-512x512x512 c2r-f32-512x512x512 c2c-f32-512x512x512"}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
launcher=(timeout "${GPUFFTW_NEVER_SLOWER_LIMIT:-90}")
baseline=${GPUFFTW_BENCH_BASELINE:-}

: > "$results"
for flags in ${GPUFFTW_NEVER_SLOWER_FLAGS:-estimate measure}; do
  for store in "$out"/{store,baseline-store}-"$flags"-{0,all}; do rm -rf "$store"; mkdir -p "$store"; done
  options=(--flags "$flags" --threads "$(nproc)" --timelimit 1 --seconds "${GPUFFTW_NEVER_SLOWER_SECONDS:-0.5}")
  for alloc in fftw malloc; do
    for devices in 0 all; do
      run "$flags-$alloc-$devices" LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_DEVICES=$devices \
        GPUFFTW_CACHE_DIR="$out/store-$flags-$devices" -- --alloc "$alloc"
      [ -z "$baseline" ] || run "$flags-$alloc-$devices-baseline" LD_PRELOAD="$baseline" GPUFFTW_DEVICES=$devices \
        GPUFFTW_CACHE_DIR="$out/baseline-store-$flags-$devices" -- --alloc "$alloc"
    done
  done
done
python3 "$here/never_slower_table.py" "$results" | tee "$out/never_slower_table.md"
