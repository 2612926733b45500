// The radix-2/4/8 first step of the FP16 FFT, in float registers; shared by
// the kernel and the CPU replay test.
#pragma once

#include "engine/fp16/tile_map.h"

namespace gpufftw::engine::fp16 {

// (re, im) *= exp(2*pi*i*e/8); e is a constant once the callers unroll.
FP16_HD void rot8(float &re, float &im, int e) {
  constexpr float h = 0.70710678118654752f;
  const float r = re, i = im;
  switch (e & 7) {
    case 1: re = h * (r - i), im = h * (r + i); break;
    case 2: re = -i, im = r; break;
    case 3: re = -h * (r + i), im = h * (r - i); break;
    case 4: re = -r, im = -i; break;
    case 5: re = h * (i - r), im = -h * (r + i); break;
    case 6: re = i, im = -r; break;
    case 7: re = h * (r + i), im = h * (i - r); break;
    default: break;
  }
}

// The R-point DFT (sign as FFTW's), decimation in frequency: output k lands
// in slot bitreverse(k, R).
template <int R, int Sign>
FP16_HD void small_dft(float (&re)[R], float (&im)[R]) {
FP16_UNROLL
  for (int span = R / 2; span >= 1; span /= 2)
FP16_UNROLL
    for (int b = 0; b < R; b += 2 * span)
FP16_UNROLL
      for (int j = 0; j < span; ++j) {
        const float ar = re[b + j], ai = im[b + j], br = re[b + j + span], bi = im[b + j + span];
        re[b + j] = ar + br, im[b + j] = ai + bi;
        re[b + j + span] = ar - br, im[b + j + span] = ai - bi;
        rot8(re[b + j + span], im[b + j + span], Sign * j * (4 / span));
      }
}
FP16_CONSTEXPR int bitreverse(int k, int r) { return r <= 1 ? 0 : ((k & 1) * (r / 2)) | bitreverse(k >> 1, r / 2); }

}  // namespace gpufftw::engine::fp16
