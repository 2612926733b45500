#!/usr/bin/env bash
# gpu-check.sh [--bench | --bench-only | --multi | --gpu-tests | --interpose | --fp16 | --planner]: the GPU
# machine's run, the one script for it. --multi (a machine of several
# GPUs): the multi-GPU tests, then the multi-GPU benchmark
# (bench/multi_gpu_run.sh: every row over its floors, the links', the host
# copy's and NCCL's, measured in the same run) and every GPU against one through gpufftw's own
# choice (bench/never_slower.sh), with NVLink multicast kept off; the other
# tests as without it. --gpu-tests: the GPU tests (ctest -L gpu) on every
# GPU, GPUFFTW_GPU_TEST_RUNS times in a row (default 3), then once on the
# first GPU alone (CUDA_VISIBLE_DEVICES): a machine of several GPUs runs
# each test both ways. --interpose: the programs that open FFTW themselves
# (tests/interpose/, docs/interposition.md) with every plan on the GPU, once
# with the machine's FFTW and once with Debian's, carried in
# compat/work/fftw-runtime (bench/mpi_run.sh prepare), whose internal calls
# bind otherwise; the FFTW MPI one on 2 ranks; then the GPU tests as
# --gpu-tests runs them. --fp16: the fp16 tests (ctest -R fp16 and the
# precision switch, every GPUFFTW_FP16_WAY), then bench/fp16_run.sh and
# its table. --planner: the planner against a revision before it, in one
# call: bench/never_slower.sh under FFTW_MEASURE with
# GPUFFTW_BENCH_BASELINE (default build-baseline/libgpufftw.so.1, from
# bench/baseline.sh, carried) timed point by point beside this build, on
# one GPU and on every GPU, then FFTW's check.pl preloaded in forced GPU
# mode on its serial configurations, both precisions. Builds gpufftw there; runs every test (the GPU tests of
# the engine, dispatch, r2r and our kernels included), the correctness
# sweep with every GPU-able problem forced onto the GPU, gpufftw-compare on
# the spectrogram example and FFTW's check.pl suite preloaded in forced GPU
# mode; with --bench also, and with --bench-only instead of the tests, the
# benchmarks: the side-by-side PCIe benchmark (bench/run.sh), the real
# FFTW against gpufftw on 2-D DCT/DST (docs/r2r.md), GPUFFTW_PRECISION=fp16
# against fp32 on host arrays (bench/fp16_run.sh, docs/fp16.md) and our
# kernels against cuFFT (bench/kernel_bench, bench/multi_pass_bench,
# docs/kernels.md). Prints a short table last. The tests and the
# benchmarks each take several minutes (docs/results/check.md has the
# times), so --bench-only runs the benchmarks on their own. Logs go to $OUT
# (or /tmp/gpu-check). FFTW's source must be in compat/work/
# (compat/fetch-fftw-source.sh, on a machine with a network).
set -uo pipefail
tests=1 bench=0 multi=0 gpu_tests=0 interpose=0 fp16=0 planner=0
case ${1:-} in
  --planner) tests=0 planner=1 ;;
  --fp16) tests=0 fp16=1 ;;
  --interpose) tests=0 interpose=1 gpu_tests=1 ;;
  --bench) bench=1 ;;
  --bench-only) tests=0 bench=1 ;;
  --multi) tests=0 multi=1 ;;
  --gpu-tests) tests=0 gpu_tests=1 ;;
  "") ;;
  *) echo "usage: $0 [--bench | --bench-only | --multi | --gpu-tests | --interpose | --fp16 | --planner]" >&2; exit 2 ;;
esac
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
out=${OUT:-/tmp/gpu-check}
. "$(dirname "$0")/gpu-common.sh"
declare -a rows

row() { rows+=("$(printf '%-34s %s' "$1" "$2")"); }

if ! { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${GPUFFTW_CUDA_ARCH:+-DCMAKE_CUDA_ARCHITECTURES=$GPUFFTW_CUDA_ARCH} &&
       cmake --build "$build" -j "$(nproc)"; } > "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"; echo "BUILD FAILED"; exit 1
fi

