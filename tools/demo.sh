#!/usr/bin/env bash
# demo.sh [ARGS...]: builds gpufftw in build/ (or $GPUFFTW_BUILD) and runs an
# unchanged FFTW program (the spectrogram example, linked against the
# system's libfftw3f; ARGS are its own) through it, with gpufftw's report
# at exit. A line says as each step starts; the build shows its progress.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GPUFFTW_BUILD:-$root/build}
echo "demo: 1/3 building gpufftw in $build (tools/setup.sh; the first time about 5 minutes on 2 cores, packages installed with apt-get where missing)"
"$root/tools/setup.sh" "$build"
echo "demo: 2/3 spectrogram, plain FFTW"
"$build/compat/spectrogram" "$@"
echo "demo: 3/3 spectrogram, through gpufftw (gpufftw-run --report)"
"$build/gpufftw-run" --report -- "$build/compat/spectrogram" "$@"
