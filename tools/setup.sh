#!/usr/bin/env bash
# setup.sh [BUILD_DIR [CMAKE_ARGS...]]: installs what gpufftw needs where it
# can (Debian or Ubuntu, as root), then configures and builds it, one line
# as each step starts and the build's own progress under it. Used by
# demo.sh and run-tests.sh; on a machine without apt or network it only builds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
packages=(cmake ninja-build g++ gfortran libfftw3-dev libgtest-dev perl pkgconf openmpi-bin libopenmpi-dev libfftw3-mpi-dev)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: 1/3 packages: all installed"
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "setup: 1/3 packages: installing ${missing[*]} with apt-get (quietly; a few minutes on a fresh machine)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "setup: 1/3 packages: not installing ${missing[*]} (needs root and apt-get); building with what is here"
fi
# nvcc is found where the CUDA toolkit is installed, even off the PATH.
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
echo "setup: 2/3 configuring $build (cmake)"
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
start=$SECONDS
echo "setup: 3/3 building $build on $(nproc) cores: a first build takes minutes (about 5 on 2 cores with the GPU engine), a rebuild seconds"
cmake --build "$build" -j "$(nproc)"
echo "setup: built $build in $((SECONDS - start)) s"