run_tests() {
  ctest --test-dir "$build" -j 8 --timeout 300 > "$out/ctest.log" 2>&1
  row "ctest (all, auto mode)" "$(grep -E 'tests passed' "$out/ctest.log")"
  grep -E "^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess)" "$out/ctest.log" | head -20

  "$build/tests/gpufftw_gpu_test" > "$out/gpu_test.log" 2>&1
  row "GPU tests" "$(grep -E '^\[  PASSED  \]|^\[  FAILED  \]|SKIPPED \]' "$out/gpu_test.log" | head -3 | tr '\n' ' ')"
  row "GPU largest rel. L2 error" "$(grep -E 'largest relative' "$out/gpu_test.log" | sed 's/.*GPU: //')"

  # One process per test (ctest's entries): each has its own dispatch store.
  ctest --test-dir "$build" -R '^Dispatch\.' -V > "$out/dispatch_gpu_test.log" 2>&1
  row "dispatch GPU tests" "$(grep -E 'tests passed' "$out/dispatch_gpu_test.log")"
  grep -oE 'ESTIMATE plan of .*' "$out/dispatch_gpu_test.log"

  GPUFFTW_MODE=gpu GPUFFTW_REPORT=1 "$build/tests/sweep/gpufftw_sweep_test" --gtest_brief=1 > "$out/sweep_gpu.log" 2>&1
  row "sweep, GPUFFTW_MODE=gpu" "$(grep -E '^\[  PASSED  \]|^\[  FAILED  \]' "$out/sweep_gpu.log" | tr '\n' ' ')"
  row "  plans placed on the GPU" "$(awk '$1=="gpu"{p+=$2} $1=="cpu"{c+=$2} END{print p+0 " gpu, " c+0 " cpu"}' "$out/sweep_gpu.log")"

  # The comparison mode on a real program whose plans run on the GPU.
  "$build/gpufftw-compare" -- "$build/compat/spectrogram" 8 > "$out/compare.log" 2>&1
  row "gpufftw-compare spectrogram" "exit $? ($(grep -o '[0-9]* plans, [0-9]* over tolerance' "$out/compare.log"))"

  if [ -f compat/work/fftw3_3.3.10.orig.tar.gz ] || [ -d compat/work/fftw3-3.3.10 ]; then
    GPUFFTW_BUILD=$build GPUFFTW_MODE=gpu compat/run-check.sh --quick --modes "preload relink dropin" > "$out/check_gpu.log" 2>&1
    row "check.pl preload GPUFFTW_MODE=gpu" "exit $?"
    tail -20 "$out/check_gpu.log"
  else
    row "check.pl" "not run: FFTW source not carried in compat/work"
  fi
}

# The real FFTW on all cores (FFTW_MEASURE, 30 s planning limit) against
# gpufftw's own choice, on docs/r2r.md's 2-D problems.
r2r_bench() {
  local problems="redft10-f32-4096x4096 redft01-f32-4096x4096 rodft10-f32-4096x4096"
  "$build/bench/fft_bench" --threads "$(nproc)" --timelimit 30 $problems | sed 's/^RESULT/RESULT fftw/'
  LD_PRELOAD=$build/libgpufftw.so.1 "$build/bench/fft_bench" --threads "$(nproc)" $problems | sed 's/^RESULT/RESULT gpufftw/'
}

run_bench() {
  OUT=$out/bench "$root/bench/run.sh" "$build" > "$out/bench.log" 2>&1
  row "benchmark" "exit $? (table in bench/table.md)"
  r2r_bench > "$out/r2r_bench.log" 2> "$out/r2r_bench.err"
  row "r2r 4096^2 f32, median ms" "$(awk '$1 == "RESULT" { t[$3] = t[$3] " " $2 " " $5 } END { for (p in t) printf "%s:%s; ", p, t[p] }' "$out/r2r_bench.log")"
  OUT=$out/bench "$root/bench/fp16_run.sh" "$build" > "$out/fp16_bench.log" 2>&1
  row "fp16 end to end (fp32/fp16, GPU mode)" "exit $? (table in bench/fp16_table.md)"
  "$build/bench/kernel_bench" > "$out/kernel_bench.log" 2>&1
  row "our kernels / cuFFT (kernel_bench)" "exit $?: $(grep -c '^RESULT' "$out/kernel_bench.log") sizes, ratio ours/cuFFT median $(
    grep -oE 'ratio=[0-9.]+' "$out/kernel_bench.log" | cut -d= -f2 | sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }')"
  "$build/bench/multi_pass_bench" > "$out/multi_pass_bench.log" 2>&1
  row "our multi-pass / cuFFT (multi_pass_bench)" "exit $?: $(grep -c '^RESULT' "$out/multi_pass_bench.log") shapes, ratio ours/cuFFT median $(
    grep -oE 'ratio=[0-9.]+' "$out/multi_pass_bench.log" | cut -d= -f2 | sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }')"
  cat "$out/bench/table.md" "$out/bench/fp16_table.md"
}

