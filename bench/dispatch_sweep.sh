#!/usr/bin/env bash
# bench/dispatch_sweep.sh [BUILD_DIR] [estimate|measure]: the dispatch sweep.
# Times every point of the sweep (below) with bench/fft_bench in three
# configurations, each one process, one after the other:
#   fftw  the real FFTW alone (no preload), --threads T
#   gpu   the GPU alone: LD_PRELOAD=libgpufftw.so.1 GPUFFTW_MODE=gpu
#   auto  gpufftw's own choice: LD_PRELOAD=libgpufftw.so.1, GPUFFTW_MODE
#         and GPUFFTW_MEASURE unset (auto), --threads T
# all with the same --flags, --alloc fftw, --seconds and --timelimit; then
# prints bench/dispatch_table.py's summary (time(auto) / min(fftw, gpu)).
#
# Points (286 by default, sorted by total size so that a time-out loses the
# biggest): c2c and r2c, f32 and f64,
#   1-D n = 2^4, 2^6, ..., 2^24 x batch 1, 4, ..., 4^7 = 16384, n*batch <= 2^24
#   2-D and 3-D n^2, n^3 for n = 16, 32, 64, 128, 256, 512, batch 1
#       (3-D 512^3 in f32 only: 4 GiB of arrays and seconds a point in f64)
#
# FFTW_MEASURE planning: the real FFTW alone needs seconds to tens of
# seconds for a big single transform (21-31 s for 1-D 2^24 on 16 threads),
# far beyond the budget, so every configuration passes --timelimit
# (fftw_set_timelimit, default 1 s): FFTW plans with FFTW_ESTIMATE first and
# keeps the estimated plan where measuring runs past the limit. fftw and
# auto get the very same limit, so where auto runs the real FFTW it runs
# the same planner; the points it affects are the big ones, where the GPU
# is several times faster anyway. Planning time against FFTW's own,
# unlimited, is bench/dispatch_plan_time.sh's subject.
#
# Dispatch store: gpufftw keeps its calibrated rates and the choices it
# measured (FFTW_MEASURE) in $GPUFFTW_CACHE_DIR/dispatch.txt and recalls a
# choice at any later plan, FFTW_ESTIMATE included. So that a run measures
# what a first run on the machine would, the preloaded configurations get
# a fresh, empty cache folder (GPUFFTW_SWEEP_CACHE_DIR names one to keep or
# reuse instead), and before them three short processes, "calibrate",
# each plan three problems (none of the sweep's) under auto with
# FFTW_ESTIMATE (which stores no choice) and the same --threads: one of
# 2^24 points that goes to the GPU, then two of 64000 points that stay on
# the CPU. In the first gpufftw calibrates the GPU and the CPU in f32 and
# f64 and saves the rates, in the second it checks them (the GPU's table
# at the first plan after CUDA started) and reads a table again where a
# slow spell of the host read it, in the third it checks again the tables
# the second read slower than stored (the second was in a slow spell: a
# check of f64 at one thread so left to the sweep's first process read
# that table again in an FFTW_ESTIMATE plan of 1.3 s),
# so that auto's plan times are those "after calibration" (CALIBRATE lines
# hold the step's plan times: a check's 15-25 ms a CPU table and 80-130 ms
# the GPU's, 1-3 s where one is read again). The store comes back as
# dispatch-sweep-FLAGS.txt. GPUFFTW_SWEEP_CALIBRATE=0 leaves the step out.
#
# Budget: so that a sweep ends by a known time, the script holds
# itself to GPUFFTW_SWEEP_BUDGET seconds (default 480) for all of its
# configurations, shared out as they start (weights fftw 4, gpu 2, auto 4 of
# what is left); a configuration that runs out is stopped (its points done
# so far are kept, the rest listed as MISSING). A configuration that
# crashes is restarted after the point it died on (listed as CRASH), at
# most 3 times.
#
# Settings (environment):
#   OUT                       results folder (default /tmp/dispatch-sweep)
#   GPUFFTW_SWEEP_POINTS      the points, space-separated (default: the sweep)
#   GPUFFTW_SWEEP_THREADS     --threads for fftw and auto (default: nproc)
#   GPUFFTW_SWEEP_SECONDS     --seconds per point (default 0.05; at least 5
#                             samples are taken however long they take)
#   GPUFFTW_SWEEP_TIMELIMIT   --timelimit in seconds (default 1; none: no limit)
#   GPUFFTW_SWEEP_CONFIGS     which configurations, in that order (default
#                             "fftw gpu auto"); runs of some of them, in
#                             separate calls, join in dispatch_table.py when
#                             it is given all the files. Two more may be
#                             named, for information (neither is part of
#                             the target's minimum): fftw1, the real FFTW on
#                             one thread (the table says where it beats
#                             auto), and fftw2, fftw once more (the table
#                             says how often fftw is within 1.10x of
#                             itself: the noise floor of the target); and
#                             interleaved: auto, gpu and cpu (the real
#                             FFTW's plans through GPUFFTW_MODE=cpu) planned
#                             in one gpufftw process and timed one sample
#                             of each in turn, so that drift falls on all
#                             three alike, and cpu once more (as fftw2);
#                             summarised apart, as flags FLAGS/interleaved
#   GPUFFTW_SWEEP_BUDGET      seconds for the whole script (default 480)
#   GPUFFTW_SWEEP_ROUNDS      slices of the points, each run by every
#                             configuration before the next (default 1)
#   GPUFFTW_SWEEP_PASSES      times the whole sweep (all its rounds) runs,
#                             one pass after the other on the same store
#                             (default 1); dispatch_table.py summarises each
#                             pass, then all together with each
#                             configuration's time the least of its passes'
#                             medians: a slow spell of the host slows what it
#                             falls on for a minute or more (3-8x on the real
#                             FFTW at 16 threads, over a third of the points
#                             of one sweep), which a
#                             second pass minutes later does not share. From
#                             the second pass on, auto plans a problem for
#                             the second time: FFTW_MEASURE recalls its
#                             stored choice, so pass 1's plan times are the
#                             first plan's; and each process of a later
#                             pass imports the real FFTW's wisdom that the
#                             process of the same round exported in pass 1
#                             (fft_bench --wisdom-in/out), so that it times
#                             the same plans again (FFTW_MEASURE's planning
#                             left aside, two passes of FFTW_MEASURE fit in
#                             one budget)
#   GPUFFTW_SWEEP_CACHE_DIR   gpufftw's cache folder (default: a fresh one)
#   GPUFFTW_SWEEP_CALIBRATE=0 no calibration step
#   GPUFFTW_SWEEP_WARM=1      before calibrating, one process ("warm") plans
#                             and runs every point on the GPU (GPUFFTW_MODE=gpu,
#                             FFTW_ESTIMATE, a store of its own), so that
#                             cuFFT's kernels for them are already in the CUDA
#                             JIT cache (CUDA_CACHE_PATH, by default
#                             ~/.nv/ComputeCache), as on a machine where they
#                             ran before: cuFFT links a kernel at the first
#                             plan that needs it on a machine, 20-300 ms,
#                             and takes it from that cache in later
#                             processes (docs/dispatch-sweep.md, cuFFT's
#                             first plans)
#   GPUFFTW_SWEEP_NAME        file prefix (default sweep)
#   GPUFFTW_SWEEP_TABLE_ARGS  dispatch_table.py's options for the last table
#   GPUFFTW_SWEEP_LIST=1      print the points and their count, run nothing
# Output in $OUT: sweep-FLAGS.txt (SWEEP header lines, then per point
# "RESULT CONFIG problem plan_ms median_ms min_ms reps where inner | why";
# CRASH, MISSING and TIME lines), sweep-FLAGS.err (the processes' stderr),
# sweep-FLAGS.md (the summary, also printed), dispatch-sweep-FLAGS.txt
# (gpufftw's store after the run): four files, so that both flag settings'
# come back from the GPU machine (8 at most). Every point, one row each:
# python3 bench/dispatch_table.py --all sweep-FLAGS.txt.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd) || exit 2
flags=${2:-measure}
case $flags in estimate | measure) ;; *) echo "usage: $0 [BUILD_DIR] [estimate|measure]" >&2; exit 2 ;; esac
out=${OUT:-/tmp/dispatch-sweep}
bench=$build/bench/fft_bench
lib=$build/libgpufftw.so.1
threads=${GPUFFTW_SWEEP_THREADS:-$(nproc)}
seconds=${GPUFFTW_SWEEP_SECONDS:-0.05}
timelimit=${GPUFFTW_SWEEP_TIMELIMIT:-1}
configs=${GPUFFTW_SWEEP_CONFIGS:-"fftw gpu auto"}
budget=${GPUFFTW_SWEEP_BUDGET:-480}
name=${GPUFFTW_SWEEP_NAME:-sweep}

