#!/bin/sh
# children_signals_test.sh BUILD_DIR PROGRAM: tests/hazards/children_signals_main.c
# (children by system, popen, posix_spawn and vfork, two of them FFTW
# programs, and a 1 ms timer with the program's own handler) plain,
# preloaded and through the drop-in folder: each run right, and the two
# FFTW children go through gpufftw too (three reports).
set -u
build=$1 program=$2
. "$(dirname "$0")/scratch.sh"
"$program" > "$tmp/out" 2>&1 || fail "plain FFTW exited $?: $(cat "$tmp/out")"
# check WAY [VARIABLE=VALUE...] CMD...
check() {
  way=$1
  shift
  exits_0 "$way" GPUFFTW_REPORT=1 "$@"
  grep -q "^children_signals: right" "$tmp/out" || fail "$way: no result: $(cat "$tmp/out")"
  [ "$(grep -c '^gpufftw report:' "$tmp/out")" = 3 ] || fail "$way: not 3 reports (the program and its 2 FFTW children): $(cat "$tmp/out")"
}
check preload "$build/gpufftw-run" -- "$program"
check drop-in LD_LIBRARY_PATH="$build/dropin" "$program"
echo PASS
