#!/usr/bin/env bash
# bench/fp16_run.sh [BUILD_DIR]: GPUFFTW_PRECISION=fp16 end to end on host
# arrays. In one run: the staging alone (bench/half_staging_bench:
# floats over PCIe against halves converted on the host), then fft_bench
# with gpufftw preloaded in GPU mode, each problem planned in fp32 and fp16
# (--precisions) on fftw_malloc arrays and on malloc arrays, timed
# interleaved; prints per problem and allocation the medians and the
# speed-up fp32/fp16 (the FP16 path's target: >= 1.7 on the standard set's
# batched problems, the first three below).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
out=${OUT:-/tmp/bench-fp16}
mkdir -p "$out"
problems=${GPUFFTW_FP16_PROBLEMS:-"c2c-f32-4096-b4096 c2c-f32-1000-b16384 c2c-f32-1009-b16384 \
c2c-f32-1024-b16384 c2c-f32-256-b65536 c2c-f32-4096x4096"}

"$build/bench/half_staging_bench" | tee "$out/fp16_staging.txt"
: > "$out/fp16_results.txt"
for alloc in fftw malloc; do
  echo "== gpufftw, --alloc $alloc" >&2
  LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_MODE=gpu "$build/bench/fft_bench" --alloc "$alloc" --flags estimate \
    --precisions fp32,fp16 $problems 2> "$out/fp16_$alloc.err" | sed "s/^RESULT/RESULT $alloc/" | tee -a "$out/fp16_results.txt"
done
# RESULT alloc precision problem plan_ms median_ms ...
echo "| problem | alloc | fp32 ms | fp16 ms | fp32/fp16 | fp16 path |"
echo "|---|---|---|---|---|---|"
awk '$1 == "RESULT" && $4 != "NULL-plan" {
  key = $4 " | " $2; t[key, $3] = $6
  if ($3 == "fp16") { why = $0; sub(/.*\| /, "", why); sub(/.*(computed in half precision: |single precision: )/, "", why); p[key] = substr(why, 1, 60) }
  if (!(key in seen)) { seen[key] = 1; order[++n] = key }
} END {
  for (i = 1; i <= n; ++i) { k = order[i]; printf "| %s | %s | %s | %.2f | %s |\n", k, t[k, "fp32"], t[k, "fp16"], t[k, "fp32"] / t[k, "fp16"], p[k] }
}' "$out/fp16_results.txt" | tee "$out/fp16_table.md"
