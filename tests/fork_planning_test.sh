#!/bin/sh
# fork_planning_test.sh BUILD_DIR PROGRAM [MODE...]: tests/hazards/fork_planning_main.c
# under preload and through the drop-in folder: children forked while
# another thread plans, and after a threaded plan ran (with and without
# fftw_cleanup_threads before the fork), plan and execute right, where a
# lock held at the fork or a pool whose workers stayed in the parent
# would hang them. The modes (all but inherited where none is named)
# run with the environment the test was given (GPUFFTW_MODE=gpu for the
# GPU's case).
set -u
build=$1 program=$2
shift 2
. "$(dirname "$0")/scratch.sh"
for mode in ${*:-planning threads cleanup}; do
  exits_0 "preload, $mode" GPUFFTW_REPORT=1 "$build/gpufftw-run" -- "$program" "$mode"
  grep -q "^fork_planning $mode: right" "$tmp/out" || fail "preload, $mode: no result: $(cat "$tmp/out")"
  if [ "$mode" = inherited ]; then
    if grep -q "no GPU can be used" "$tmp/out"; then
      echo "SKIP: no GPU here: $(grep "no GPU can be used" "$tmp/out")"
      exit 77
    fi
    grep -q "^  gpu " "$tmp/out" || fail "inherited: the parent's plan did not run on the GPU: $(cat "$tmp/out")"
  fi
  exits_0 "drop-in, $mode" LD_LIBRARY_PATH="$build/dropin" "$program" "$mode"
  grep -q "^fork_planning $mode: right" "$tmp/out" || fail "drop-in, $mode: no result: $(cat "$tmp/out")"
done
echo PASS
