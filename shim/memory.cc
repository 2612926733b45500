#include "shim/memory.h"

#include <cstdint>
#include <cstdlib>

#include "core/env.h"
#include "dispatch/devices.h"
#include "shim/foreign.h"
#include "shim/planner.h"

namespace gpufftw {
namespace {

constexpr size_t kAlignment = 64;  // a cache line; covers AVX-512
constexpr size_t kFftwAlignment = 16;  // what FFTW's alignment_of measures against

#if GPUFFTW_HAVE_CUDA
// fftw_malloc hands out pinned memory from this size up
// (GPUFFTW_PINNED_MIN bytes): the GPU copies it at full PCIe speed.
size_t pinned_min() {
  static const size_t min = [] {
    return static_cast<size_t>(env::integer("GPUFFTW_PINNED_MIN", 1 << 20, 0, INT64_MAX, "1048576"));
  }();
  return min;
}
#endif

}  // namespace

void *aligned_alloc_bytes(size_t bytes) {
  check_real_fftw_mpi_once();
#if GPUFFTW_HAVE_CUDA
  if (bytes >= pinned_min() && mode() != GPUFFTW_MODE_CPU)
    if (void *p = alloc_pinned(bytes)) return p;
#endif
  void *p = nullptr;
  // Like FFTW, a request for nothing still returns a unique pointer.
  if (posix_memalign(&p, kAlignment, bytes ? bytes : 1) != 0) return nullptr;
  return p;
}

void aligned_free(void *p) {
  if (free_pinned(p)) return;
  std::free(p);
}

int alignment_of(const void *p) { return static_cast<int>(reinterpret_cast<uintptr_t>(p) % kFftwAlignment); }

}  // namespace gpufftw
