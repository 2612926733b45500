#!/usr/bin/env bash
# run-tests.sh: builds gpufftw and runs every test: the GoogleTest suites
# and the other CTest checks (the installed tree among them), the Debian
# package, then FFTW's own conformance suite (check.pl) on a bounded random
# set, in all three ways in. Tests that need a GPU skip with a message where
# there is none.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Tests leave no trace: the whole run has an empty HOME of its own (and no
# XDG_CACHE_HOME), and anything written there at the end is a failure.
home=$(mktemp -d)
export HOME=$home
unset XDG_CACHE_HOME
"$root/tools/setup.sh" "$root/build"
ctest --test-dir "$root/build" --output-on-failure -j "$(nproc)"
# The Debian package: built, its dependencies resolved by apt, unpacked into
# a clean prefix and the example run through it; CI (.ci/run, a throwaway
# root machine) also installs it with apt-get (GPUFFTW_PACKAGE_TEST_SYSTEM=1).
"$root/tools/package-test.sh" "$root/build" ${GPUFFTW_PACKAGE_TEST_SYSTEM:+--system}
# Where that build has the GPU engine, the CPU-only library too: what a
# machine without the CUDA toolkit builds, which can break unnoticed where
# code outside the engine calls functions only the CUDA build defines.
if grep -q '^GPUFFTW_CUDA_ENGINE:INTERNAL=ON' "$root/build/CMakeCache.txt"; then
  "$root/tools/setup.sh" "$root/build-cpu" -DGPUFFTW_WITH_CUDA=OFF
  ctest --test-dir "$root/build-cpu" --output-on-failure -j "$(nproc)"
fi
"$root/compat/run-check.sh" --quick
# The hardening runs on the CPU path, bounded (docs/hardening.md): ASan+UBSan
# over every ctest test and a check.pl set with the library preloaded, TSan
# over the threading tests, and 60 s of the planner fuzzer against the real
# FFTW after its committed corpus. GPUFFTW_SKIP_SANITIZERS=1 leaves them out.
if [ "${GPUFFTW_SKIP_SANITIZERS:-0}" != 1 ]; then
  FUZZ_SECONDS=${FUZZ_SECONDS:-60} "$root/tools/run-sanitizers.sh" asan tsan fuzz
fi
if [ -n "$(ls -A "$home")" ]; then
  echo "run-tests: the tests wrote into HOME ($home):"
  find "$home" -mindepth 1 | sed "s|^$home|  ~|"
  exit 1
fi
rm -rf "$home"
