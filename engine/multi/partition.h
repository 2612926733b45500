// The arithmetic of spreading one problem over several GPUs: which share
// of a batch or of a transform's planes each takes. Plain C++ with no
// CUDA, so that builds without a GPU test it.
#pragma once

#include <vector>

namespace gpufftw::engine {

// [begin, end) of one share.
struct Share {
  long long begin = 0, end = 0;
  long long size() const { return end - begin; }
};

// n items over at most `parts` shares, in order, their sizes differing by
// at most one, none empty: fewer shares than parts where n < parts.
std::vector<Share> split_evenly(long long n, int parts);

// Consecutive shares joined into runs of at least `least` items each,
// in order; the last run takes what is left, and may be smaller. Each run
// ends where one of the shares ends.
std::vector<Share> join_until(const std::vector<Share> &shares, long long least);

// Whether the shares of a loop of stride `stride` (elements) over an array
// whose one iteration of that loop spans [lo, hi] (element offsets, from
// the loop's own index 0) lie in memory apart from each other: each device
// then reads and writes only its own bytes, even where it stages whole
// byte ranges.
bool shares_apart(long long stride, long long lo, long long hi);

}  // namespace gpufftw::engine
