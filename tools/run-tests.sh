#!/usr/bin/env bash
# run-tests.sh: builds gpufftw and runs every test: the GoogleTest suites
# and the other CTest checks (the installed tree among them), the Debian
# package, then FFTW's own conformance suite (check.pl) on a bounded random
# set, in all three ways in. Tests that need a GPU skip with a message where
# there is none. Each phase says so as it starts; a phase that fails does
# not stop the others (the build excepted, which they all need), and the
# run ends with one line per phase and the verdict.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Tests leave no trace: the whole run has an empty HOME of its own (and no
# XDG_CACHE_HOME), and anything written there is a failure (the last phase).
home=$(mktemp -d)
export HOME=$home
unset XDG_CACHE_HOME
# The phases that run programs outside ctest (the package's example,
# check.pl, the fuzzer) keep their dispatch store in the build tree; each
# ctest test has its own (tests/cache_dirs.cmake).
export GPUFFTW_CACHE_DIR=$root/build/test-cache/run-tests

results=()
failed=()
# phase NAME CMD...: runs CMD, said as it starts, and keeps its result.
phase() {
  local name=$1 t0=$SECONDS
  shift
  echo "run-tests: phase $((${#results[@]} + 1)): $name"
  if "$@"; then
    results+=("passed  $name ($((SECONDS - t0)) s)")
  else
    results+=("FAILED  $name ($((SECONDS - t0)) s)")
    failed+=("$name")
  fi
}
# The lines that end the run, and its status.
verdict() {
  echo "run-tests: ${#results[@]} phases:"
  printf '  %s\n' "${results[@]}"
  if [ ${#failed[@]} = 0 ]; then
    echo "run-tests: all ${#results[@]} phases passed"
    exit 0
  fi
  local names
  names=$(printf '%s, ' "${failed[@]}")
  echo "run-tests: ${#failed[@]} of ${#results[@]} phases failed: ${names%, }"
  exit 1
}
no_trace() {
  if [ -n "$(ls -A "$home")" ]; then
    echo "run-tests: the tests wrote into HOME ($home):"
    find "$home" -mindepth 1 | sed "s|^$home|  ~|"
    return 1
  fi
  rm -rf "$home"
}
run_ctest() { ctest --test-dir "$1" --output-on-failure -j "$(nproc)"; }

phase "build" "$root/tools/setup.sh" "$root/build"
[ ${#failed[@]} = 0 ] || verdict
phase "ctest" run_ctest "$root/build"
# The Debian package: built, its dependencies resolved by apt, unpacked into
# a clean prefix and the example run through it; CI (.ci/run, a throwaway
# root machine) also installs it with apt-get (GPUFFTW_PACKAGE_TEST_SYSTEM=1).
phase "Debian package" "$root/tools/package-test.sh" "$root/build" ${GPUFFTW_PACKAGE_TEST_SYSTEM:+--system}
# Where that build has the GPU engine, the CPU-only library too: what a
# machine without the CUDA toolkit builds, which can break unnoticed where
# code outside the engine calls functions only the CUDA build defines.
if grep -q '^GPUFFTW_CUDA_ENGINE:INTERNAL=ON' "$root/build/CMakeCache.txt"; then
  phase "CPU-only build" "$root/tools/setup.sh" "$root/build-cpu" -DGPUFFTW_WITH_CUDA=OFF
  phase "CPU-only ctest" run_ctest "$root/build-cpu"
fi
phase "check.pl" "$root/compat/run-check.sh" --quick
# The hardening runs on the CPU path, bounded (docs/hardening.md): ASan+UBSan
# over every ctest test and a check.pl set with the library preloaded, TSan
# over the threading tests, and 60 s of the planner fuzzer against the real
# FFTW after its committed corpus. GPUFFTW_SKIP_SANITIZERS=1 leaves them out.
if [ "${GPUFFTW_SKIP_SANITIZERS:-0}" != 1 ]; then
  phase "ASan+UBSan" "$root/tools/run-sanitizers.sh" asan
  phase "TSan" "$root/tools/run-sanitizers.sh" tsan
  phase "fuzz" env FUZZ_SECONDS="${FUZZ_SECONDS:-60}" "$root/tools/run-sanitizers.sh" fuzz
fi
phase "no trace in HOME" no_trace
verdict
