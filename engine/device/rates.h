// Timing a copy in device memory, for the rates the engine prices its
// solvers by (engine.h's measure_rates) and the one dispatch prices half
// precision by (device_copy_rate).
#pragma once

#include <string>

namespace gpufftw::engine {

// Bytes read plus written per second by a device-to-device copy of a few
// tens of MiB on CUDA's current device, the fastest of a few after one to
// warm; false (with the call that failed) on a CUDA error.
bool time_device_copy(double *rate, std::string *why);

}  // namespace gpufftw::engine
