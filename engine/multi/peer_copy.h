// Rows of bytes copied by a kernel of the stream's device, which may read
// another GPU's memory where peer access is enabled: over NVLink this
// runs at the link's rate, where the copy engines' pitched peer copies
// between the GPUs' memory pools reach only a fraction of it, and the
// exchange between a split's passes would cost as much as a good part of
// the PCIe transfers around it (docs/multi-gpu.md, "What limits it").
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace gpufftw::engine {

// `rows` rows of `width` bytes, `spitch` apart at src and `dpitch` at dst;
// every size and both pointers multiples of 8 bytes.
bool copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows,
               cudaStream_t stream, std::string *why);

// The same from GPU `from`'s memory into the stream's device's: by
// copy_rows where `peer` (every GPU of the split reads the others' memory
// directly) or the devices are one, else by the copy engines through the
// host.
bool pull_rows(void *dst, size_t dpitch, int from, const void *src, size_t spitch, size_t width, size_t rows,
               bool peer, cudaStream_t stream, std::string *why);

}  // namespace gpufftw::engine
