#!/usr/bin/env bash
# bench/baseline.sh REV [DIR]: builds libgpufftw of revision REV (HERE, where
# the repository and the CUDA toolkit are) into DIR (default
# <repo>/build-baseline), for bench/run.sh to measure beside the build under
# test in the same run: GPUFFTW_BENCH_BASELINE=DIR/libgpufftw.so.1. Carry
# DIR to the GPU machine (a build made with the CUDA toolkit runs there).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:?usage: bench/baseline.sh REV [DIR]}
dest=${2:-$root/build-baseline}
tree=$(mktemp -d /tmp/gpufftw-baseline-XXXXXX)
trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"' EXIT
git -C "$root" worktree add --detach "$tree" "$rev" >/dev/null
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
cmake -S "$tree" -B "$tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  ${GPUFFTW_CUDA_ARCH:+-DCMAKE_CUDA_ARCHITECTURES=$GPUFFTW_CUDA_ARCH} > /dev/null
cmake --build "$tree/build" -j "$(nproc)" --target gpufftw > /dev/null
mkdir -p "$dest"
cp -L "$tree/build/libgpufftw.so.1" "$dest/libgpufftw.so.1"
git -C "$root" rev-parse --short "$rev" > "$dest/revision"
echo "baseline: $dest/libgpufftw.so.1 ($(cat "$dest/revision")); carry $(realpath --relative-to="$root" "$dest")"
