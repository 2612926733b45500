#include "dispatch/machine.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

namespace gpufftw {
namespace {

std::string trimmed(const std::string &s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// "Model: NVIDIA H100 80GB HBM3 @ 0000:18:00.0" from a GPU's information file.
std::string gpu_line(const std::filesystem::path &information) {
  std::ifstream in(information);
  std::string model, bus;
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trimmed(line.substr(0, colon)), value = trimmed(line.substr(colon + 1));
    if (key == "Model") model = value;
    if (key == "Bus Location") bus = value;
  }
  return model + " @ " + bus;
}

}  // namespace

std::string nvidia_driver_fingerprint(const std::string &root) {
  std::ifstream version(root + "/version");
  std::string driver;
  if (!std::getline(version, driver) || driver.empty()) return "";
  std::vector<std::filesystem::path> gpus;  // one folder each, named by its bus address
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(root + "/gpus", ec)) gpus.push_back(entry.path());
  std::sort(gpus.begin(), gpus.end());  // the directory lists them in no set order
  std::string s = trimmed(driver);
  for (const std::filesystem::path &g : gpus) s += "; " + gpu_line(g / "information");
  // The GPUs a process may use are part of the machine its choices and
  // rates were measured on. Read as core/env.cc reads a setting, but
  // empty kept: an empty CUDA_VISIBLE_DEVICES shows no GPU.
  for (const char *var : {"CUDA_VISIBLE_DEVICES", "GPUFFTW_DEVICE", "GPUFFTW_DEVICES"})
    if (const char *v = secure_getenv(var)) s += std::string("; ") + var + "=" + v;
  return s;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

}  // namespace gpufftw
