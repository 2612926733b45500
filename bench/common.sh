# Sourced by bench/run.sh, multi_gpu_run.sh and threads_run.sh, after they
# set `here` to bench/: the build (their argument BUILD_DIR, else ../build),
# the output folder ($OUT, made here) and fft_bench, and run, which each of
# them measures with. Before a run: `results`, the file its RESULT lines are
# appended to; `problems`, the problems every run measures; `options`, the
# fft_bench options every run takes (none unless set); `launcher`, a command
# fft_bench runs under (none unless set).
build=${1:-$here/../build}
out=${OUT:-/tmp/bench}
mkdir -p "$out"
bench=$build/bench/fft_bench
options=()
launcher=()

# run NAME ENV... -- ARGS...: fft_bench with ENV added to the environment,
# the options and ARGS, over the problems; its RESULT lines tagged NAME, its
# stderr appended to $out/NAME.err.
run() {
  local name=$1; shift
  local env=()
  while [ "$1" != -- ]; do env+=("$1"); shift; done
  shift
  echo "== $name" >&2
  # shellcheck disable=SC2086 # problems: one word each
  env "${env[@]}" "${launcher[@]}" "$bench" "${options[@]}" "$@" $problems 2>> "$out/$name.err" | sed "s/^RESULT/RESULT $name/" |
    tee -a "$results"
}
