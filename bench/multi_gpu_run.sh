#!/usr/bin/env bash
# bench/multi_gpu_run.sh [BUILD_DIR]: several GPUs against one, on the GPU
# machine, in one run with the floors its rows are held to. First the
# floors, for the first k GPUs at once (k = 1, 2, 4 ... up to the
# machine's count): the links' rates one way and both ways
# (bench/link_rates), the rate at which gpufftw's copy threads move
# pageable memory into pinned slots and out (bench/host_copy_rates, which
# also gives the rate of the whole staging, copy threads and DMA, by slot
# size), and NCCL's all-to-all over the GPUs (bench/nccl_rates). Then cufftXt over
# every GPU on pinned arrays (the peer), and, GPUFFTW_BENCH_ROUNDS times
# (default 3; the table takes each row's median), gpufftw forced onto the
# GPU (FFTW_ESTIMATE plans) on each device set of GPUFFTW_BENCH_SETS (GPU
# counts, default 1 and the machine's: "1 2 4" on four GPUs adds
# GPUFFTW_DEVICES=0,1), on fftw_malloc and on malloc arrays, and a CPU plan
# (a 1024-point c2c, which gpufftw's own choice keeps on the CPU) on each
# set, whose time per execute must not grow with the GPUs. With
# GPUFFTW_BENCH_BASELINE (another revision's libgpufftw.so.1, from
# bench/baseline.sh) that library runs too, every GPU on fftw_malloc arrays,
# right before and right after this build's run on every GPU: a change to
# the split measured against the code before it in the same run, with the
# order of the runs seen. GPUFFTW_BENCH_SECONDS: fft_bench --seconds
# (default 0.5). GPUFFTW_BENCH_ALLOCS: the kinds of arrays (default
# "fftw_malloc malloc"): one kind a call, each with the floors measured in
# it, where three rounds of both on four GPUs pass one call's time. Prints
# the table (bench/multi_gpu_table.py) last. A machine of one GPU runs the
# one-GPU rows against their floors.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
results=$out/multi_results.txt
batches=${GPUFFTW_BENCH_BATCHES:-"c2c-f32-4096-b4096 c2c-f32-1000-b16384 c2c-f32-1009-b16384 c2c-f64-4096-b4096 r2c-f32-4096-b8192"}
singles=${GPUFFTW_BENCH_SINGLES:-"c2c-f32-512x512x512 c2c-f32-1024x1024x1024 r2c-f32-1024x1024x1024 c2c-f64-512x512x512 \
c2c-f32-16384x16384 c2c-f32-268435456"}
cpu_problems="c2c-f32-1024 c2c-f64-1024"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$gpus" -gt 0 ] || gpus=1
sets=${GPUFFTW_BENCH_SETS:-"1 $gpus"}
rounds=${GPUFFTW_BENCH_ROUNDS:-3}
gpufftw=(LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu)

# The first $1 GPUs as GPUFFTW_DEVICES names them: 0,1,...
first() { seq -s, 0 $(($1 - 1)); }

: > "$results"
echo "== floors: links, host copies, NCCL ($gpus GPUs)" >&2
"$build/bench/link_rates" | tee -a "$results"
"$build/bench/host_copy_rates" | tee -a "$results"
"$build/bench/nccl_rates" | tee -a "$results"
"$build/bench/cufftxt_bench" $singles | tee -a "$results"
for r in $(seq "$rounds"); do
  problems="$batches $singles"
  options=(--flags estimate --seconds "${GPUFFTW_BENCH_SECONDS:-0.5}")
  for alloc in ${GPUFFTW_BENCH_ALLOCS:-fftw_malloc malloc}; do
    for k in $(echo $sets | tr ' ' '\n' | sort -nu); do
      [ "$k" -le "$gpus" ] || continue
      # The baseline on every GPU, right before and right after this build's.
      base=()
      [ "$alloc" = fftw_malloc ] && [ "$k" = "$gpus" ] && [ -n "${GPUFFTW_BENCH_BASELINE:-}" ] &&
        base=(LD_PRELOAD="$GPUFFTW_BENCH_BASELINE" GPUFFTW_MODE=gpu GPUFFTW_DEVICES="$(first "$k")" -- --alloc fftw)
      [ ${#base[@]} -gt 0 ] && run "baseline_before:$r" "${base[@]}"
      run "$k:$alloc:$r" "${gpufftw[@]}" GPUFFTW_DEVICES="$(first "$k")" -- --alloc "${alloc%_malloc}"
      [ ${#base[@]} -gt 0 ] && run "baseline_after:$r" "${base[@]}"
    done
  done
  # gpufftw's own choice (auto mode) keeps these on the CPU: too small
  # for the GPU to pay.
  problems=$cpu_problems
  options=(--flags estimate --threads "$(nproc)" --seconds "${GPUFFTW_BENCH_SECONDS:-0.5}")
  for k in $(echo $sets | tr ' ' '\n' | sort -nu); do
    [ "$k" -le "$gpus" ] || continue
    run "cpu_plan:$k:$r" LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_DEVICES="$(first "$k")" -- --alloc fftw
  done
done
python3 "$here/multi_gpu_table.py" "$results" | tee "$out/multi_table.md"
