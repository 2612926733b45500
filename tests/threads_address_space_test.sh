#!/bin/sh
# threads_address_space_test.sh BUILD_DIR PROGRAM: tests/hazards/threaded_main.c
# preloaded with gpufftw under ulimit -v, from a limit where it runs down
# in steps of 512 KB to the first at which it fails. Where the worker
# threads that run the real FFTW's threaded jobs find no room for their
# stacks, the program still runs right, its jobs on the calling thread, and
# a warning says so; no limit ends in gpufftw's own abort (an uncaught
# exception).
set -u
build=$1 program=$2
. "$(dirname "$0")/scratch.sh"
limit=65536 warned=0
while [ $limit -gt 0 ]; do
  (ulimit -v $limit && LD_PRELOAD="$build/libgpufftw.so.1" exec timeout 60 "$program") > "$tmp/out" 2>&1
  status=$?
  ! grep -q "terminate called" "$tmp/out" || fail "at $limit KB gpufftw aborted: $(cat "$tmp/out")"
  [ $status = 0 ] || break
  ! grep -q "threads for the real FFTW's threaded plans" "$tmp/out" || warned=1
  limit=$((limit - 512))
done
[ $warned = 1 ] || fail "no limit down to $limit KB ran the jobs on the calling thread: $(cat "$tmp/out")"
echo "runs down to $((limit + 512)) KB; at $limit KB exited $status"
echo PASS
