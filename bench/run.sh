#!/usr/bin/env bash
# bench/run.sh [BUILD_DIR]: the side-by-side benchmark on the GPU machine.
# Measures, in one run, the PCIe rates (the floor) and the median
# fftw(f)_execute time on host arrays of the standard set through: the real
# FFTW (FFTW_MEASURE, all cores), NVIDIA's cuFFTW with its own fftwf_malloc
# arrays and with arrays pinned by hand, and gpufftw with fftw_malloc and
# with plain malloc arrays; prints the table (bench/table.py) last. With
# GPUFFTW_BENCH_BASELINE (another revision's libgpufftw.so.1, from
# bench/baseline.sh), that library too, each run right after this one's, and
# a second table of this build against it. GPUFFTW_BENCH_PEERS (default
# "fftw cufftw") names the peers to measure; empty leaves them out, as a
# comparison of two revisions needs neither.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
results=$out/results.txt
cufftw=$(ls /usr/local/cuda/lib64/libcufftw.so.* 2>/dev/null | head -n1)
problems=${GPUFFTW_BENCH_PROBLEMS:-"c2c-f32-16777216 c2c-f32-4096-b4096 c2c-f32-1000-b16384 c2c-f32-1009-b16384 \
c2c-f32-4096x4096 c2c-f32-256x256x256 c2c-f32-512x512x512 r2c-f32-512x512x512 c2c-f64-256x256x256 c2c-f64-16777216"}
cores=$(nproc)

: > "$results"
"$build/bench/pcie_rates" | tee -a "$results"
peers=${GPUFFTW_BENCH_PEERS-fftw cufftw}
case " $peers " in *" fftw "*) run fftw -- --threads "$cores" --timelimit 30 ;; esac
case " $peers " in *" cufftw "*)
  run cufftw_own LD_PRELOAD="$cufftw" -- --alloc fftw
  run cufftw_pinned LD_PRELOAD="$cufftw" -- --alloc pinned ;;
esac
baseline=${GPUFFTW_BENCH_BASELINE:-}
run gpufftw_fftw_malloc LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_REPORT=1 -- --alloc fftw
[ -z "$baseline" ] || run baseline_fftw_malloc LD_PRELOAD="$baseline" GPUFFTW_REPORT=1 -- --alloc fftw
run gpufftw_malloc LD_PRELOAD="$build/libgpufftw.so.1" GPUFFTW_REPORT=1 -- --alloc malloc
[ -z "$baseline" ] || run baseline_malloc LD_PRELOAD="$baseline" GPUFFTW_REPORT=1 -- --alloc malloc
"$build/bench/pcie_rates" | sed 's/^PCIE/PCIE_AFTER/' | tee -a "$results"
python3 "$here/table.py" "$results" | tee "$out/table.md"
