#!/usr/bin/env bash
# mpi_run.sh [prepare | build | tests | bench [N...] | all [N...]]: the GPU
# machine's run of the distributed (MPI) path, docs/mpi.md.
#
#   prepare  HERE, on a machine with Debian's libfftw3-mpi3 and
#            libfftw3-mpi-dev: copies the real FFTW MPI (libfftw3(f)_mpi.so.3),
#            the serial FFTW it was built with (libfftw3(f)(_threads).so.3)
#            and fftw3-mpi.h into compat/work/fftw-runtime, to be carried to
#            the GPU machine, which has OpenMPI but no FFTW MPI.
#   build    cmake + ninja of what the run needs, in build-gpu (or
#            $GPUFFTW_MPI_BUILD); the real FFTW MPI: the system's, else
#            compat/work/fftw-runtime's (GPUFFTW_FFTW_MPI_DIR points gpufftw
#            at it).
#   tests    GPUFFTW_MODE=gpu, GPUFFTW_MPI_PATH=composed: tests/mpi/composed_test.sh
#            on 1 and 2 ranks (the ranks share the GPU where there is one)
#            and tests/mpi/plans_main.cc (checked against a serial FFTW).
#   bench    c2c f32 N^3 (default: 256 512; $MPI_BENCH_KIND=r2c for the
#            r2c), FFTW_MEASURE ($MPI_BENCH_FLAGS),
#            fftw_malloc arrays, median of executes: the real FFTW MPI on 1
#            rank x all cores' threads and 2 ranks x half; gpufftw's composed
#            plan on 1 and 2 ranks (GPUFFTW_MODE as set, default auto); the
#            same problem through gpufftw serially in one process
#            (bench/fft_bench); a short composed 2-rank run at
#            GPUFFTW_LOG=debug for the per-rank breakdown of an execute.
#            Then the table (bench/mpi_table.py).
#   all      build, tests, bench (the default).
# Build and tests take a few minutes; the 512^3 benchmark with FFTW_MEASURE
# may take several (the real FFTW MPI measures long): on the device tool (10
# minutes a command) run `build`, `tests`, `bench 256` and `bench 512` as
# separate calls. Logs and RESULT lines in $OUT (or /tmp/mpi-run).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${OUT:-/tmp/mpi-run}
build=${GPUFFTW_MPI_BUILD:-$root/build-gpu}
runtime=$root/compat/work/fftw-runtime
rlib=$runtime/usr/lib/x86_64-linux-gnu
mpirun_sh=$root/tests/mpi/mpirun.sh
export PATH="/usr/local/cuda/bin:$PATH"
export NCCL_NVLS_ENABLE=0
mkdir -p "$out"
step=${1:-all}
[ $# -gt 0 ] && shift
sizes=${*:-256 512}

prepare() {
  local lib=/usr/lib/x86_64-linux-gnu
  ls "$lib"/libfftw3_mpi.so.3* "$lib"/libfftw3f_mpi.so.3* /usr/include/fftw3-mpi.h > /dev/null ||
    { echo "prepare: needs libfftw3-mpi3 and libfftw3-mpi-dev here"; exit 1; }
  mkdir -p "$rlib" "$runtime/usr/include"
  # The serial FFTW of the same build beside it: the real FFTW MPI needs its
  # internals, and gpufftw opens it from the same directory.
  cp -a "$lib"/libfftw3{,f}{_mpi,,_threads}.so.3* "$rlib/" && cp /usr/include/fftw3-mpi.h "$runtime/usr/include/"
  echo "prepare: the real FFTW MPI in $runtime; carry compat/work/fftw-runtime to the GPU machine"
}

# The real FFTW MPI: the system's, else the carried copy.
fftw_mpi_dir() {
  local sys
  sys=$(ldconfig -p 2>/dev/null | sed -n 's/^[[:space:]]*libfftw3f_mpi\.so\.3 .*=> //p' | head -n1)
  if [ -n "$sys" ]; then dirname "$sys"; elif [ -e "$rlib/libfftw3f_mpi.so.3" ]; then echo "$rlib"; fi
}

do_build() {
  local targets="gpufftw gpufftw_mpi dropin dropin_mpi mpi_composed mpi_composed_relink mpi_plans_relink mpi_fft_bench fft_bench"
  if ! { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
           ${GPUFFTW_CUDA_ARCH:+-DCMAKE_CUDA_ARCHITECTURES=$GPUFFTW_CUDA_ARCH} &&
         cmake --build "$build" -j "$(nproc)" --target $targets; } > "$out/build.log" 2>&1; then
    tail -30 "$out/build.log"; echo "BUILD FAILED (log: $out/build.log)"; exit 1
  fi
  grep -q '^GPUFFTW_CUDA_ENGINE:INTERNAL=ON' "$build/CMakeCache.txt" ||
    echo "note: built without CUDA (no nvcc?): the local transforms will run on the real FFTW"
  echo "build: $build"
}

do_tests() {
  local np status=0
  export GPUFFTW_MODE=gpu GPUFFTW_MPI_PATH=composed
  if COMPOSED_NP="1 2" "$root/tests/mpi/composed_test.sh" "$build" > "$out/composed_test.log" 2>&1; then
    sed 's/^/tests: /' "$out/composed_test.log"
  else
    tail -40 "$out/composed_test.log"; echo "tests: composed_test FAIL"; status=1
  fi
  for np in 1 2; do
    "$mpirun_sh" "$np" "$build/tests/mpi/mpi_plans_relink" > "$out/plans_np$np.log" 2>&1
    if grep -q "^np $np: PASS" "$out/plans_np$np.log"; then echo "tests: plans_main np $np: PASS"
    else tail -20 "$out/plans_np$np.log"; echo "tests: plans_main np $np: FAIL"; status=1; fi
  done
  unset GPUFFTW_MODE GPUFFTW_MPI_PATH
  return $status
}

# One benchmark run: LABEL NP THREADS PROBLEM [mpirun args before the program...] -- PROGRAM...
bench_one() {
  local label=$1 np=$2 threads=$3 problem=$4 line
  shift 4
  "$mpirun_sh" "$np" --bind-to none "$@" --threads "$threads" --flags "${MPI_BENCH_FLAGS:-measure}" "$problem" \
    > "$out/bench-$label-$problem.log" 2>&1
  line=$(grep '^RESULT' "$out/bench-$label-$problem.log" | tail -n1)
  [ -n "$line" ] || { line="RESULT $problem FAILED"; tail -5 "$out/bench-$label-$problem.log"; }
  echo "ROW $label np=$np threads=$threads $line" | tee -a "$out/bench.txt"
}

# The composed plan on 2 ranks once more, briefly, at GPUFFTW_LOG=debug:
# each rank logs where each execute's time went (step 1, the wait for the
# other rank, MPI_Alltoallw, the copy of its own part, step 3, the way back). A
# run of its own, since the debug timing adds a barrier before each
# exchange; the last execute's lines are printed, the whole log is in $out.
composed_breakdown() {  # THREADS PROBLEM
  local log="$out/bench-gpufftw-composed-debug-$2.log"
  "$mpirun_sh" 2 --bind-to none -x GPUFFTW_MPI_PATH=composed -x GPUFFTW_LOG=debug "$build/gpufftw-run" -- \
    "$build/bench/mpi_fft_bench" --threads "$1" --flags "${MPI_BENCH_FLAGS:-measure}" --seconds 1 "$2" > "$log" 2>&1
  grep 'composed execute' "$log" | tail -n2 | sed "s/^/breakdown $2: /"
}

do_bench() {
  local cores half n p line
  cores=$(nproc); half=$(( cores / 2 > 0 ? cores / 2 : 1 ))
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/device.txt" 2>&1
  for n in $sizes; do
    p=${MPI_BENCH_KIND:-c2c}-f32-${n}x${n}x${n}
    bench_one real-fftw-mpi 1 "$cores" "$p" "$build/bench/mpi_fft_bench"
    bench_one real-fftw-mpi 2 "$half" "$p" "$build/bench/mpi_fft_bench"
    bench_one gpufftw-composed 1 "$cores" "$p" -x GPUFFTW_MPI_PATH=composed "$build/gpufftw-run" -- "$build/bench/mpi_fft_bench"
    bench_one gpufftw-composed 2 "$half" "$p" -x GPUFFTW_MPI_PATH=composed "$build/gpufftw-run" -- "$build/bench/mpi_fft_bench"
    composed_breakdown "$half" "$p"
    "$build/gpufftw-run" -- "$build/bench/fft_bench" --alloc fftw --threads "$cores" \
      --flags "${MPI_BENCH_FLAGS:-measure}" "$p" > "$out/bench-serial-$p.log" 2>&1
    line=$(grep '^RESULT' "$out/bench-serial-$p.log" | tail -n1)
    echo "ROW gpufftw-serial np=0 threads=$cores ${line:-RESULT $p FAILED}" | tee -a "$out/bench.txt"
  done
  python3 "$root/bench/mpi_table.py" "$out/bench.txt" "${MPI_BENCH_FLAGS:-measure}" | tee "$out/table.md"
}

if [ "$step" = prepare ]; then prepare; exit 0; fi
GPUFFTW_FFTW_MPI_DIR=$(fftw_mpi_dir)
[ -n "$GPUFFTW_FFTW_MPI_DIR" ] || { echo "no real FFTW MPI here nor in $rlib: run '$0 prepare' where it is, carry compat/work/fftw-runtime"; exit 1; }
export GPUFFTW_FFTW_MPI_DIR
echo "real FFTW MPI: $GPUFFTW_FFTW_MPI_DIR"
case $step in
  build) do_build ;;
  tests) do_tests ;;
  bench) do_bench ;;
  all) do_build && { do_tests; do_bench; } ;;
  *) echo "usage: $0 [prepare | build | tests | bench [N...] | all [N...]]" >&2; exit 2 ;;
esac
