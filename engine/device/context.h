// Engine internals shared by its files: the lazy context, call checking,
// fault injection and cuFFT reached through dlopen.
#pragma once

#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cufftXt.h>

#include <string>
#include <vector>

#include "engine/engine.h"

namespace gpufftw::engine {

// The device engine calls on this thread run on: the one a DeviceScope
// names, else the first of the device set. Valid once gpu_available().
int device();

// Makes `d` the device of this thread's engine calls (and CUDA's current
// device) until it ends, opening it on first use; ok() is false (why()
// says so) where the device cannot be opened.
class DeviceScope {
 public:
  explicit DeviceScope(int d);
  ~DeviceScope();
  DeviceScope(const DeviceScope &) = delete;
  DeviceScope &operator=(const DeviceScope &) = delete;
  bool ok() const { return ok_; }
  const std::string &why() const { return why_; }

 private:
  int previous_;
  bool ok_;
  std::string why_;
};

// Lets each device of `set` read and write the others' memory directly
// (NVLink or PCIe peer access) where the hardware allows; where it does
// not, copies between them pass through the host. The engine's buffers
// come from each device's stream-ordered pool, which peer access alone does
// not open: a kernel reading another device's pool memory faults, and the
// copy engines stage such copies through the host. So each pool is opened
// to the others too. True where every pair of the set reads each other's
// pool memory directly.
bool enable_peer_access(const std::vector<int> &set);

// Device memory one job may hold at most on device(): GPUFFTW_DEVICE_MEMORY
// (bytes, or with a K, M or G suffix), by default four fifths of what was
// free when the device was opened.
size_t device_memory_cap();

// False (and `why` names the call and CUDA's message) unless ok.
bool check(cudaError_t e, const char *call, std::string *why);
bool check(cufftResult r, const char *call, std::string *why);
#define GPUFFTW_CK(call, why)                                   \
  do {                                                          \
    if (!::gpufftw::engine::check((call), #call, (why))) return false; \
  } while (0)

// Where an array of the call (memory types `in` and `out`) is device or
// managed memory, `stream` (the engine's own, non-blocking) is made to wait
// for the work the program queued on its default streams, as cuFFT on the
// default stream would. A
// cudaMemcpy from pageable memory returns before its DMA lands, so a
// kernel of ours could otherwise read the array before the program's data
// is in it (seen: all zeros in 2 of 60 runs of the r2r GPU tests).
bool after_default_streams(Memory in, Memory out, cudaStream_t stream, std::string *why);

// GPUFFTW_FAULT=plan|execute|alloc makes that step fail as a CUDA error
// would, for tests of the fall-back paths; STEP@N only on device N.
// GPUFFTW_FAULT=sticky makes the execute step launch a kernel that traps:
// a real sticky error, after which the engine is lost (gpu_lost()).
bool fault_injected(const char *step, std::string *why);

// cuFFT's functions, from libcufft.so.12 opened at first use, so that
// gpufftw loads where no CUDA toolkit is installed.
struct Cufft {
  decltype(&::cufftCreate) create = nullptr;
  decltype(&::cufftMakePlanMany64) make_plan_many64 = nullptr;
  decltype(&::cufftSetStream) set_stream = nullptr;
  decltype(&::cufftDestroy) destroy = nullptr;
  decltype(&::cufftExecC2C) exec_c2c = nullptr;
  decltype(&::cufftExecR2C) exec_r2c = nullptr;
  decltype(&::cufftExecC2R) exec_c2r = nullptr;
  decltype(&::cufftExecZ2Z) exec_z2z = nullptr;
  decltype(&::cufftExecD2Z) exec_d2z = nullptr;
  decltype(&::cufftExecZ2D) exec_z2d = nullptr;
  // Half precision (CUDA_C_16F) is planned and run through the Xt API only.
  decltype(&::cufftXtMakePlanMany) xt_make_plan_many = nullptr;
  decltype(&::cufftXtExec) xt_exec = nullptr;
};
const Cufft &cufft();  // valid once gpu_available() is true

}  // namespace gpufftw::engine
