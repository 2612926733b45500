#!/bin/sh
# compare_no_threads_test.sh TEST FFTW_LIBDIR: the comparison mode's
# threads executing at once (TEST: gpufftw_compare_test) where the real
# FFTW has no threads library, as FFTW built without --enable-threads:
# the reference plans are made and destroyed under the planner's lock,
# the real planner shared by no two threads at once.
set -u
. "$(dirname "$0")/scratch.sh"
for lib in libfftw3 libfftw3f libfftw3l; do
  cp -L "$2/$lib.so.3" "$tmp/" || fail "no $2/$lib.so.3"
done
GPUFFTW_FFTW_DIR=$tmp GPUFFTW_COMPARE=1 "$1" > "$tmp/out" 2>&1 || fail "exited $?: $(tail -20 "$tmp/out")"
grep -q "no libfftw3_threads.so.3 beside" "$tmp/out" || fail "the threads library was found: $(head -5 "$tmp/out")"
echo PASS
