#!/bin/sh
# sanitizer_preload_test.sh BUILD_DIR CC SOURCE FFTW_INCLUDE_DIR FFTW_LIB:
# an FFTW program built with -fsanitize=address runs under gpufftw-run,
# its FFTs through gpufftw (the report lists its plan): the ASan runtime it
# links, or one the user preloaded, is kept first in LD_PRELOAD, as ASan
# requires, and gpufftw-run says so in one line. Skipped (77) where CC
# cannot build with ASan.
set -u
build=$1 cc=$2 source=$3 include=$4 fftw=$5
. "$(dirname "$0")/scratch.sh"
"$cc" -fsanitize=address -I"$include" -o "$tmp/impulse" "$source" "$fftw" -lm 2> "$tmp/cc" || {
  echo "SKIP: $cc cannot build with -fsanitize=address: $(cat "$tmp/cc")"
  exit 77
}
"$tmp/impulse" > "$tmp/out" 2>&1 || fail "plain: exited $?: $(cat "$tmp/out")"
asan=$(ldd "$tmp/impulse" | awk '$1 ~ /^libasan\.so/ {print $3}')
[ -n "$asan" ] || { echo "SKIP: the program does not link libasan dynamically"; exit 77; }
# run WAY [VARIABLE=VALUE...]: the program under gpufftw-run exits 0 with
# its plan in the report and one line of gpufftw-run's saying WHAT.
run() {
  way=$1 what=$2
  shift 2
  env "$@" "$build/gpufftw-run" --report -- "$tmp/impulse" > "$tmp/out" 2>&1
  status=$?
  [ $status = 0 ] || fail "$way: exited $status: $(cat "$tmp/out")"
  grep -q "c2c f64 n=\[64\]" "$tmp/out" || fail "$way: the plan did not go through gpufftw: $(cat "$tmp/out")"
  [ "$(grep -c '^gpufftw-run:' "$tmp/out")" = 1 ] && grep -qF "gpufftw-run: $what" "$tmp/out" ||
    fail "$way: gpufftw-run does not say in one line \"$what\": $(cat "$tmp/out")"
}
run "linked" "$tmp/impulse is built with a sanitizer: preloading its runtime $asan first, before "
run "preloaded" "keeping the sanitizer runtime $asan first in LD_PRELOAD, before " LD_PRELOAD="$asan"
# Another library the user preloaded after it (space-separated, as ld.so
# allows) stays, after gpufftw.
run "preloaded with another" "keeping the sanitizer runtime $asan first in LD_PRELOAD, before " \
  LD_PRELOAD="$asan libm.so.6"
echo PASS
