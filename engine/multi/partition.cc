#include "engine/multi/partition.h"

#include <algorithm>

namespace gpufftw::engine {

std::vector<Share> split_evenly(long long n, int parts) {
  std::vector<Share> out;
  if (n <= 0 || parts <= 0) return out;
  const long long k = std::min<long long>(n, parts), base = n / k, extra = n % k;
  long long at = 0;
  for (long long i = 0; i < k; ++i) {
    const long long size = base + (i < extra ? 1 : 0);
    out.push_back({at, at + size});
    at += size;
  }
  return out;
}

std::vector<Share> join_until(const std::vector<Share> &shares, long long least) {
  std::vector<Share> out;
  for (size_t i = 0; i < shares.size(); ++i) {
    if (out.empty() || out.back().size() >= least) out.push_back({shares[i].begin, shares[i].begin});
    out.back().end = shares[i].end;
  }
  return out;
}

bool shares_apart(long long stride, long long lo, long long hi) {
  // Iterations i and i+1 are apart when one's span ends before the next
  // begins, in whichever direction the loop walks memory.
  if (stride == 0) return false;
  return stride > 0 ? hi < stride + lo : lo > stride + hi;
}

}  // namespace gpufftw::engine
