#!/bin/sh
# report_test.sh BUILD_DIR: gpufftw-run --report on an FFTW MPI program
# (tests/mpi/composed_main.cc, 2 ranks: plans on the real FFTW MPI and
# composed ones, forward and backward, executed through fftw_execute and
# fftw_mpi_execute_dft). Each rank's report is labelled with its rank; it
# lists the real FFTW MPI's plans too, each c2c with its direction and why
# the real FFTW MPI planned it, says a reason steps share once, and counts
# the distributed plans' executes.
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Measured choices go to a cache folder of the run's own, never the user's.
export GPUFFTW_CACHE_DIR=${GPUFFTW_CACHE_DIR:-$tmp/cache}
# Each rank's stderr to a file of its own: the ranks' reports, written at
# the same time, would interleave in one stream.
"$here/mpirun.sh" 2 sh -c 'exec "$@" 2> "$0.${OMPI_COMM_WORLD_RANK:-$PMI_RANK}"' "$tmp/err" \
  "$b/gpufftw-run" --report -- "$b/tests/mpi/mpi_composed" > "$tmp/stdout" 2>&1 || true
cat "$tmp/stdout" "$tmp"/err.* > "$tmp/out" 2>/dev/null
fail() { cat "$tmp/out"; echo "FAIL: $1"; exit 1; }
grep -q "^np 2: PASS" "$tmp/out" || fail "the program did not pass"
for rank in 0 1; do
  grep -q "^gpufftw report, rank $rank of 2: " "$tmp/err.$rank" 2>/dev/null || fail "no report labelled rank $rank of 2"
done
# where plans executes execute-ms plan-ms problem... why: the rows of distributed plans.
rows() { awk -v why="$1" -v dir="$2" 'index($0, why) && index($0, dir) && $1 != "total" { print $3 }' "$tmp/out"; }
# (Plans of one problem share a row, under the latest plan's why.)
for case in "the real FFTW MPI: GPUFFTW_MPI_PATH=real|" "composed over 2 ranks| fwd " "composed over 2 ranks| bwd "; do
  why=${case%%|*}; dir=${case#*|}
  n=$(rows "$why" "$dir" | awk '{ s += $1 } END { print s + 0 }')
  [ "$n" -gt 0 ] || fail "no executes counted for plans '$why'${dir:+ ($dir)}"
  echo "$why${dir:+,$dir}: $n executes"
done
# Every distributed plan's row carries its planner calls' time (plan ms).
awk '/composed over|the real FFTW MPI/ && $1 != "total" && !($5 > 0) { print; exit }' "$tmp/out" > "$tmp/untimed"
[ ! -s "$tmp/untimed" ] || fail "a distributed plan's row without its plan time: $(cat "$tmp/untimed")"
# Every real FFTW MPI plan says why it is not composed.
! grep -E "^  (cpu|gpu) .*(planned by the real FFTW MPI|the real FFTW MPI)$" "$tmp/out" > "$tmp/bare" || fail "a real FFTW MPI plan without its why: $(head -1 "$tmp/bare")"
# A reason is said once in a why, not once per step.
awk '/composed over/ { n = split($0, p, /[()]/); delete seen
  for (i = 2; i <= n; i += 2) { if (p[i] in seen) { print; exit } seen[p[i]] = 1 } }' "$tmp/out" > "$tmp/repeated"
[ ! -s "$tmp/repeated" ] || fail "a reason said twice in one why: $(cat "$tmp/repeated")"
echo PASS
