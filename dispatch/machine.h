// What a calibration of this machine stays valid for, named without
// starting CUDA where the NVIDIA driver says enough: creating the context
// costs far more time than a plan, and device memory, and a process whose
// plans the model keeps on the CPU need never pay it.
#pragma once

#include <string>

namespace gpufftw {

// The NVIDIA kernel driver's version and each GPU's model and bus address,
// from `root` (/proc/driver/nvidia), and the variables that choose the
// device (CUDA_VISIBLE_DEVICES, GPUFFTW_DEVICE); "" where `root` has no
// readable version file (no driver, or a container without it).
std::string nvidia_driver_fingerprint(const std::string &root = "/proc/driver/nvidia");

// The CPU's model name from /proc/cpuinfo.
std::string cpu_model();

}  // namespace gpufftw
