#!/usr/bin/env bash
# bench/multi_gpu_run.sh [BUILD_DIR]: several GPUs against one, on the GPU
# machine, in one run: the links' rates alone and all at once (the floor),
# cufftXt over every GPU on pinned arrays (the peer), and gpufftw forced
# onto the GPU (FFTW_ESTIMATE plans) with one GPU (GPUFFTW_DEVICES=0) and
# with every GPU, on fftw_malloc and on malloc arrays; prints the table
# (bench/multi_gpu_table.py) last. With GPUFFTW_BENCH_BASELINE (another
# revision's libgpufftw.so.1, from bench/baseline.sh) that library runs
# too, every GPU on fftw_malloc arrays, once right before this build and
# once right after: a change to the split measured against the code
# before it in the same run, with the order of the runs seen.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
results=$out/multi_results.txt
batches=${GPUFFTW_BENCH_BATCHES:-"c2c-f32-4096-b4096 c2c-f32-1000-b16384 c2c-f32-1009-b16384 c2c-f64-4096-b4096 r2c-f32-4096-b8192"}
singles=${GPUFFTW_BENCH_SINGLES:-"c2c-f32-512x512x512 c2c-f32-1024x1024x1024 r2c-f32-1024x1024x1024 c2c-f64-512x512x512 \
c2c-f32-16384x16384 c2c-f32-268435456"}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
problems="$batches $singles"
options=(--flags estimate)
gpufftw=(LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu)

: > "$results"
"$build/bench/link_rates" | tee -a "$results"
"$build/bench/cufftxt_bench" $singles | tee -a "$results"
baseline=(LD_PRELOAD="${GPUFFTW_BENCH_BASELINE:-}" GPUFFTW_MODE=gpu GPUFFTW_DEVICES=all -- --alloc fftw)
run one_fftw_malloc "${gpufftw[@]}" GPUFFTW_DEVICES=0 -- --alloc fftw
[ -n "${GPUFFTW_BENCH_BASELINE:-}" ] && run baseline_before "${baseline[@]}"
run all_fftw_malloc "${gpufftw[@]}" GPUFFTW_DEVICES=all -- --alloc fftw
[ -n "${GPUFFTW_BENCH_BASELINE:-}" ] && run baseline_after "${baseline[@]}"
run one_malloc "${gpufftw[@]}" GPUFFTW_DEVICES=0 -- --alloc malloc
run all_malloc "${gpufftw[@]}" GPUFFTW_DEVICES=all -- --alloc malloc
python3 "$here/multi_gpu_table.py" "$results" | tee "$out/multi_table.md"
