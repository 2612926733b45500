// What the rate benchmarks (link_rates, host_copy_rates) share: the GPU
// counts they measure at, every GPU's copy run at once, and the reading
// they keep of several rounds.
#pragma once

#include <algorithm>
#include <chrono>
#include <thread>
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

// What run(k) returns for k < n, each on a thread of its own, all at once
// (one per GPU: the copies contend as a split's do).
template <class T, class Run>
std::vector<T> all_at_once(size_t n, Run run) {
  std::vector<T> out(n);
  std::vector<std::thread> threads;
  for (size_t k = 0; k < n; ++k) threads.emplace_back([&, k] { out[k] = run(k); });
  for (std::thread &t : threads) t.join();
  return out;
}

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
