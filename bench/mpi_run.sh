#!/usr/bin/env bash
# mpi_run.sh [prepare | build | tests | check | bench [PROBLEM...] | all [PROBLEM...]]:
# the GPU machine's run of the distributed (MPI) path, docs/mpi.md.
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
#   tests    GPUFFTW_MODE=gpu: tests/mpi/composed_test.sh on 1 to 4 ranks
#            (GPUFFTW_MPI_PATH=composed; past the GPU count ranks share GPUs),
#            again on 2 with GPUFFTW_MPI_EXCHANGE=host, tests/mpi/size_one_test.sh
#            on 1 to 4, and tests/mpi/plans_main.cc.
#   check    FFTW's own check.pl --mpi (compat/run-check.sh --quick) on 1 to
#            4 ranks with GPUFFTW_MODE=gpu, in the three ways in (preload,
#            relink, drop-in), then on 2 ranks again with
#            GPUFFTW_MPI_EXCHANGE=host. Needs what compat/run-check.sh made
#            here: compat/work/bench and compat/work/fftw3-3.3.10/tests,
#            carried, and the build in <repo>/build (the relinked mpi-bench
#            finds libgpufftw there): GPUFFTW_MPI_BUILD=$PWD/build.
#   bench    each PROBLEM (mpi_fft_bench's names; default c2c-f32-512x512x512,
#            c2c-f32-1024x1024x1024 and r2c-f32-1024x1024x1024), FFTW_MEASURE
#            ($MPI_BENCH_FLAGS), fftw_malloc arrays, median of executes,
#            every column from this one run: the links' rates with the first
#            1, 2, 4 ... GPUs copying at once (bench/link_rates: each rank
#            count's floor), gpufftw's composed plan on 1, 2, 4 ... ranks up
#            to one per GPU, $MPI_BENCH_ROUNDS times each (default 3; the
#            table takes the median), on one rank per GPU also with
#            FFTW_MPI_TRANSPOSED_OUT, the
#            same problem through gpufftw in one process on every GPU
#            (bench/fft_bench), and a short run at GPUFFTW_LOG=debug for the
#            per-rank breakdown of an execute. The real FFTW MPI on one rank
#            per GPU x its share of the cores for the problems named in
#            $MPI_BENCH_REAL (its planner bounded to $MPI_BENCH_REAL_TIMELIMIT
#            seconds where set: fftw_set_timelimit), the host route (GPUFFTW_MPI_EXCHANGE=host) for
#            those in $MPI_BENCH_HOST. Then the table (bench/mpi_table.py).
#   all      build, tests, bench (the default).
# NCCL_NVLS_ENABLE=0 throughout (NVLink multicast stays off). Where a
# command's time is bounded, run build, check and tests in one command and
# bench in others: the real FFTW MPI plans for minutes at 512^3 and up
# without MPI_BENCH_REAL_TIMELIMIT. Logs and RESULT lines in $OUT (or
# /tmp/mpi-run).
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
problems=${*:-c2c-f32-512x512x512 c2c-f32-1024x1024x1024 r2c-f32-1024x1024x1024}
# Names this call's rows in bench.txt, which gathers every call: the table
# takes each run kind's rounds from the latest call that ran it.
call=$(date +%s)-$$

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
  # Without the header CMake builds no MPI library (compat/fetch-fftw-source.sh
  # rebuilds the runtime folder without it): say so rather than fail later.
  [ -e /usr/include/fftw3-mpi.h ] || [ -e "$runtime/usr/include/fftw3-mpi.h" ] ||
    { echo "no fftw3-mpi.h here nor in $runtime/usr/include: run '$0 prepare' where it is, and carry that folder"; exit 1; }
  local targets="gpufftw gpufftw_mpi dropin dropin_mpi mpi_composed mpi_composed_relink mpi_plans_relink mpi_size_one
    mpi_size_one_relink mpi_fft_bench fft_bench link_rates"
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
  local np status=0 gpus
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  export GPUFFTW_MODE=gpu GPUFFTW_MPI_PATH=composed
  # name LOG COMMAND...: a test script's lines, or its tail and FAIL.
  check() {
    local name=$1 log=$2; shift 2
    if "$@" > "$log" 2>&1; then sed "s/^/tests: $name: /" "$log"
    else tail -40 "$log"; echo "tests: $name FAIL"; status=1; fi
  }
  check composed "$out/composed_test.log" env COMPOSED_NP="${COMPOSED_NP:-1 2 3 4}" "$root/tests/mpi/composed_test.sh" "$build"
  # One rank per GPU: every composed plan of a rank with its GPU exchanges through NCCL.
  grep -q "^np $gpus relink: .* [1-9][0-9]* exchanging through NCCL" "$out/composed_test.log" ||
    { echo "tests: composed np $gpus: no plan exchanged through NCCL"; status=1; }
  check composed-host "$out/composed_host.log" env COMPOSED_NP=2 GPUFFTW_MPI_EXCHANGE=host \
    "$root/tests/mpi/composed_test.sh" "$build"
  grep -q " 0 exchanging through NCCL" "$out/composed_host.log" ||
    { echo "tests: GPUFFTW_MPI_EXCHANGE=host still exchanged through NCCL"; status=1; }
  unset GPUFFTW_MPI_PATH
  check size-one "$out/size_one.log" "$root/tests/mpi/size_one_test.sh" "$build"
  export GPUFFTW_MPI_PATH=composed
  for np in 1 2; do
    "$mpirun_sh" "$np" "$build/tests/mpi/mpi_plans_relink" > "$out/plans_np$np.log" 2>&1
    if grep -q "^np $np: PASS" "$out/plans_np$np.log"; then echo "tests: plans_main np $np: PASS"
    else tail -20 "$out/plans_np$np.log"; echo "tests: plans_main np $np: FAIL"; status=1; fi
  done
  unset GPUFFTW_MODE GPUFFTW_MPI_PATH
  return $status
}

