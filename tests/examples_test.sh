#!/bin/sh
# examples_test.sh BUILD_DIR SOURCE_DIR: the examples of examples/README.md
# run as a user would run them, through gpufftw-run --report: the pyFFTW
# script and the Octave script (each checks its own result and exits 1 if
# wrong), and the report must name their plans. An interpreter that is not
# here is skipped, saying so; with neither, the test skips.
set -u
build=$1
src=$2
ran=0
fail() { echo "FAIL: $*"; exit 1; }
run() {  # run NAME PLAN_PATTERN CMD...
  name=$1 pattern=$2
  shift 2
  out=$("$build/gpufftw-run" --report -- "$@" 2>&1) || fail "$name exited $?: $out"
  echo "$out"
  echo "$out" | grep -q "^gpufftw report:" || fail "$name: no report"
  echo "$out" | grep -qE "$pattern" || fail "$name: the report does not show its plan ($pattern)"
  ran=$((ran + 1))
}
# pyFFTW is a module of the system's Python (python3-pyfftw).
py=/usr/bin/python3
if [ -x "$py" ] && "$py" -c "import pyfftw" 2>/dev/null; then
  run pyFFTW 'r2c f32 n=\[1024x1024\]' "$py" "$src/examples/pyfftw_spectrum.py" 1024
else
  echo "pyFFTW: not here (python3-pyfftw), skipped"
fi
if command -v octave >/dev/null 2>&1; then
  run Octave 'c2c f32 n=\[4096\] howmany=\[512\]|r2c f32 n=\[4096\] howmany=\[512\]' \
    octave --no-gui --no-window-system --quiet "$src/examples/octave_spectrum.m"
else
  echo "Octave: not here, skipped"
fi
[ $ran -gt 0 ] && echo "PASS: $ran examples" || echo "SKIPPED: neither pyFFTW nor Octave is here"
