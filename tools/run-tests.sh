#!/usr/bin/env bash
# run-tests.sh: builds gpufftw and runs every test: the GoogleTest suites
# and the other CTest checks, then FFTW's own conformance suite (check.pl)
# on a bounded random set, in all three ways in. Tests that need a GPU skip
# with a message where there is none.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh" "$root/build"
ctest --test-dir "$root/build" --output-on-failure -j "$(nproc)"
"$root/compat/run-check.sh" --quick