run_fp16() {
  # Within one call of the GPU machine (10 minutes): the build, these
  # tests, the benchmark, each bounded.
  timeout 240 ctest --test-dir "$build" -R 'fp16|Fp16|precision|Precision|HostHalf' -j 8 --timeout 230 -V \
    > "$out/fp16_tests.log" 2>&1
  row "fp16 tests (every way)" "$(grep -E 'tests passed' "$out/fp16_tests.log")"
  grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess)' "$out/fp16_tests.log" | head -20
  grep -h 'largest relative L2 error of fp16' "$out/fp16_tests.log" | sort -u
  OUT=$out/bench timeout 300 "$root/bench/fp16_run.sh" "$build" > "$out/fp16_bench.log" 2>&1
  row "fp16 benchmark" "exit $? (table below, bench/fp16_table.md)"
  cat "$out/bench/fp16_table.md"
}

run_multi() {
  timeout 300 "$build/tests/gpufftw_multi_gpu_test" > "$out/multi_gpu_test.log" 2>&1
  row "multi-GPU tests" "$(grep -E '^\[  PASSED  \]|^\[  FAILED  \]|SKIPPED \]' "$out/multi_gpu_test.log" | head -3 | tr '\n' ' ')"
  grep -E 'FAILED|Failure|Expected|Which is|actual' "$out/multi_gpu_test.log" | head -20
  # Three rounds of every row, with its floors measured first.
  OUT=$out/bench timeout 900 "$root/bench/multi_gpu_run.sh" "$build" > "$out/multi_bench.log" 2>&1
  row "multi-GPU benchmark" "exit $? (table below)"
  OUT=$out/bench timeout 420 "$root/bench/never_slower.sh" "$build" > "$out/never_slower.log" 2>&1
  row "every GPU against one, auto" "exit $?: $(grep '^worst' "$out/bench/never_slower_table.md" | tr '\n' ' ')"
  cat "$out/bench/multi_table.md"
}

run_planner() {
  local baseline=${GPUFFTW_BENCH_BASELINE:-$root/build-baseline/libgpufftw.so.1}
  if [ -e "$baseline" ]; then
    OUT=$out/bench GPUFFTW_BENCH_BASELINE=$baseline GPUFFTW_NEVER_SLOWER_FLAGS=measure timeout 360 \
      "$root/bench/never_slower.sh" "$build" > "$out/never_slower.log" 2>&1
    row "this build against $(cat "$(dirname "$baseline")/revision" 2>/dev/null || echo the baseline)" \
      "exit $?: $(grep '^this / baseline' "$out/bench/never_slower_table.md" | sed 's/^this \/ baseline, //' | tr '\n' ' ')"
  else
    row "this build against a baseline" "not run: no $baseline (bench/baseline.sh REV, carried)"
  fi
  if [ -f compat/work/fftw3-3.3.10/tests/check.pl ] && [ -d compat/work/bench ]; then
    GPUFFTW_BUILD=$build GPUFFTW_MODE=gpu timeout 180 compat/run-check.sh --quick --no-build --modes preload \
      --configs "plain threads wisdom" > "$out/check_gpu.log" 2>&1
    row "check.pl preload GPUFFTW_MODE=gpu" "exit $?: $(grep -cE '^run-check: .* PASS$' "$out/check_gpu.log") configurations passed"
    grep -E '^run-check: .* FAIL$' "$out/check_gpu.log" | head
  else
    row "check.pl" "not run: compat/work/bench and compat/work/fftw3-3.3.10/tests not carried"
  fi
  [ -f "$out/bench/never_slower_table.md" ] && cat "$out/bench/never_slower_table.md"
}

