# Sourced by tools/gpu-check.sh and tools/gpu-hardening.sh once they have
# set `out`, the folder of their logs: the source tree (root, made the
# working folder), the GPU build folder, nvcc on the PATH, and the device
# and the commit they run on written to $out/device.txt.
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-gpu
mkdir -p "$out"
cd "$root"
export PATH="/usr/local/cuda/bin:$PATH"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ) commit: $(git rev-parse --short HEAD 2>/dev/null)" | tee -a "$out/device.txt"
