// The 16-point DFT matrix as the tensor cores take it: each lane's A
// registers for the four 16 x 16 tiles of its real 32 x 32 form (see
// tile_map.h), in half precision, computed in double on the host.
#pragma once

#include <cstdint>
#include <vector>

namespace gpufftw::engine::fp16 {

constexpr int kFragmentRegs = 16;  // per lane: tile (u, k) in registers 8u + 4k .. 8u + 4k + 3

// 32 lanes x kFragmentRegs words, lane-major; each word two halves, the
// lower-numbered column in the low 16 bits. sign: -1 forward, +1 backward.
std::vector<uint32_t> dft_fragments(int sign);

// The real value of A tile (u, k) at (row, col) for `sign`, before rounding.
double dft_entry(int u, int k, int row, int col, int sign);

}  // namespace gpufftw::engine::fp16
