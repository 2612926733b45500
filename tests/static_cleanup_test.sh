#!/bin/sh
# static_cleanup_test.sh BUILD_DIR PROGRAM: tests/hazards/static_cleanup_main.cc
# (C++ static objects whose destructors call fftw_cleanup, then execute and
# destroy older plans) with the comparison and the report on, preloaded and
# through the drop-in folder. Each run exits 0, as plain FFTW does, and each
# table counts the 4 plans and 5 executes, those of the destructors too.
set -u
build=$1 program=$2
. "$(dirname "$0")/scratch.sh"
"$program" > "$tmp/out" 2>&1 || fail "plain FFTW exited $?: $(cat "$tmp/out")"
# run WAY [VARIABLE=VALUE...] CMD...: CMD with the variables set exits 0, its
# own output first.
run() {
  way=$1
  shift
  exits_0 "$way" "$@"
  [ "$(head -n 1 "$tmp/out")" = "static_cleanup: main done" ] || fail "$way: the tables came before the program's output: $(cat "$tmp/out")"
}
check() {
  way=$1
  shift
  run "$way, the report" GPUFFTW_REPORT=1 "$@"
  grep -qE "^  total +4 +5 " "$tmp/out" || fail "$way: the report does not count 4 plans and 5 executes: $(cat "$tmp/out")"
  run "$way, the comparison" GPUFFTW_COMPARE=1 "$@"
  grep -q "gpufftw compare: 4 plans, 0 over tolerance" "$tmp/out" || fail "$way: the comparison does not list 4 plans: $(cat "$tmp/out")"
  for n in 32 48 64 80; do
    grep -qE "^ +[0-9]+ cpu +[0-9]+/[0-9]+ .* c2c f64 n=\[$n\]" "$tmp/out" || fail "$way: the comparison does not list the plan of n=$n: $(cat "$tmp/out")"
  done
}
check preload "$build/gpufftw-run" -- "$program"
check drop-in LD_LIBRARY_PATH="$build/dropin" "$program"
echo PASS
