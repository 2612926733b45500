#!/bin/sh
# mpi_dlopen_test.sh BUILD_DIR: an FFTW MPI program that opens
# libfftw3f_mpi.so.3 itself, on 2 ranks, plain, through gpufftw-run (which
# sees no FFTW MPI in its links: gpufftw loads its MPI layer when the
# program looks the first MPI function up) and through the drop-in folder.
set -u
b=$1 here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scratch.sh"
export GPUFFTW_CACHE_DIR="$tmp/cache"
prog=$b/tests/mpi/mpi_dlopen_client
for way in plain gpufftw-run dropin; do
  case $way in
    plain) set -- "$prog" ;;
    gpufftw-run) set -- "$b/gpufftw-run" --report -- "$prog" ;;
    dropin) set -- -x LD_LIBRARY_PATH="$b/dropin" -x GPUFFTW_REPORT=1 "$prog" ;;
  esac
  "$here/../mpi/mpirun.sh" 2 "$@" > "$tmp/out" 2>&1 || { cat "$tmp/out"; fail "$way: exit $?"; }
  [ "$(grep -c "^rank [01]: err" "$tmp/out")" = 2 ] || { cat "$tmp/out"; fail "$way: not two ranks' results"; }
  if [ $way != plain ]; then
    [ "$(grep -c "c2c f32 n=\[16x12\]" "$tmp/out")" = 2 ] || { cat "$tmp/out"; fail "$way: no MPI plan reached gpufftw"; }
  fi
  echo "$way: $(grep "^rank" "$tmp/out" | tr '\n' ' ')"
done
echo PASS
