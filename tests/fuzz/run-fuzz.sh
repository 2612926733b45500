#!/usr/bin/env bash
# run-fuzz.sh [SECONDS [LIBFUZZER_ARGS...]]: builds the planner fuzzer
# (clang, libFuzzer, ASan+UBSan; build-fuzz/, CPU path), runs every input
# of the committed corpus
# (tests/fuzz/corpus: the seeds, and every input that ever found a bug),
# then SECONDS (default 60) of new inputs. New interesting inputs go to a
# temporary folder (add them with -merge=1 if wanted); a failing input is
# written to build-fuzz/fuzz-artifacts/ and the run exits non-zero.
# Env: GPUFFTW_FUZZ_BUILD (default <repo>/build-fuzz), JOBS. The GPU path is
# fuzzed by gpufftw_fuzz_replay instead (README.md).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${GPUFFTW_FUZZ_BUILD:-$root/build-fuzz}
secs=${1:-60}
shift || true
if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "run-fuzz: installing clang and its fuzzer runtime"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libclang-rt-14-dev >/dev/null 2>&1 || true
  fi
fi
if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "run-fuzz: SKIPPED: clang with libFuzzer is needed (apt-get install clang libclang-rt-dev), and could not be installed" >&2
  [ "${GPUFFTW_REQUIRE_FUZZ:-0}" = 1 ] && exit 2
  exit 0
fi
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUFFTW_FUZZ=ON -DGPUFFTW_WITH_CUDA=OFF \
  -DGPUFFTW_WERROR=OFF >/dev/null
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target gpufftw_fuzz_planner
fuzzer=$build/tests/fuzz/gpufftw_fuzz_planner
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/fuzz-artifacts"
common=(-rss_limit_mb=3072 -malloc_limit_mb=2048 -timeout=30 -max_len=160 "-artifact_prefix=$build/fuzz-artifacts/")
echo "run-fuzz: the committed corpus ($(ls "$here/corpus" | wc -l) inputs)"
"$fuzzer" "${common[@]}" -runs=0 "$here/corpus"
if [ "$secs" -gt 0 ]; then
  new=$(mktemp -d)
  trap 'rm -rf "$new"' EXIT
  echo "run-fuzz: $secs s of new inputs"
  "$fuzzer" "${common[@]}" -max_total_time="$secs" -print_final_stats=1 "$@" "$new" "$here/corpus"
fi
echo "run-fuzz: PASS"
