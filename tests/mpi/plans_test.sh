#!/bin/sh
# plans_test.sh BUILD_DIR: tests/mpi/plans_main.cc on 1 to 4 ranks, on the
# real FFTW MPI alone and through gpufftw (gpufftw-run inside mpirun, which
# must preload the MPI layer for it; drop-in; relink), and gpufftw-run's
# choice: a program without FFTW MPI gets no MPI layer and no libmpi.
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export GPUFFTW_LOG=info
for np in 1 2 3 4; do
  for way in real gpufftw-run dropin relink; do
    case $way in
      real) set -- "$b/tests/mpi/mpi_plans" ;;
      gpufftw-run) set -- "$b/gpufftw-run" -- "$b/tests/mpi/mpi_plans" ;;
      dropin) set -- -x LD_LIBRARY_PATH="$b/dropin" "$b/tests/mpi/mpi_plans" ;;
      relink) set -- "$b/tests/mpi/mpi_plans_relink" ;;
    esac
    "$here/mpirun.sh" "$np" "$@" > "$tmp/out" 2>&1 || true
    n=$(grep -c 'real FFTW MPI double from' "$tmp/out" || true)
    want=$np; [ $way = real ] && want=0
    if ! grep -q "^np $np: PASS" "$tmp/out" || [ "$n" != "$want" ]; then
      cat "$tmp/out"; echo "FAIL: np $np $way (gpufftw MPI log lines: $n, expected $want)"; exit 1
    fi
    thr=$(grep "^np $np: .* threaded" "$tmp/out" || true)
    [ $way = real ] && real_thr=$thr
    if [ -z "$thr" ] || [ "$thr" != "$real_thr" ]; then
      cat "$tmp/out"; echo "FAIL: np $np $way: '$thr', the real FFTW MPI alone: '$real_thr'"; exit 1
    fi
    wis=$(sed -n "s/^np $np: wisdom string \(.*\)/\1/p" "$tmp/out")
    echo "np $np $way: PASS ($thr; wisdom string $wis)"
  done
done
# gpufftw-run outside the launcher: the program among its arguments decides.
"$b/gpufftw-run" -- "$here/mpirun.sh" 2 "$b/tests/mpi/mpi_plans" > "$tmp/out" 2>&1 || true
n=$(grep -c 'real FFTW MPI double from' "$tmp/out" || true)
grep -q "^np 2: PASS" "$tmp/out" && [ "$n" = 2 ] || { cat "$tmp/out"; echo "FAIL: gpufftw-run -- mpirun"; exit 1; }
echo "gpufftw-run -- mpirun -np 2 mpi_plans: PASS, the MPI layer on both ranks"
# One gpufftw plan per MPI planner call (7 a rank), never a plan wrapped
# twice. On the real FFTW MPI alone: under auto a measured planner call
# also plans the composed side and keeps one of the two.
GPUFFTW_MPI_PATH=real "$here/mpirun.sh" 2 -x GPUFFTW_LOG=debug -x GPUFFTW_MPI_PATH "$b/tests/mpi/mpi_plans_relink" \
  > "$tmp/out" 2>&1 || true
n=$(grep -c 'by the real FFTW MPI$' "$tmp/out" || true)
[ "$n" = 14 ] || { grep 'by the real FFTW MPI' "$tmp/out"; echo "FAIL: $n MPI plans wrapped on 2 ranks, expected 14"; exit 1; }
echo "np 2 relink: 14 MPI planner calls, 14 plans wrapped once each"
# gpufftw preloaded alone into an FFTW MPI program: the real FFTW MPI's plans
# would reach gpufftw's fftw_execute unwrapped; gpufftw says so before.
san=$(cat "$b/sanitizer-preload" 2>/dev/null || true)  # a sanitizer build's runtime comes first
"$here/mpirun.sh" 1 -x LD_PRELOAD="${san:+$san:}$b/libgpufftw.so.1" -x GPUFFTW_LOG=warn "$b/tests/mpi/mpi_plans" > "$tmp/out" 2>&1 || true
grep -q 'calls the real FFTW MPI .* directly, not through libgpufftw_mpi' "$tmp/out" \
  || { cat "$tmp/out"; echo "FAIL: no warning for gpufftw preloaded without its MPI layer"; exit 1; }
echo "libgpufftw.so.1 preloaded alone into an FFTW MPI program: warned"
# No MPI for a program that does not use FFTW's MPI interface.
maps=$("$b/gpufftw-run" -- /bin/sh -c 'cat /proc/$$/maps')
echo "$maps" | grep -q 'libgpufftw\.so' || { echo "FAIL: gpufftw-run did not preload gpufftw"; exit 1; }
if echo "$maps" | grep -qE 'libgpufftw_mpi|libmpi'; then echo "FAIL: gpufftw-run loaded MPI into a non-MPI program"; exit 1; fi
echo "gpufftw-run, non-MPI program: libgpufftw preloaded, no libgpufftw_mpi, no libmpi"
echo PASS
