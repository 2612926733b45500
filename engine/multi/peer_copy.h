// Rows of bytes copied by a kernel of the stream's device, which may read
// another GPU's memory where peer access is enabled: over NVLink this
// runs at the link's rate, where the copy engines' pitched peer copies ran
// at a fraction of it (c2c f32 512^3 split over two H200s: its exchange
// took 8.7 ms, as long as a third of the PCIe transfers it sits between).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace gpufftw::engine {

// `rows` rows of `width` bytes, `spitch` apart at src and `dpitch` at dst;
// every size and both pointers multiples of 8 bytes.
bool copy_rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t rows,
               cudaStream_t stream, std::string *why);

}  // namespace gpufftw::engine
