// Which GPUs plans may spread over (the device set): GPUFFTW_DEVICES's
// list, or the devices of the first one's model. Plain C++ with no CUDA,
// so that builds without a GPU test it.
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

// "0,1,2"
std::string device_list(const std::vector<int> &set);

}  // namespace gpufftw::engine