run_gpu_tests() {
  local runs=${GPUFFTW_GPU_TEST_RUNS:-3} first
  first=$(nvidia-smi --query-gpu=index --format=csv,noheader | head -1)
  for i in $(seq "$runs"); do
    ctest --test-dir "$build" -L gpu -j 10 --timeout 220 --output-on-failure > "$out/gpu_tests_$i.log" 2>&1
    row "ctest -L gpu, every GPU, run $i" "$(grep -E 'tests passed' "$out/gpu_tests_$i.log") ($(grep -oE 'Total Test time \(real\) = +[0-9.]+ sec' "$out/gpu_tests_$i.log" | grep -oE '[0-9.]+ sec'))"
    grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess)' "$out/gpu_tests_$i.log" | head -20
  done
  CUDA_VISIBLE_DEVICES=$first ctest --test-dir "$build" -L gpu -j 10 --timeout 220 --output-on-failure > "$out/gpu_tests_one.log" 2>&1
  row "ctest -L gpu, GPU $first alone" "$(grep -E 'tests passed' "$out/gpu_tests_one.log") ($(grep -oE 'Total Test time \(real\) = +[0-9.]+ sec' "$out/gpu_tests_one.log" | grep -oE '[0-9.]+ sec'))"
  grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT|Subprocess)' "$out/gpu_tests_one.log" | head -20
}

run_interpose() {
  local debian=$root/compat/work/fftw-runtime/usr/lib/x86_64-linux-gnu system
  system=$(ldconfig -p | sed -n 's/^[[:space:]]*libfftw3f\.so\.3 .*=> //p' | head -n1)
  GPUFFTW_MODE=gpu INTERPOSE_WHERE=gpu tests/interpose/interpose_test.sh "$build" "$(dirname "$system")" \
    > "$out/interpose_system.log" 2>&1
  row "interposition, $(dirname "$system"), gpu" "exit $?: $(grep -E 'cells passed|FAIL' "$out/interpose_system.log" | head -1)"
  if [ -e "$debian/libfftw3f.so.3" ]; then
    LD_LIBRARY_PATH=$debian GPUFFTW_MODE=gpu INTERPOSE_WHERE=gpu tests/interpose/interpose_test.sh "$build" "$debian" \
      > "$out/interpose_debian.log" 2>&1
    row "interposition, Debian's FFTW, gpu" "exit $?: $(grep -E 'cells passed|FAIL' "$out/interpose_debian.log" | head -1)"
    if [ -x "$build/tests/mpi/mpi_dlopen_client" ]; then
      LD_LIBRARY_PATH=$debian GPUFFTW_FFTW_MPI_DIR=$debian GPUFFTW_MODE=gpu \
        tests/interpose/mpi_dlopen_test.sh "$build" > "$out/interpose_mpi.log" 2>&1
      row "interposition, FFTW MPI dlopen, 2 ranks" "exit $?: $(grep -E '^PASS|FAIL' "$out/interpose_mpi.log" | head -1)"
    else
      row "interposition, FFTW MPI dlopen" "not run: no libgpufftw_mpi built (fftw3-mpi.h not in compat/work/fftw-runtime)"
    fi
  else
    row "interposition, Debian's FFTW" "not run: compat/work/fftw-runtime not carried"
  fi
  grep -h -B3 -A12 "FAIL" "$out"/interpose_*.log | head -40
}

[ $interpose = 1 ] && run_interpose
[ $tests = 1 ] && run_tests
[ $gpu_tests = 1 ] && run_gpu_tests
[ $multi = 1 ] && run_multi
[ $bench = 1 ] && run_bench
[ $fp16 = 1 ] && run_fp16
[ $planner = 1 ] && run_planner

[ -f "$out/compare.log" ] && cat "$out/compare.log"
echo
echo "== gpufftw GPU check, $(cat "$out/device.txt" | tr '\n' ' ')"
printf '%s\n' "${rows[@]}"
