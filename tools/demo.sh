#!/usr/bin/env bash
# demo.sh: builds gpufftw and runs an unchanged FFTW program (the
# spectrogram example, linked against the system's libfftw3f) through it,
# with gpufftw's report at exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh" "$root/build" >/dev/null
echo "== spectrogram, plain FFTW"
"$root/build/compat/spectrogram" "$@"
echo "== spectrogram, through gpufftw (gpufftw-run --report)"
"$root/build/gpufftw-run" --report -- "$root/build/compat/spectrogram" "$@"
