#include <algorithm>
#include <cstdint>

#include "engine/device/context.h"
#include "engine/multi/peer_copy.h"

namespace gpufftw::engine {
namespace {

__global__ void copy_rows_kernel(uint64_t *dst, size_t dpitch, const uint64_t *src, size_t spitch, size_t width,
                                 size_t rows) {
  const size_t total = width * rows;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const size_t r = i / width, c = i - r * width;
    dst[r * dpitch + c] = src[r * spitch + c];
  }
}

}  // namespace

bool copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows,
               cudaStream_t stream, std::string *why) {
  if (width == 0 || rows == 0) return true;
  int sms = 0;
  GPUFFTW_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device()), why);
  const size_t words = width / 8 * rows;
  const unsigned blocks = static_cast<unsigned>(std::min<size_t>(static_cast<size_t>(sms) * 8, (words + 255) / 256));
  copy_rows_kernel<<<blocks, 256, 0, stream>>>(static_cast<uint64_t *>(dst), dpitch / 8,
                                               static_cast<const uint64_t *>(src), spitch / 8, width / 8, rows);
  GPUFFTW_CK(cudaGetLastError(), why);
  return true;
}

bool pull_rows(void *dst, size_t dpitch, int from, const void *src, size_t spitch, size_t width, size_t rows,
               bool peer, cudaStream_t stream, std::string *why) {
  if (peer || from == device()) return copy_rows(dst, dpitch, src, spitch, width, rows, stream, why);
  cudaMemcpy3DPeerParms p{};
  p.srcDevice = from;
  p.dstDevice = device();
  p.srcPtr = make_cudaPitchedPtr(const_cast<void *>(src), spitch, width, rows);
  p.dstPtr = make_cudaPitchedPtr(dst, dpitch, width, rows);
  p.extent = make_cudaExtent(width, rows, 1);
  GPUFFTW_CK(cudaMemcpy3DPeerAsync(&p, stream), why);
  return true;
}

}  // namespace gpufftw::engine
