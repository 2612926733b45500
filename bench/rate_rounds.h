// What the rate benchmarks (link_rates, host_copy_rates) share: the GPU
// counts they measure at and the reading they keep of several rounds.
#pragma once

#include <algorithm>
#include <vector>

// 1, 2, 4, ... below `count`, then `count`: the device sets the
// multi-GPU benchmark compares (its first k GPUs).
inline std::vector<int> gpu_counts(int count) {
  std::vector<int> k;
  for (int c = 1; c < count; c *= 2) k.push_back(c);
  k.push_back(count);
  return k;
}

// The median of the rounds: one slow round of the host does not set a floor.
inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
