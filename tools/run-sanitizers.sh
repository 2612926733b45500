#!/usr/bin/env bash
# run-sanitizers.sh [asan] [tsan] [fuzz]: the sanitizer runs (docs/hardening.md),
# on the CPU path (-DGPUFFTW_WITH_CUDA=OFF), each in a build of its own:
#   asan  build-asan (GPUFFTW_SANITIZE=address,undefined): every ctest test
#         (relinked, dlopened, drop-in and preloaded programs; the preloaded
#         ones get the sanitizer's runtime first in LD_PRELOAD: CMakeLists.txt),
#         then FFTW's check.pl on a bounded random set with the library
#         preloaded, both precisions, plain, threads and wisdom.
#   tsan  build-tsan (GPUFFTW_SANITIZE=thread): the threading tests
#         (gpufftw_hazard_test: tests/hazards/threads_wisdom_test.cc and the
#         other hazards; compare_threads; tests/hazards/concurrency_test.cc
#         with fewer executes).
#   fuzz  build-fuzz (clang, libFuzzer, ASan+UBSan): the planner fuzzer over
#         its committed corpus and then FUZZ_SECONDS (default 60) of new
#         inputs (tests/fuzz/README.md).
# No argument: all three. Any sanitizer report fails the run (halt_on_error).
# Env: JOBS (default nproc), FUZZ_SECONDS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-$(nproc)}
what=("$@")
[ ${#what[@]} -gt 0 ] || what=(asan tsan fuzz)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"

configure() {  # configure DIR ARGS...
  local dir=$1
  shift
  cmake -S "$root" -B "$dir" "${generator[@]}" -DGPUFFTW_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
}

for w in "${what[@]}"; do
  t0=$SECONDS
  case $w in
    asan)
      echo "run-sanitizers: asan: ASan+UBSan build (build-asan), every ctest test, check.pl preloaded"
      configure "$root/build-asan" -DGPUFFTW_SANITIZE=address,undefined
      cmake --build "$root/build-asan" -j "$jobs"
      GPUFFTW_TEST_EXECUTES=20000 ctest --test-dir "$root/build-asan" --output-on-failure -j "$jobs"
      # check.pl with the sanitized library preloaded (the relinked way in
      # is every ctest binary above): a compat work folder of its own, so the
      # plain build's runs are left alone; FFTW's source, and the bench where
      # compat/run-check.sh built it already (run-tests.sh), are shared.
      "$root/compat/fetch-fftw-source.sh"
      work=$root/compat/work/asan
      mkdir -p "$work"
      ln -sfn ../fftw3-3.3.10 "$work/fftw3-3.3.10"
      [ ! -d "$root/compat/work/fftw-runtime" ] || ln -sfn ../fftw-runtime "$work/fftw-runtime"
      build_bench=()
      if [ -x "$root/compat/work/bench/double/bench-system" ] && [ -x "$root/compat/work/bench/single/bench-system" ]; then
        [ -L "$work/bench" ] || rm -rf "$work/bench"
        ln -sfn ../bench "$work/bench"
        build_bench=(--no-build)
      fi
      GPUFFTW_BUILD=$root/build-asan GPUFFTW_COMPAT_WORK=$work "$root/compat/run-check.sh" --quick "${build_bench[@]}" \
        --modes preload --precisions "double single" --configs "plain threads wisdom" ;;
    tsan)
      echo "run-sanitizers: tsan: TSan build (build-tsan), the threading tests"
      configure "$root/build-tsan" -DGPUFFTW_SANITIZE=thread
      cmake --build "$root/build-tsan" -j "$jobs" --target gpufftw_hazard_test gpufftw_compare_test gpufftw_concurrency_test
      "$root/build-tsan/tests/gpufftw_hazard_test"  # Threads.* and Wisdom.*, and the rest of the hazards
      GPUFFTW_COMPARE=1 "$root/build-tsan/tests/gpufftw_compare_test"
      GPUFFTW_TEST_EXECUTES=8000 GPUFFTW_TEST_WATCHDOG_S=400 "$root/build-tsan/tests/gpufftw_concurrency_test" ;;
    fuzz)
      echo "run-sanitizers: fuzz: the planner fuzzer for ${FUZZ_SECONDS:-60} s after its committed corpus"
      "$root/tests/fuzz/run-fuzz.sh" "${FUZZ_SECONDS:-60}" ;;
    *) echo "run-sanitizers: unknown run $w (asan, tsan or fuzz)" >&2; exit 2 ;;
  esac
  echo "run-sanitizers: $w passed in $((SECONDS - t0)) s"
done
