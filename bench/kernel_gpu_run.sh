#!/bin/bash
# On a GPU machine, from the repository root: builds the kernels' GPU test
# and kernel_bench, runs both, and leaves the logs in $OUT (else
# ./kernel-logs). Arguments go to kernel_bench; TEST_FILTER picks tests.
set -u
out=${OUT:-kernel-logs}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B build-gpu-kern -G Ninja -DCMAKE_BUILD_TYPE=Release >"$out/configure.log" 2>&1 ||
  { tail -20 "$out/configure.log"; exit 1; }
start=$(date +%s)
cmake --build build-gpu-kern -j16 --target kernel_bench gpufftw_kernels_gpu_test >"$out/build.log" 2>&1 ||
  { grep -m20 -E "error|FAILED" "$out/build.log"; exit 1; }
echo "built in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >"$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
timeout "${TEST_TIMEOUT:-200}" build-gpu-kern/tests/gpufftw_kernels_gpu_test --gtest_filter="${TEST_FILTER:-*}" \
  >"$out/test.log" 2>&1
echo "test rc $?"
grep -E "^\[  (FAILED|PASSED|  OK) |Failure|error|largest" "$out/test.log" | head -60
timeout "${BENCH_TIMEOUT:-240}" build-gpu-kern/bench/kernel_bench "$@" >"$out/bench.log" 2>&1
echo "bench rc $?"
grep -v RESULT "$out/bench.log" | head -20
# n prec ours_ms cufft_ms ratio err_ours err_cufft err_fftw
awk '/^RESULT/ { for (i = 2; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
  printf "%s %s %s %s %s %s %s %s\n", v["n"], v["prec"], v["ours_ms"], v["cufft_ms"], v["ratio"], v["err_ours"],
    v["err_cufft"], v["err_fftw"] }' "$out/bench.log"
