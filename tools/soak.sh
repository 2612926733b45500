#!/usr/bin/env bash
# soak.sh [BUILD_DIR] [SECONDS]: the soak, bench/soak.cc, for SECONDS
# (default 600) after its warm-up and settling: mixed plans and executes
# through gpufftw (c2c, r2c, c2r, r2r; f32 and f64; auto, GPU and CPU
# mode; FFTW_ESTIMATE and FFTW_MEASURE; fftw_malloc and malloc arrays;
# new-array executes; plan and destroy churn), results checked against
# the real FFTW, host RSS, gpufftw's pinned memory and the device's used
# memory read at the start and the end; fails on a wrong result or growth
# past 1%. Extra arguments for the program go in SOAK_ARGS. The log goes
# to $OUT/soak.log (or /tmp/soak.log) as well as the terminal.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
seconds=${2:-600}
out=${OUT:-/tmp}
mkdir -p "$out"
soak=$build/bench/gpufftw_soak
[ -x "$soak" ] || { echo "soak: $soak not built (ninja -C $build gpufftw_soak)" >&2; exit 2; }
# shellcheck disable=SC2086
"$soak" --seconds "$seconds" ${SOAK_ARGS:-} 2>&1 | tee "$out/soak.log"
exit "${PIPESTATUS[0]}"
