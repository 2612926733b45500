#!/usr/bin/env bash
# gpu-check.sh [--bench]: the GPU machine's run. Builds gpufftw there, runs
# every test (the GPU tests and dispatch's included), the correctness sweep with every
# GPU-able problem forced onto the GPU, gpufftw-compare on the spectrogram
# example, FFTW's check.pl suite preloaded in forced GPU mode, and with
# --bench the side-by-side benchmark; prints a short table last. Logs go to
# $OUT (or /tmp/gpu-check). FFTW's source must be carried in compat/work/
# (fetch-fftw-source.sh here).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/gpu-check}
build=$root/build-gpu
mkdir -p "$out"
cd "$root"
export PATH="/usr/local/cuda/bin:$PATH"
declare -a rows

row() { rows+=("$(printf '%-34s %s' "$1" "$2")"); }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)" >> "$out/device.txt"

if ! { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build "$build" -j 16; } > "$out/build.log" 2>&1; then
  tail -30 "$out/build.log"; echo "BUILD FAILED"; exit 1
fi

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

if [ "${1:-}" = --bench ]; then
  OUT=$out/bench "$root/bench/run.sh" "$build" > "$out/bench.log" 2>&1
  row "benchmark" "exit $? (table in bench/table.md)"
  cat "$out/bench/table.md"
fi

cat "$out/compare.log"
echo
echo "== gpufftw GPU check, $(cat "$out/device.txt" | tr '\n' ' ')"
printf '%s\n' "${rows[@]}"
