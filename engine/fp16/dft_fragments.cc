#include "engine/fp16/dft_fragments.h"

#include <cuda_fp16.h>

#include <cmath>
#include <cstring>

#include "engine/fp16/tile_map.h"

namespace gpufftw::engine::fp16 {

double dft_entry(int u, int k, int row, int col, int sign) {
  const AEntry e = a_entry(u, k, row, col);
  // exp(sign*2*pi*i*P*Q/16) = c + i*s; re out = c*re - s*im, im out = s*re + c*im.
  const double angle = sign * 2 * M_PI * ((e.p * e.q) % 16) / 16.0;
  const double c = std::cos(angle), s = std::sin(angle);
  if (!e.out_im) return e.in_im ? -s : c;
  return e.in_im ? c : s;
}

std::vector<uint32_t> dft_fragments(int sign) {
  std::vector<uint32_t> words(32 * kFragmentRegs);
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane >> 2, q = lane & 3;
    for (int u = 0; u < 2; ++u)
      for (int k = 0; k < 2; ++k)
        for (int r = 0; r < 4; ++r) {
          // mma.m16n8k16 A layout: register r holds row g (+8 for odd r),
          // columns 2q, 2q+1 (+8 for r >= 2).
          const int row = g + 8 * (r & 1), col = 2 * q + 8 * (r >> 1);
          const __half2 h = __floats2half2_rn(static_cast<float>(dft_entry(u, k, row, col, sign)),
                                              static_cast<float>(dft_entry(u, k, row, col + 1, sign)));
          std::memcpy(&words[lane * kFragmentRegs + 8 * u + 4 * k + r], &h, sizeof h);
        }
  }
  return words;
}

}  // namespace gpufftw::engine::fp16
