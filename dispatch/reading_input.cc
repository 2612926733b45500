#include "dispatch/reading_input.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace gpufftw {
namespace {

struct Loop {
  int64_t n, stride;  // stride in elements
};

// Zeroes the elements of `loops[k..]` from `at`: the last loop of unit
// stride in one block, any other element by element.
void zero_loops(char *at, const std::vector<Loop> &loops, size_t k, size_t elem) {
  const Loop &l = loops[k];
  if (k + 1 == loops.size()) {
    if (l.stride == 1 || l.stride == -1) {
      char *first = l.stride == 1 ? at : at - (l.n - 1) * static_cast<int64_t>(elem);
      std::memset(first, 0, static_cast<size_t>(l.n) * elem);
      return;
    }
    for (int64_t i = 0; i < l.n; ++i) std::memset(at + i * l.stride * static_cast<int64_t>(elem), 0, elem);
    return;
  }
  for (int64_t i = 0; i < l.n; ++i) zero_loops(at + i * l.stride * static_cast<int64_t>(elem), loops, k + 1, elem);
}

}  // namespace

void zero_input(const Problem &p) {
  const SideAxes in = side_axes(p, false);
  const size_t elem = static_cast<size_t>(in.elem);
  std::vector<Loop> loops;
  for (size_t i = 0; i < in.n.size(); ++i) loops.push_back({in.n[i], in.stride[i]});
  if (loops.empty()) loops.push_back({1, 1});
  // Zeroing does not depend on the loops' order: the shortest stride
  // innermost walks memory in order and zeroes a unit stride in blocks
  // (an interleaved batch's is its loop of transforms, not a dimension).
  std::stable_sort(loops.begin(), loops.end(),
                   [](const Loop &a, const Loop &b) { return std::llabs(a.stride) > std::llabs(b.stride); });
  for (void *array : p.in)
    if (array) zero_loops(static_cast<char *>(array), loops, 0, elem);
}

}  // namespace gpufftw
