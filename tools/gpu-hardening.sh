#!/usr/bin/env bash
# gpu-hardening.sh [build] [concurrency] [sanitizer] [fuzz] [large] [sticky]
# [memory] [env] [soak]: the hardening runs on the GPU machine (no argument:
# the first four, in that order; the others only when named). Builds
# build-gpu/ (as tools/gpu-check.sh does; reused where it is there), then:
#   concurrency  tests/hazards/concurrency_test.cc with every plan the GPU
#                takes on it (GPUFFTW_MODE=gpu): 16 threads planning and
#                executing distinct plans, 16 executing one GPU plan on
#                their own arrays; 100,000 executes each, results checked,
#                throughput printed.
#   sanitizer    compute-sanitizer over every GPU test (ctest label gpu),
#                once per tool of SANITIZER_TOOLS (default memcheck,
#                racecheck,synccheck), as tools/gpu-sanitize.py says; any
#                error or timeout fails.
#   fuzz         the planner fuzzer without libFuzzer (gpufftw_fuzz_replay)
#                in GPUFFTW_MODE=gpu: the committed corpus, then
#                FUZZ_SECONDS (default 420) of mutations, each input's plan
#                NULL-ness and results against the real FFTW.
#   large        tests/gpu/large_gpu_test.cc: c2c f32 past 2^31 elements
#                (a batch of 2^21+3 transforms of 1024, one 2^16 x 2^15
#                transform) in GPU mode, every output checked; 32 GiB of
#                host memory.
#   sticky       tests/gpu/sticky_gpu_test.cc: GPUFFTW_FAULT=sticky makes an
#                execute launch a kernel that traps (a real
#                cudaErrorLaunchFailure); that execute, later executes of
#                five GPU plans and new plans (on the CPU, why "the GPU was
#                lost") checked against the real FFTW; one warning, clean
#                destroy and exit; again with GPUFFTW_SPLIT_TEST=2.
#   memory       tests/gpu/memory_taken_gpu_test.cc: all but 16 MiB of device
#                memory taken between plan and execute; right results, GPU
#                still usable, no device memory kept.
#   env          tests/hazards/env_test.cc with a GPU: every GPUFFTW_*
#                variable's bad value (GPUFFTW_CACHE_DIR is read only here).
#   soak         tools/soak.sh: SOAK_SECONDS (default 420, so that with its
#                warm-up and settling it ends within 10 minutes) of mixed plans and
#                executes, host RSS, pinned and device memory at the start
#                and the end.
# Each step takes under 10 minutes; run them apart if needed.
# Logs and a summary go to $OUT (or /tmp/gpu-hardening).
set -uo pipefail
out=${OUT:-/tmp/gpu-hardening}
. "$(dirname "$0")/gpu-common.sh"
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(build concurrency sanitizer fuzz)
status=0
summary() { echo "$*" | tee -a "$out/summary.txt"; }

for step in "${steps[@]}"; do
  t0=$SECONDS
  case $step in
    build)
      if { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build "$build" -j "$(nproc)"; } \
          > "$out/build.log" 2>&1; then
        summary "build: ok ($((SECONDS - t0)) s)"
      else
        tail -30 "$out/build.log"; summary "build: FAILED"; exit 1
      fi ;;
    concurrency)
      if GPUFFTW_MODE=gpu GPUFFTW_TEST_GPU=1 "$build/tests/gpufftw_concurrency_test" > "$out/concurrency.log" 2>&1; then
        summary "concurrency (GPU mode): PASS ($((SECONDS - t0)) s)"
      else
        summary "concurrency (GPU mode): FAILED"; status=1
      fi
      grep -E "executes on|one plan:|SKIPPED" "$out/concurrency.log" | tee -a "$out/summary.txt" ;;
    sanitizer)
      # Every GPU test ctest knows, under each tool (tools/gpu-sanitize.py).
      if COMPUTE_SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer) \
          python3 "$root/tools/gpu-sanitize.py" "$build" "$out/sanitizer" \
          --tools "${SANITIZER_TOOLS:-memcheck,racecheck,synccheck}" > "$out/sanitizer.log" 2>&1; then
        summary "compute-sanitizer: PASS ($((SECONDS - t0)) s)"
      else
        summary "compute-sanitizer: FAILED ($out/sanitizer.log)"; status=1
      fi
      tee -a "$out/summary.txt" < "$out/sanitizer/sanitizer-summary.txt" ;;
    fuzz)
      secs=${FUZZ_SECONDS:-420}
      if GPUFFTW_MODE=gpu "$build/tests/gpufftw_fuzz_replay" -seconds="$secs" -out="$out/fuzz-crash-input" \
          "$root/tests/fuzz/corpus" > "$out/fuzz.log" 2>&1; then
        summary "fuzz (GPU mode, $secs s): PASS: $(grep -E 'new inputs in' "$out/fuzz.log" | tail -1)"
      else
        summary "fuzz (GPU mode): FAILED ($out/fuzz.log, input in $out/fuzz-crash-input)"; status=1
        grep -A3 "FUZZ MISMATCH" "$out/fuzz.log" | head -8
      fi ;;
    large)
      if GPUFFTW_MODE=gpu GPUFFTW_TEST_LARGE=1 timeout 580 "$build/tests/gpufftw_large_gpu_test" > "$out/large.log" 2>&1; then
        summary "large (past 2^31 elements): PASS ($((SECONDS - t0)) s)"
      else
        summary "large (past 2^31 elements): FAILED"; status=1
      fi
      grep -E "^plan:|^execute:|largest error|SKIPPED" "$out/large.log" | tee -a "$out/summary.txt" ;;
    sticky|memory|env)
      case $step in
        sticky) bin=gpufftw_sticky_gpu_test; what="sticky error at execute" ;;
        memory) bin=gpufftw_memory_taken_gpu_test; what="device memory taken between plan and execute" ;;
        env) bin=gpufftw_env_test; what="bad GPUFFTW_* values, with a GPU" ;;
      esac
      if timeout 280 "$build/tests/$bin" > "$out/$step.log" 2>&1; then
        summary "$step ($what): PASS ($((SECONDS - t0)) s)"
      else
        summary "$step ($what): FAILED ($out/$step.log)"; status=1
      fi
      grep -E "SKIPPED|FAIL|free device memory|memory taken|given back|scenario done" "$out/$step.log" |
        tee -a "$out/summary.txt"
      # Plans spread over a set too (one GPU standing in for two where
      # there is one): the trap fires in each share's worker.
      if [ "$step" = sticky ]; then
        if GPUFFTW_SPLIT_TEST=2 timeout 280 "$build/tests/$bin" > "$out/sticky-split.log" 2>&1; then
          summary "sticky, plans split over two (GPUFFTW_SPLIT_TEST=2): PASS"
        else
          summary "sticky, plans split over two (GPUFFTW_SPLIT_TEST=2): FAILED ($out/sticky-split.log)"; status=1
        fi
        grep -E "SKIPPED|FAIL|scenario done" "$out/sticky-split.log" | tee -a "$out/summary.txt"
      fi ;;
    soak)
      secs=${SOAK_SECONDS:-420}
      if OUT=$out timeout 590 "$root/tools/soak.sh" "$build" "$secs" > /dev/null 2>&1; then
        summary "soak ($secs s): PASS"
      else
        summary "soak ($secs s): FAILED ($out/soak.log)"; status=1
      fi
      grep -E "^(soak|warm-up|start|minute|end|growth|WRONG)" "$out/soak.log" | tee -a "$out/summary.txt" ;;
    *) echo "gpu-hardening: unknown step $step" >&2; exit 2 ;;
  esac
done
exit $status
