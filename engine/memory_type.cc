#include <cuda_runtime_api.h>

#include "engine/engine.h"

namespace gpufftw::engine {

Memory memory_type(const void *p) {
  if (!p || !gpu_available()) return Memory::Pageable;
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();  // clear it: an unknown pointer is not an error here
    return Memory::Pageable;
  }
  switch (a.type) {
    case cudaMemoryTypeHost: return Memory::Pinned;
    case cudaMemoryTypeDevice: return Memory::Device;
    case cudaMemoryTypeManaged: return Memory::Managed;
    default: return Memory::Pageable;
  }
}

}  // namespace gpufftw::engine
