// How the four-step FFT splits a length past one pass (4096) into two that
// each fit one: plain arithmetic, tested on the host.
#pragma once

namespace gpufftw::engine::kernels {

// The longest length one pass of our kernels holds.
constexpr long long kMaxPassLength = 4096;

// n = n1 * n2 with 2 <= n1 <= n2 <= 4096 and n1 the largest such divisor
// (the two as close as possible: the strided pass over columns of length
// n1 is the one shared memory limits); false where n has no such split.
inline bool four_step_split(long long n, int *n1, int *n2) {
  long long best = 0;
  for (long long a = 2; a * a <= n; ++a)
    if (n % a == 0 && n / a <= kMaxPassLength) best = a;
  if (!best) return false;
  *n1 = static_cast<int>(best);
  *n2 = static_cast<int>(n / best);
  return true;
}

}  // namespace gpufftw::engine::kernels
