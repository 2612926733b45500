#!/bin/sh
# sanitizer_preload_test.sh BUILD_DIR CC SOURCE FFTW_INCLUDE_DIR FFTW_LIB:
# FFTW programs built with -fsanitize=address and -fsanitize=thread run
# under gpufftw-run, their FFTs through gpufftw (the report lists the
# plan): the sanitizer runtime a program links, or one the user preloaded,
# is kept first in LD_PRELOAD, as ASan requires, and gpufftw-run says so in
# one line. Skipped (77) where CC can build with neither.
set -u
build=$1 cc=$2 source=$3 include=$4 fftw=$5
. "$(dirname "$0")/scratch.sh"
# run WAY WHAT [VARIABLE=VALUE...]: the program under gpufftw-run exits 0
# with its plan in the report and one line of gpufftw-run's saying WHAT.
run() {
  way=$1 what=$2
  shift 2
  exits_0 "$way" "$@" "$build/gpufftw-run" --report -- "$program"
  grep -q "c2c f64 n=\[64\]" "$tmp/out" || fail "$way: the plan did not go through gpufftw: $(cat "$tmp/out")"
  [ "$(grep -c '^gpufftw-run:' "$tmp/out")" = 1 ] && grep -qF "gpufftw-run: $what" "$tmp/out" ||
    fail "$way: gpufftw-run does not say in one line \"$what\": $(cat "$tmp/out")"
}
built=0
for sanitizer in address:asan thread:tsan; do
  flag=${sanitizer%:*} name=${sanitizer#*:}
  program=$tmp/impulse-$name
  if ! "$cc" -fsanitize="$flag" -I"$include" -o "$program" "$source" "$fftw" -lm 2> "$tmp/cc"; then
    echo "$cc cannot build with -fsanitize=$flag: $(cat "$tmp/cc")"
    continue
  fi
  "$program" > "$tmp/out" 2>&1 || fail "$name, plain: exited $?: $(cat "$tmp/out")"
  runtime=$(ldd "$program" | awk -v lib="^lib$name\\\\.so" '$1 ~ lib {print $3}')
  [ -n "$runtime" ] || { echo "$program does not link lib$name dynamically"; continue; }
  built=1
  run "$name, linked" "$program is built with a sanitizer: preloading its runtime $runtime first, before "
  # gpufftw-compare preloads as gpufftw-run does.
  "$build/gpufftw-compare" -- "$program" > "$tmp/out" 2>&1 ||
    fail "$name, gpufftw-compare: exited $?: $(cat "$tmp/out")"
  grep -q "1 plans\?, 0 over tolerance\|1 plan, 0 over tolerance" "$tmp/out" ||
    fail "$name, gpufftw-compare: no comparison of the plan: $(cat "$tmp/out")"
  # TSan's runtime preloaded crashes the shell that runs gpufftw-run (an
  # uninstrumented program), gpufftw or not: only ASan's is preloaded.
  [ "$name" = asan ] || continue
  run "$name, preloaded" "keeping the sanitizer runtime $runtime first in LD_PRELOAD, before " LD_PRELOAD="$runtime"
  # Another library the user preloaded after it (space-separated, as ld.so
  # allows) stays, after gpufftw.
  run "$name, preloaded with another" "keeping the sanitizer runtime $runtime first in LD_PRELOAD, before " \
    LD_PRELOAD="$runtime libm.so.6"
done
[ $built = 1 ] || { echo "SKIP: no sanitizer build to run"; exit 77; }
echo PASS