do_check() {
  local work=$root/compat/work status=0 line
  [ -x "$work/bench/single/mpi-bench-relink" ] && [ -f "$work/fftw3-3.3.10/tests/check.pl" ] ||
    { echo "check: no mpi-bench or check.pl: run compat/run-check.sh where FFTW MPI is, carry compat/work/bench and compat/work/fftw3-3.3.10/tests"; return 1; }
  [ "$build" = "$root/build" ] || { echo "check: the relinked mpi-bench finds libgpufftw in $root/build: set GPUFFTW_MPI_BUILD=$root/build"; return 1; }
  # The serial FFTW and FFTW MPI that mpi-bench-system was linked with.
  export GPUFFTW_MODE=gpu LD_LIBRARY_PATH=$GPUFFTW_FFTW_MPI_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  # name EXTRA-ENV CONFIGS: one run-check.sh over the three ways in and both
  # precisions, then how many 2-rank plan lines (every rank's, every way in)
  # name NCCL as their exchange.
  one_check() {
    if env $2 GPUFFTW_BUILD="$build" "$root/compat/run-check.sh" --quick --no-build --modes "preload relink dropin" \
         --precisions "double single" --configs "$3" > "$out/check-$1.log" 2>&1; then line=PASS; else line=FAIL; status=1; fi
    sed -n '/^=== FFTW/,$p' "$out/check-$1.log" | sed "s/^/check $1: /"
    echo "check $1: $line; 2-rank plan lines exchanging GPU to GPU (NCCL): $(cat "$work"/runs/*/*/mpi2/check.log | grep -c '(NCCL)')"
  }
  one_check nccl "" "mpi1 mpi2 mpi3 mpi4"
  one_check host GPUFFTW_MPI_EXCHANGE=host "mpi2"
  unset GPUFFTW_MODE
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
  echo "ROW $label np=$np threads=$threads call=$call $line" | tee -a "$out/bench.txt"
}

# The composed plan once more, briefly, at GPUFFTW_LOG=debug: each rank
# logs where each execute's time went (device-resident route: in and step
# 1, the exchange, step 3 with the way back and out; host route: each step,
# the wait for the other ranks, MPI_Alltoallw, the copy of its own part). A
# run of its own, since the host route's debug timing adds a barrier before
# each exchange; the last execute's lines are printed, the whole log is in $out.
composed_breakdown() {  # NP THREADS PROBLEM
  local log="$out/bench-gpufftw-composed-debug-$3.log"
  "$mpirun_sh" "$1" --bind-to none -x GPUFFTW_LOG=debug "$build/gpufftw-run" -- \
    "$build/bench/mpi_fft_bench" --threads "$2" --flags "${MPI_BENCH_FLAGS:-measure}" --seconds 1 "$3" > "$log" 2>&1
  grep 'composed execute' "$log" | tail -n "$1" | sed "s/^/breakdown $3: /"
}

# Whether problem $1 is one of the words of $2.
listed() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

do_bench() {
  local cores gpus share p line np r ranks=""
  cores=$(nproc)
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU'); [ "$gpus" -gt 0 ] || gpus=1
  share=$(( cores / gpus > 0 ? cores / gpus : 1 ))
  # 1, 2, 4 ... ranks below the GPU count, then one per GPU: the counts
  # bench/link_rates measures the links of.
  for ((np = 1; np < gpus; np *= 2)); do ranks="$ranks $np"; done
  ranks="$ranks $gpus"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/device.txt" 2>&1
  "$build/bench/link_rates" | tee -a "$out/bench.txt"
  for p in $problems; do
    for r in $(seq "${MPI_BENCH_ROUNDS:-3}"); do
      for np in $ranks; do
        bench_one gpufftw-composed "$np" $(( cores / np > 0 ? cores / np : 1 )) "$p" "$build/gpufftw-run" -- \
          "$build/bench/mpi_fft_bench"
      done
    done
    bench_one gpufftw-composed-transposed-out "$gpus" "$share" "$p" "$build/gpufftw-run" -- \
      "$build/bench/mpi_fft_bench" --transposed-out
    if listed "$p" "${MPI_BENCH_HOST:-}"; then
      bench_one gpufftw-composed-host "$gpus" "$share" "$p" -x GPUFFTW_MPI_EXCHANGE=host "$build/gpufftw-run" -- \
        "$build/bench/mpi_fft_bench"
    fi
    if listed "$p" "${MPI_BENCH_REAL:-}"; then
      bench_one real-fftw-mpi "$gpus" "$share" "$p" "$build/bench/mpi_fft_bench" \
        ${MPI_BENCH_REAL_TIMELIMIT:+--timelimit "$MPI_BENCH_REAL_TIMELIMIT"}
    fi
    composed_breakdown "$gpus" "$share" "$p"
    "$build/gpufftw-run" -- "$build/bench/fft_bench" --alloc fftw --threads "$cores" \
      --flags "${MPI_BENCH_FLAGS:-measure}" "$p" > "$out/bench-serial-$p.log" 2>&1
    line=$(grep '^RESULT' "$out/bench-serial-$p.log" | tail -n1)
    echo "ROW gpufftw-serial np=0 threads=$cores call=$call ${line:-RESULT $p FAILED}" | tee -a "$out/bench.txt"
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
  check) do_check ;;
  bench) do_bench ;;
  all) do_build && { do_tests; do_bench; } ;;
  *) echo "usage: $0 [prepare | build | tests | check | bench [N...] | all [N...]]" >&2; exit 2 ;;
esac
