// The launches of the FP16 tensor-core FFT: one pass of batched length-n
// transforms along rows (contiguous) or along a strided axis, over __half2
// arrays on the device. Plain declarations, shared by the planner (C++) and
// the kernels (CUDA).
#pragma once

#include <cuda_runtime_api.h>

namespace gpufftw::engine::fp16 {

struct Pass {
  int n;            // transform length: 256, 512, 1024, 2048 or 4096
  bool cols;        // false: transform i at i*n; true: element j of column c of group o at o*n*stride + j*stride + c
  long long count;  // rows: transforms; cols: groups o
  long long stride; // cols: the axis's stride, which is also its number of columns
};

// Transforms or columns one block holds, and its dynamic shared memory.
int per_block(const Pass &p);
int shared_bytes(const Pass &p);
// Lets the kernel for p take shared_bytes(p) (above the 48 KB default).
cudaError_t allow_shared(const Pass &p);
// One pass on `stream`; `fragments` is dft_fragments(sign) on the device.
// The launch's error, or cudaSuccess.
cudaError_t launch(const Pass &p, int sign, const void *in, void *out, const unsigned *fragments, cudaStream_t stream);

}  // namespace gpufftw::engine::fp16
