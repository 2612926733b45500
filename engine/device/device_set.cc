#include "engine/device/device_set.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace gpufftw::engine {

std::vector<int> parse_devices(const std::string &text, int count, std::string *why) {
  std::vector<int> out;
  if (text == "all") {
    for (int d = 0; d < count; ++d) out.push_back(d);
    if (out.empty()) *why = "no CUDA device";
    return out;
  }
  if (!text.empty() && text.back() == ',') {
    *why = "GPUFFTW_DEVICES=" + text + ": a list ends in a device number";
    return {};
  }
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    // Digits alone, as GPUFFTW_DEVICE takes them: strtol would also take
    // leading blanks and a sign.
    const bool digits = !item.empty() && item.find_first_not_of("0123456789") == std::string::npos;
    const long d = digits && item.size() < 10 ? std::strtol(item.c_str(), nullptr, 10) : -1;
    if (d < 0 || d >= count) {
      *why = "GPUFFTW_DEVICES=" + text + ": '" + item + "' is not a device number below " + std::to_string(count);
      return {};
    }
    if (std::find(out.begin(), out.end(), static_cast<int>(d)) != out.end()) {
      *why = "GPUFFTW_DEVICES=" + text + ": device " + item + " named twice";
      return {};
    }
    out.push_back(static_cast<int>(d));
  }
  if (out.empty()) *why = "GPUFFTW_DEVICES is empty";
  return out;
}

std::vector<int> same_model(const std::vector<std::string> &names, int first) {
  std::vector<int> out;
  if (first < 0 || first >= static_cast<int>(names.size())) return out;
  out.push_back(first);
  for (int d = 0; d < static_cast<int>(names.size()); ++d)
    if (d != first && names[d] == names[first]) out.push_back(d);
  return out;
}

std::string device_list(const std::vector<int> &set) {
  std::string s;
  for (int d : set) s += (s.empty() ? "" : ",") + std::to_string(d);
  return s;
}

}  // namespace gpufftw::engine
