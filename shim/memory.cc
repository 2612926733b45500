#include "shim/memory.h"

#include <cstdint>
#include <cstdlib>

namespace gpufftw {
namespace {

constexpr size_t kAlignment = 64;  // a cache line; covers AVX-512
constexpr size_t kFftwAlignment = 16;  // what FFTW's alignment_of measures against

}  // namespace

void *aligned_alloc_bytes(size_t bytes) {
  void *p = nullptr;
  // Like FFTW, a request for nothing still returns a unique pointer.
  if (posix_memalign(&p, kAlignment, bytes ? bytes : 1) != 0) return nullptr;
  return p;
}

void *aligned_alloc_elems(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) return nullptr;
  return aligned_alloc_bytes(count * size);
}

void aligned_free(void *p) { std::free(p); }

int alignment_of(const void *p) { return static_cast<int>(reinterpret_cast<uintptr_t>(p) % kFftwAlignment); }

}  // namespace gpufftw