sweep_points() {  # "log2(points) problem" lines, then sorted by size (stable)
  local prec kind k j n s
  for prec in f32 f64; do
    for kind in c2c r2c; do
      for ((k = 4; k <= 24; k += 2)); do
        for ((j = 0; j <= 14 && k + j <= 24; j += 2)); do
          n=$((1 << k))
          if ((j == 0)); then echo "$k $kind-$prec-$n"; else echo "$((k + j)) $kind-$prec-$n-b$((1 << j))"; fi
        done
      done
      for ((k = 4; k <= 9; ++k)); do
        s=$((1 << k))
        echo "$((2 * k)) $kind-$prec-${s}x$s"
        [ "$prec" = f64 ] && ((k == 9)) && continue
        echo "$((3 * k)) $kind-$prec-${s}x${s}x$s"
      done
    done
  done | sort -s -n -k1,1 | cut -d' ' -f2
}

if [ -n "${GPUFFTW_SWEEP_POINTS:-}" ]; then
  read -r -a points <<< "$GPUFFTW_SWEEP_POINTS"
else
  mapfile -t points < <(sweep_points)
fi
if [ "${GPUFFTW_SWEEP_LIST:-0}" = 1 ]; then
  printf '%s\n' "${points[@]}"
  echo "${#points[@]} points" >&2
  exit 0
