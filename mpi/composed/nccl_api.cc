#include "mpi/composed/nccl_api.h"

#include <dlfcn.h>

#include <mutex>
#include <type_traits>

namespace gpufftw {
namespace mpi {
namespace composed {

std::string NcclApi::error(const char *call, Result result) const {
  const char *text = error_string ? error_string(result) : nullptr;
  return std::string(call) + ": " + (text ? text : "NCCL error " + std::to_string(result));
}

const NcclApi *nccl_api(std::string *why) {
  static NcclApi api;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    // Never closed: its functions serve every plan until the process ends.
    void *lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *e = dlerror();
      failure = std::string("no NCCL (dlopen libnccl.so.2: ") + (e ? e : "not found") + ")";
      return;
    }
    auto load = [lib](const char *name, auto *fn) {
      *fn = reinterpret_cast<std::remove_pointer_t<decltype(fn)>>(dlsym(lib, name));
      if (!*fn && failure.empty()) failure = std::string("NCCL without ") + name + " (dlsym)";
    };
    load("ncclGetUniqueId", &api.get_unique_id);
    load("ncclCommInitRank", &api.comm_init_rank);
    load("ncclCommDestroy", &api.comm_destroy);
    load("ncclSend", &api.send);
    load("ncclRecv", &api.recv);
    load("ncclGroupStart", &api.group_start);
    load("ncclGroupEnd", &api.group_end);
    load("ncclGetErrorString", &api.error_string);
  });
  if (!failure.empty()) return *why = failure, nullptr;
  return &api;
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
