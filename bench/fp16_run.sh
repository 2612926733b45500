#!/usr/bin/env bash
# bench/fp16_run.sh [BUILD_DIR]: GPUFFTW_PRECISION=fp16 on one GPU, and
# over every GPU where there are several, in one run, against the peers
# measured in it (docs/fp16.md, "Running the benchmarks"):
#   1. the rates the fp16 ways are priced by (the host's F16C conversion on
#      the staging threads, a device copy) and the staging alone
#      (bench/half_staging_bench);
#   2. the kernels on half data on the device: ours, cuFFT's FP16 and FP32
#      (bench/fp16_bench); an execute on device arrays, gpufftw's against
#      cuFFT's, step by step (bench/execute_cost, gpufftw preloaded);
#   3. fft_bench with gpufftw preloaded in GPU mode under FFTW_MEASURE (so
#      that each fp16 plan times its ways), each problem planned in fp32
#      and fp16 and timed interleaved, on device arrays (the fp16 standard
#      set, r2c included), then on malloc and on fftw_malloc (pinned)
#      arrays (the host set), all on the first GPU (GPUFFTW_DEVICES=0);
#   3b. where more than one GPU is visible, the host set again over all of
#      them (GPUFFTW_DEVICES=all, a store of its own so that no choice
#      made on one GPU is recalled), fp32 and fp16 interleaved;
#   4. the comparison mode (GPUFFTW_COMPARE=1) on the host set, every plan
#      fp16, with the choice and with our kernels and cuFFT's FP16 forced:
#      the relative L2 error of each.
# bench/fp16_table.py then writes fp16_table.md: the ratios against the
# targets (device data: >= 1.0x the faster of cuFFT's FP16 and FP32, 2-D
# >= 1.5x cuFFT's FP16; host arrays: >= 1.5x gpufftw's fp32 on malloc,
# >= 1.3x on fftw_malloc, or the model's bound where lower), the rates,
# the GPUs' rows against one GPU's, and the errors.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
out=${OUT:-/tmp/bench-fp16}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# A store of its own: calibrated once in this run, and every fp16 choice
# timed in it rather than recalled from an earlier one.
export GPUFFTW_CACHE_DIR=$out/cache
rm -rf "$GPUFFTW_CACHE_DIR"
device_problems=${GPUFFTW_FP16_DEVICE_PROBLEMS:-"c2c-f32-256-b65536 c2c-f32-512-b32768 c2c-f32-1024-b16384 \
c2c-f32-2048-b8192 c2c-f32-4096-b4096 c2c-f32-1024x1024-b16 c2c-f32-2048x2048-b4 c2c-f32-4096x4096 \
c2c-f32-512x512x512 r2c-f32-4096x4096 r2c-f32-256x256x256"}
host_problems=${GPUFFTW_FP16_PROBLEMS:-"c2c-f32-4096-b4096 c2c-f32-1024-b16384 c2c-f32-256-b65536 \
c2c-f32-1000-b16384 c2c-f32-1009-b16384 c2c-f32-4096x4096 r2c-f32-4096x4096 r2c-f32-256x256x256"}

echo "== staging and rates" >&2
"$build/bench/half_staging_bench" > "$out/fp16_staging.txt" 2>&1
echo "== kernels on device data" >&2
"$build/bench/fp16_bench" --reps 30 > "$out/fp16_kernels.txt" 2>&1
echo "== an execute on device arrays against cuFFT's" >&2
LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu GPUFFTW_DEVICES=0 "$build/bench/execute_cost" \
  > "$out/fp16_execute.txt" 2>&1
: > "$out/fp16_results.txt"
for alloc in device malloc fftw; do
  problems=$host_problems
  [ $alloc = device ] && problems=$device_problems
  echo "== gpufftw, --alloc $alloc" >&2
  LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu GPUFFTW_DEVICES=0 "$build/bench/fft_bench" --alloc "$alloc" \
    --flags measure --precisions fp32,fp16 $problems 2> "$out/fp16_$alloc.err" | sed "s/^RESULT/RESULT $alloc/" \
    >> "$out/fp16_results.txt"
done
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "${gpus:-0}" -gt 1 ]; then
  rm -rf "$out/cache-set"
  for alloc in malloc fftw; do
    echo "== gpufftw over $gpus GPUs, --alloc $alloc" >&2
    LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu GPUFFTW_DEVICES=all GPUFFTW_CACHE_DIR="$out/cache-set" \
      "$build/bench/fft_bench" --alloc "$alloc" --flags measure --precisions fp32,fp16 $host_problems \
      2> "$out/fp16_${alloc}_set.err" | sed "s/^RESULT/RESULT $alloc@$gpus/" >> "$out/fp16_results.txt"
  done
fi
echo "== comparison mode" >&2
: > "$out/fp16_compare.jsonl"
# One execute in 8 compared: the real FFTW's reference of each costs far
# more than the execute.
for way in auto ours cufft-fp16; do
  : > "$out/fp16_compare_$way.jsonl"  # each process appends its plans' lines
  LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu GPUFFTW_PRECISION=fp16 GPUFFTW_FP16_WAY=$way \
    GPUFFTW_COMPARE=1 GPUFFTW_COMPARE_EVERY=8 GPUFFTW_COMPARE_FILE="$out/fp16_compare_$way.jsonl" \
    "$build/bench/fft_bench" --alloc malloc --flags measure --seconds 0.1 $host_problems \
    > "$out/fp16_compare_$way.txt" 2>&1
  sed "s/^{/{\"way\":\"$way\",/" "$out/fp16_compare_$way.jsonl" >> "$out/fp16_compare.jsonl"
done
python3 "$here/fp16_table.py" "$out" | tee "$out/fp16_table.md"
