#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "engine/device/context.h"
#include "engine/engine.h"

namespace gpufftw::engine {

std::string device_identity() {
  if (!gpu_available()) return "no GPU";
  cudaDeviceProp prop{};
  int driver = 0;
  if (cudaGetDeviceProperties(&prop, device()) != cudaSuccess || cudaDriverGetVersion(&driver) != cudaSuccess) {
    cudaGetLastError();
    return device_name();
  }
  // A calibration of one GPU prices nothing right for a set of two.
  const std::vector<int> set = devices();
  const std::string gpus = set.size() > 1 ? " x" + std::to_string(set.size()) : "";
  return std::string(prop.name) + gpus + ", cc " + std::to_string(prop.major) + "." + std::to_string(prop.minor) +
         ", " + std::to_string(prop.totalGlobalMem >> 20) + " MiB, CUDA driver " + std::to_string(driver);
}

}  // namespace gpufftw::engine
