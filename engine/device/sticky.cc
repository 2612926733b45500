#include "engine/device/sticky.h"

#include <atomic>
#include <mutex>

#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

struct Lost {
  std::atomic<bool> lost{false};
  std::mutex mutex;  // guards why
  std::string why;
};
Lost &state() {
  static Lost *s = new Lost;  // read by plans destroyed after static destructors
  return *s;
}

}  // namespace

bool sticky_error(cudaError_t e) {
  switch (e) {
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalAddress:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorLaunchTimeout:
    case cudaErrorContextIsDestroyed:
    // The driver's "something went wrong" (an Xid, a device fallen off
    // the bus): nothing says the context survived it.
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

void lose_engine(const std::string &why) {
  Lost &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.lost.load()) return;
  s.why = why;
  s.lost.store(true);
}

bool gpu_lost(std::string *why) {
  Lost &s = state();
  if (!s.lost.load(std::memory_order_acquire)) return false;
  if (why) {
    std::lock_guard<std::mutex> lock(s.mutex);
    *why = s.why;
  }
  return true;
}

}  // namespace gpufftw::engine
