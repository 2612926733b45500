#!/bin/sh
# size_one_test.sh BUILD_DIR: tests/mpi/size_one_main.cc (distributed DFTs
# with a dimension of 1 under every transposed flag, against the serial
# DFT) relinked on 1 to 4 ranks under each GPUFFTW_MPI_PATH, and on 2 ranks
# through gpufftw-run and the drop-in folder. First the program runs on the
# real FFTW MPI alone, to show what it gets wrong there (not a failure of
# gpufftw's; gpufftw must be right on every one).
set -eu
b=$1; here=$(cd "$(dirname "$0")" && pwd); tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$here/mpirun.sh" 1 "$b/tests/mpi/mpi_size_one" > "$tmp/out" 2>&1 || true
crashed=; grep -q "signal" "$tmp/out" && crashed=", then crashed"
echo "the real FFTW MPI alone, np 1: $(grep -c FAILED "$tmp/out" || true) wrong or refused$crashed"
grep FAILED "$tmp/out" | sed 's/^/  /' | head -20
run() {  # NP WAY PATH
  np=$1; way=$2; path=$3
  case $way in
    relink) set -- "$b/tests/mpi/mpi_size_one_relink" ;;
    gpufftw-run) set -- "$b/gpufftw-run" -- "$b/tests/mpi/mpi_size_one" ;;
    dropin) set -- -x LD_LIBRARY_PATH="$b/dropin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$b/tests/mpi/mpi_size_one" ;;
  esac
  GPUFFTW_MPI_PATH=$path "$here/mpirun.sh" "$np" -x GPUFFTW_MPI_PATH "$@" > "$tmp/out" 2>&1 || true
  if ! grep -q "^np $np: PASS" "$tmp/out"; then cat "$tmp/out"; echo "FAIL: np $np $way GPUFFTW_MPI_PATH=$path"; exit 1; fi
  echo "np $np $way GPUFFTW_MPI_PATH=$path: $(grep "^np $np: .* checked" "$tmp/out" | sed "s/^np $np: //")"
}
for np in ${SIZE_ONE_NP:-1 2 3 4}; do
  for path in auto real composed; do run "$np" relink "$path"; done
done
for way in gpufftw-run dropin; do run 2 $way auto; done
echo PASS
