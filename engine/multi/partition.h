// The arithmetic of spreading one problem over several GPUs: which GPUs
// (the device list), and which share of a batch or of a transform's planes
// each takes. Plain C++ with no CUDA, so that builds without a GPU test it.
#pragma once

#include <string>
#include <vector>

namespace gpufftw::engine {

// GPUFFTW_DEVICES: "all" (every one of `count` devices) or a comma list of
// device numbers below `count`, each once. Empty (with `why`) where the
// text is neither.
std::vector<int> parse_devices(const std::string &text, int count, std::string *why);

// The devices of `names` (one per device number) that are the same model
// as device `first`, in order, `first` among them: the default set, since
// a slower card would hold the faster ones back in every split.
std::vector<int> same_model(const std::vector<std::string> &names, int first);

// [begin, end) of one share.
struct Share {
  long long begin = 0, end = 0;
  long long size() const { return end - begin; }
};

// n items over at most `parts` shares, in order, their sizes differing by
// at most one, none empty: fewer shares than parts where n < parts.
std::vector<Share> split_evenly(long long n, int parts);

// Whether the shares of a loop of stride `stride` (elements) over an array
// whose one iteration of that loop spans [lo, hi] (element offsets, from
// the loop's own index 0) lie in memory apart from each other: each device
// then reads and writes only its own bytes, even where it stages whole
// byte ranges.
bool shares_apart(long long stride, long long lo, long long hi);

}  // namespace gpufftw::engine
