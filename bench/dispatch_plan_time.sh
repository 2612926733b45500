#!/usr/bin/env bash
# bench/dispatch_plan_time.sh [BUILD_DIR]: dispatch's planning-time target:
# under FFTW_MEASURE, gpufftw's plan time for the standard set
# (bench/run.sh's default list) is at most the real FFTW's own MEASURE
# planning time. Runs bench/dispatch_sweep.sh over that
# set, --flags measure, in two configurations: auto (gpufftw's own choice,
# after the calibration step, in a fresh cache folder) and then fftw (the
# real FFTW alone), both --threads $(nproc), and prints per problem the plan
# time of each and their ratio (dispatch_table.py --plan-time).
#
# No --timelimit by default: the target is FFTW's own MEASURE time, not a
# limited one. The real FFTW's MEASURE of the set's biggest problems takes
# tens of seconds each (docs/results/single-gpu.md has the times), auto less if
# the target holds. GPUFFTW_PLAN_TIMELIMIT=S gives both configurations the
# same fftw_set_timelimit(S) where a run must be shorter; the table's
# header shows it.
# The whole run holds itself to GPUFFTW_SWEEP_BUDGET seconds (default 480,
# auto given half, fftw what is left); a configuration out of time loses
# its remaining problems (MISSING).
#
# cuFFT's kernels are built first (GPUFFTW_SWEEP_WARM=1 unless set): on a
# fresh machine cuFFT's first plan of a kind builds its kernels, once per
# machine as gpufftw's calibration is (bench/first_plan_time.sh;
# docs/dispatch-sweep.md, "cuFFT's first plans").
#
# Output in $OUT (default /tmp/dispatch-plan-time): plan-time-measure.txt,
# .err, .md and dispatch-plan-time-measure.txt (gpufftw's store).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
standard="c2c-f32-16777216 c2c-f32-4096-b4096 c2c-f32-1000-b16384 c2c-f32-1009-b16384 c2c-f32-4096x4096 \
c2c-f32-256x256x256 c2c-f32-512x512x512 r2c-f32-512x512x512 c2c-f64-256x256x256 c2c-f64-16777216"
OUT=${OUT:-/tmp/dispatch-plan-time} \
  GPUFFTW_SWEEP_WARM=${GPUFFTW_SWEEP_WARM:-1} \
  GPUFFTW_SWEEP_POINTS=${GPUFFTW_BENCH_PROBLEMS:-$standard} \
  GPUFFTW_SWEEP_CONFIGS="auto fftw" \
  GPUFFTW_SWEEP_TIMELIMIT=${GPUFFTW_PLAN_TIMELIMIT:-none} \
  GPUFFTW_SWEEP_NAME=plan-time \
  GPUFFTW_SWEEP_TABLE_ARGS=--plan-time \
  exec "$here/dispatch_sweep.sh" "${1:-$here/../build}" measure
