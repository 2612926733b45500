#!/bin/sh
# address_space_test.sh BUILD_DIR PROGRAM BUDGET_KB: gpufftw's fixed cost in
# address space (ulimit -v), preloaded and through the drop-in folder. For
# each way, the lowest limit at which PROGRAM (tests/hazards/impulse_main.c,
# 64 points) runs right is found by bisection; it may exceed plain FFTW's
# by BUDGET_KB at most (docs/how-it-works.md, "Address space"). Below that
# limit memory runs out: the run may fail as FFTW does (a NULL from
# fftw_malloc or a NULL plan) or as the loader does, never by a signal.
set -u
build=$1 program=$2 budget=$3
. "$(dirname "$0")/scratch.sh"
# status WAY LIMIT: PROGRAM's exit status under ulimit -v LIMIT.
status() {
  case $1 in
    plain) (ulimit -v "$2" && exec "$program") > "$tmp/out" 2>&1 ;;
    preload) (ulimit -v "$2" && LD_PRELOAD="$build/libgpufftw.so.1" exec "$program") > "$tmp/out" 2>&1 ;;
    drop-in) (ulimit -v "$2" && LD_LIBRARY_PATH="$build/dropin" exec "$program") > "$tmp/out" 2>&1 ;;
  esac
  echo $?
}
# lowest WAY: the lowest limit (KB, to 64) at which PROGRAM exits 0.
lowest() {
  lo=1024 hi=262144
  [ "$(status "$1" $hi)" = 0 ] || fail "$1: fails at $hi KB: $(cat "$tmp/out")"
  while [ $((hi - lo)) -gt 64 ]; do
    mid=$(((lo + hi) / 2))
    if [ "$(status "$1" $mid)" = 0 ]; then hi=$mid; else lo=$mid; fi
  done
  echo $hi
}
plain=$(lowest plain)
for way in preload drop-in; do
  least=$(lowest $way)
  echo "$way: runs from $least KB, plain FFTW from $plain KB: gpufftw's fixed cost $((least - plain)) KB (budget $budget KB)"
  [ $((least - plain)) -le "$budget" ] || fail "$way: gpufftw needs $((least - plain)) KB more than plain FFTW, over the budget of $budget KB"
  limit=$((least - 64))
  while [ $limit -ge $((least - 4096)) ]; do
    s=$(status $way $limit)
    case $s in
      0|3|4|127) ;;
      *) fail "$way: at $limit KB exited $s (a signal, not a NULL): $(cat "$tmp/out")" ;;
    esac
    limit=$((limit - 64))
  done
done
echo PASS
