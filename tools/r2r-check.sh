#!/usr/bin/env bash
# r2r-check.sh [--no-bench] [BUILD]: the GPU machine's run for real-to-real
# transforms (docs/r2r.md). Builds what it needs, runs the r2r GPU tests,
# the other GPU tests and the correctness sweep in forced GPU mode (the
# sweep has r2r problems of its own, with its own reference), the
# benchmark (DCT-II, DCT-III, DST-II 4096^2 f32 on fftw_malloc arrays: the
# real FFTW on 16 threads with FFTW_MEASURE against gpufftw), gpufftw's
# accuracy beside the real FFTW's (comparison mode), and FFTW's check.pl
# quick set preloaded in forced GPU mode (FFTW's source carried in
# compat/work/), counting where its r2r plans went. Logs go to $OUT (or
# /tmp/r2r-check).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/r2r-check}
bench=1
[ "${1:-}" = --no-bench ] && { bench=0; shift; }
build=${1:-$root/build-gpu-r2r}
mkdir -p "$out"
cd "$root"
export PATH="/usr/local/cuda/bin:$PATH"
problems="redft10-f32-4096x4096 redft01-f32-4096x4096 rodft10-f32-4096x4096"
lib=$build/libgpufftw.so.1

{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u +%Y-%m-%dT%H:%MZ; } | tee "$out/device.txt"
if ! { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$build" -j 16 --target gpufftw dropin gpufftw_r2r_gpu_test fft_bench gpufftw_sweep_test; } \
     > "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"; echo "BUILD FAILED"; exit 1
fi

timeout 150 "$build/tests/gpufftw_r2r_gpu_test" > "$out/r2r_test.log" 2>&1
echo "r2r GPU tests: exit $?"
grep -E '^\[  (PASSED|FAILED) |largest relative|Failure|Expected|Which is|transform [0-9]|r2r\.|^/' "$out/r2r_test.log" | head -40

GPUFFTW_MODE=gpu GPUFFTW_REPORT=1 timeout 200 "$build/tests/sweep/gpufftw_sweep_test" --gtest_brief=1 \
  > "$out/sweep_gpu.log" 2>&1
echo "sweep, GPUFFTW_MODE=gpu: exit $? $(grep -E '^\[  (PASSED|FAILED)' "$out/sweep_gpu.log" | tr '\n' ' ')"
grep -E '^ *(gpu|cpu) .*r2r' "$out/sweep_gpu.log" | awk '{n[$1]+=$2} END {for (w in n) print "  sweep r2r plans on the " w ": " n[w]}'
if cmake --build "$build" -j 16 --target gpufftw_gpu_test > "$out/build_gpu_test.log" 2>&1; then
  timeout 200 "$build/tests/gpufftw_gpu_test" > "$out/gpu_test.log" 2>&1
  echo "GPU tests (gpufftw_gpu_test): exit $? $(grep -E '^\[  (PASSED|FAILED)' "$out/gpu_test.log" | tr '\n' ' ')"
else
  echo "gpufftw_gpu_test did not build (build_gpu_test.log)"
fi

[ $bench = 1 ] && {
  echo "== real FFTW, 16 threads, FFTW_MEASURE (30 s planning limit)"
  "$build/bench/fft_bench" --threads 16 --timelimit 30 $problems
  echo "== gpufftw, GPUFFTW_MODE=gpu"
  GPUFFTW_MODE=gpu LD_PRELOAD=$lib "$build/bench/fft_bench" --threads 16 $problems
  echo "== gpufftw, auto mode, FFTW_ESTIMATE (the model's choice)"
  LD_PRELOAD=$lib "$build/bench/fft_bench" --threads 16 --flags estimate --seconds 0.3 $problems
} > "$out/bench.log" 2>&1 && cat "$out/bench.log"

# Every third execute compared against the real FFTW in double, beside
# the real FFTW's own single-precision error on the same input.
[ $bench = 1 ] && GPUFFTW_MODE=gpu GPUFFTW_COMPARE=1 GPUFFTW_COMPARE_EVERY=3 LD_PRELOAD=$lib \
  "$build/bench/fft_bench" --threads 16 --flags estimate --seconds 0 $problems > "$out/accuracy.log" 2>&1 &&
  grep -E 'compare|gpu ' "$out/accuracy.log" | head -10

if [ -f compat/work/fftw3_3.3.10.orig.tar.gz ] || [ -d compat/work/fftw3-3.3.10 ]; then
  # Debug log: every plan says where it went ("plan r2r ... -> gpu: why").
  GPUFFTW_LOG=debug GPUFFTW_BUILD=$build GPUFFTW_MODE=gpu timeout "${CHECK_TIMEOUT:-400}" \
    compat/run-check.sh --quick --modes "preload" > "$out/check_gpu.log" 2>&1
  echo "check.pl preload GPUFFTW_MODE=gpu: exit $?"
  tail -9 "$out/check_gpu.log"
  cat compat/work/runs/preload/*/*/check.log | grep -oE 'plan r2r .* -> (gpu|cpu): .*' | sort -u > "$out/check_r2r_plans.txt"
  echo "check.pl r2r plans (distinct): $(grep -c -- '-> gpu' "$out/check_r2r_plans.txt") on the GPU," \
    "$(grep -c -- '-> cpu' "$out/check_r2r_plans.txt") on the CPU; reasons for the CPU:"
  grep -- '-> cpu' "$out/check_r2r_plans.txt" | sed 's/.*-> cpu: //' | sort | uniq -c | sort -rn | head -8
else
  echo "check.pl: not run: FFTW source not carried in compat/work"
fi
