// The one DispatchStore of the process (CUDA build only: the store is the
// GPU's and the machine's), made at its first use.
#pragma once

#include <string>

#include "dispatch/store.h"

namespace gpufftw {

// The store; the engine's kernel picks are lent it as it is made.
DispatchStore &dispatch_store();

// The NVIDIA driver's account of the machine (machine.h), read once.
const std::string &driver_fingerprint();

}  // namespace gpufftw