fi
[ -x "$bench" ] || { echo "no $bench: build first (cmake --build $build)" >&2; exit 2; }
[ -f "$lib" ] || { echo "no $lib: build first" >&2; exit 2; }
mkdir -p "$out"
results=$out/$name-$flags.txt err=$out/$name-$flags.err
: > "$results"
: > "$err"
rev=$(git -C "$here" rev-parse --short HEAD 2> /dev/null || echo unknown)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n1 | tr ' ' _)
common=(--flags "$flags" --alloc fftw --seconds "$seconds")
[ "$timelimit" != none ] && common+=(--timelimit "$timelimit")

# run_config CONFIG ENV... -- ARGS...: fft_bench over all points in one
# process (restarted after a crash), within its share of the budget.
weight() { case $1 in fftw | auto | fftw2) echo 4 ;; interleaved) echo 8 ;; *) echo 2 ;; esac; }
start=$SECONDS
run_config() {
  local config=$1; shift
  local env=()
  while [ "$1" != -- ]; do env+=("$1"); shift; done
  shift
  local c w=0 left limit t0=$SECONDS label="s/^RESULT/RESULT $config/" per_point=1
  # interleaved: one process, four lines a point, its own flags in the
  # table: "RESULT auto|gpu|cpu|cpu2 ..." with cpu (the real FFTW's plans
  # through GPUFFTW_MODE=cpu) in the fftw column and cpu2 (the same, planned
  # and timed again) in fftw2's: the noise floor in the same process.
  [ "$config" = interleaved ] && label="s/^RESULT cpu /RESULT fftw /;s/^RESULT cpu2 /RESULT fftw2 /" per_point=4
  for c in "${todo[@]}"; do w=$((w + $(weight "$c"))); done
  left=$((budget - (SECONDS - start)))
  limit=$((left * $(weight "$config") / w))
  ((limit < 10)) && limit=10
  todo=("${todo[@]:1}")
  local hflags=$flags
  [ "$config" = interleaved ] && hflags=$flags/interleaved
  echo "SWEEP flags=$hflags config=$config threads=$threads seconds=$seconds timelimit=$timelimit alloc=fftw" \
    "points=${#points[@]} limit_s=$limit$pass_field rev=$rev gpu=${gpu:-none} host=$(hostname) date=$(date -u +%Y-%m-%dT%H:%MZ)" >> "$results"
  echo "== $config: ${#points[@]} points, --flags $flags, at most ${limit}s" >&2
  local rest=("${points[@]}") restarts=0 raw="$out/$name-$flags-$config.raw" ndone rc remain
  echo "== $config" >> "$err"
  while ((${#rest[@]})); do
    remain=$((limit - (SECONDS - t0)))
    ((remain < 1)) && remain=1
    timeout -k 5 "$remain" env "${env[@]}" "$bench" "$@" "${rest[@]}" > "$raw" 2>> "$err"
    rc=$?
    sed "$label" "$raw" >> "$results"
    ndone=$(($(grep -c '^RESULT' "$raw") / per_point))
    rest=("${rest[@]:ndone}")
    ((${#rest[@]})) || break
    if ((rc == 124 || rc == 137)); then
      printf "MISSING $config %s time-out\n" "${rest[@]}" >> "$results"
      echo "   $config: out of time, ${#rest[@]} points not run" >&2
      break
    fi
    echo "CRASH $config ${rest[0]} exit=$rc" >> "$results"
    echo "   $config: exit $rc on ${rest[0]}" >&2
    rest=("${rest[@]:1}")
    if ((++restarts > 3 && ${#rest[@]})); then
      printf "MISSING $config %s crashes\n" "${rest[@]}" >> "$results"
      break
    fi
  done
  rm -f "$raw"
  echo "TIME $config $((SECONDS - t0))" >> "$results"
  echo "   $config: $((SECONDS - t0)) s" >&2
}

if [ -n "${GPUFFTW_SWEEP_CACHE_DIR:-}" ]; then
  cache=$GPUFFTW_SWEEP_CACHE_DIR
  mkdir -p "$cache"
else
  cache=$(mktemp -d /tmp/gpufftw-sweep-cache.XXXXXX)
fi
todo=()
for c in $configs; do
  case $c in fftw | gpu | auto | fftw1 | fftw2 | interleaved) todo+=("$c") ;; *) echo "GPUFFTW_SWEEP_CONFIGS: no configuration $c" >&2; exit 2 ;; esac
done
if [ "${GPUFFTW_SWEEP_WARM:-0}" = 1 ]; then
  t0=$SECONDS
  echo "== warm" | tee -a "$err" >&2
  echo "SWEEP flags=$flags config=warm rev=$rev gpu=${gpu:-none} host=$(hostname) date=$(date -u +%Y-%m-%dT%H:%MZ)" \
    >> "$results"
  warm_cache=$(mktemp -d /tmp/gpufftw-sweep-warm.XXXXXX)
  timeout -k 5 120 env -u GPUFFTW_COMPARE -u GPUFFTW_MEASURE LD_PRELOAD="$lib" GPUFFTW_MODE=gpu \
    GPUFFTW_CACHE_DIR="$warm_cache" "$bench" --flags estimate --alloc fftw --seconds 0 "${points[@]}" 2>> "$err" |
    awk '$1 == "RESULT" { n++; t += $3; if ($3 > 5) o++ } END { printf "WARM %d plans, %.1f s planning, %d over 5 ms\n", n, t / 1e3, o }' \
      >> "$results"
  rm -rf "$warm_cache"
  echo "TIME warm $((SECONDS - t0))" >> "$results"
  echo "   warm: $((SECONDS - t0)) s" >&2
fi
if [[ " ${todo[*]} " == *" auto "* || " ${todo[*]} " == *" interleaved "* ]] && [ "${GPUFFTW_SWEEP_CALIBRATE:-1}" != 0 ]; then
  t0=$SECONDS
  echo "== calibrate" | tee -a "$err" >&2
  echo "SWEEP flags=$flags config=calibrate threads=$threads rev=$rev gpu=${gpu:-none} host=$(hostname)" \
    "date=$(date -u +%Y-%m-%dT%H:%MZ)" >> "$results"
  for process in calibrate check check; do
    echo "-- $process" >> "$err"
    timeout -k 5 120 env -u GPUFFTW_COMPARE -u GPUFFTW_MODE -u GPUFFTW_MEASURE LD_PRELOAD="$lib" GPUFFTW_CACHE_DIR="$cache" \
      "$bench" --flags estimate --alloc fftw --seconds 0.01 --threads "$threads" \
      c2c-f32-1000-b16384 c2c-f32-1000-b64 c2c-f64-1000-b64 2>> "$err" | sed 's/^RESULT/CALIBRATE/' >> "$results"
  done
  echo "TIME calibrate $((SECONDS - t0))" >> "$results"
  echo "   calibrate: $((SECONDS - t0)) s" >&2
fi
# Rounds: the points in GPUFFTW_SWEEP_ROUNDS consecutive slices, every
# configuration over one slice before the next, so that the host's drift
# (2-3x on small threaded problems between calls a few minutes apart) falls
# on all three configurations of a point alike; the rounds again in each of
# GPUFFTW_SWEEP_PASSES passes. Each round gets a share of what is left of
# the budget by its weight: the last (the biggest points) as much as all
# the others, 1 each, and in a first pass of several twice that (the
# biggest points cost the most, and a first pass measures what a later
# one recalls from its choices and wisdom).
slice_weight() {  # slice s: round s % rounds of pass s / rounds + 1
  local w=1
  (($1 % rounds == rounds - 1 && rounds > 1)) && w=$((rounds - 1))
  (($1 < rounds && passes > 1)) && w=$((2 * w))
  echo $w
}
rounds=${GPUFFTW_SWEEP_ROUNDS:-1}
passes=${GPUFFTW_SWEEP_PASSES:-1}
configs_left=("${todo[@]}")
all_points=("${points[@]}")
whole_budget=$budget whole_start=$SECONDS
pass_field=
for ((s = 0; s < passes * rounds; ++s)); do
  r=$((s % rounds))
  ((passes > 1)) && pass_field=" pass=$((s / rounds + 1))"
  lo=$((${#all_points[@]} * r / rounds)) hi=$((${#all_points[@]} * (r + 1) / rounds))
  points=("${all_points[@]:lo:hi-lo}")
  ((${#points[@]})) || continue
  weights_left=0
  for ((t = s; t < passes * rounds; ++t)); do weights_left=$((weights_left + $(slice_weight $t))); done
  budget=$(((whole_budget - (SECONDS - whole_start)) * $(slice_weight "$s") / weights_left))
  start=$SECONDS
  todo=("${configs_left[@]}")
  for c in "${configs_left[@]}"; do
    wisdom=()  # a configuration's wisdom of this round, written in pass 1, read after
    if ((passes > 1)); then
      ((s < rounds)) && wisdom=(--wisdom-out "$cache/wisdom-$c-round$r") || wisdom=(--wisdom-in "$cache/wisdom-$c-round$r")
    fi
    case $c in
      fftw | fftw2) run_config "$c" -u LD_PRELOAD -- "${common[@]}" "${wisdom[@]}" --threads "$threads" ;;
      fftw1) run_config fftw1 -u LD_PRELOAD -- "${common[@]}" "${wisdom[@]}" ;;
      gpu) run_config gpu -u GPUFFTW_COMPARE LD_PRELOAD="$lib" GPUFFTW_MODE=gpu GPUFFTW_CACHE_DIR="$cache" -- \
        "${common[@]}" ;;
      auto) run_config auto -u GPUFFTW_COMPARE -u GPUFFTW_MODE -u GPUFFTW_MEASURE LD_PRELOAD="$lib" \
        GPUFFTW_CACHE_DIR="$cache" -- "${common[@]}" "${wisdom[@]}" --threads "$threads" ;;
      interleaved) run_config interleaved -u GPUFFTW_COMPARE -u GPUFFTW_MODE -u GPUFFTW_MEASURE LD_PRELOAD="$lib" \
        GPUFFTW_CACHE_DIR="$cache" -- "${common[@]}" "${wisdom[@]}" --threads "$threads" --modes auto,gpu,cpu,cpu ;;
    esac
  done
done
echo "== total $((SECONDS - whole_start)) s" >&2
[ -f "$cache/dispatch.txt" ] && cp "$cache/dispatch.txt" "$out/dispatch-$name-$flags.txt"
[ -z "${GPUFFTW_SWEEP_CACHE_DIR:-}" ] && rm -rf "$cache"
read -r -a table_args <<< "${GPUFFTW_SWEEP_TABLE_ARGS:-}"
python3 "$here/dispatch_table.py" "${table_args[@]}" "$results" | tee "$out/$name-$flags.md"
