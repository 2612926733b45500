// NCCL, the GPUs' own collectives (NVLink inside a node, the network
// between nodes), opened at run time from libnccl.so.2 as gpufftw opens
// cuFFT: the library loads and every plan still works where NCCL is absent.
// The few declarations of NCCL's C ABI the exchange uses are written here,
// so building needs no nccl.h. No MPI in here: bench/nccl_rates loads NCCL
// through it too (the communicator over MPI ranks: nccl_comm.h).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace gpufftw {
namespace mpi {
namespace composed {

struct NcclApi {
  using Result = int;  // ncclResult_t; 0 is success
  using Comm = struct ncclComm *;
  struct UniqueId {
    char internal[128];
  };
  static constexpr int kBytes = 1;  // ncclUint8: counts are in bytes

  Result (*get_unique_id)(UniqueId *id);
  Result (*comm_init_rank)(Comm *comm, int n_ranks, UniqueId id, int rank);
  Result (*comm_destroy)(Comm comm);
  Result (*send)(const void *buf, size_t count, int type, int peer, Comm comm, cudaStream_t stream);
  Result (*recv)(void *buf, size_t count, int type, int peer, Comm comm, cudaStream_t stream);
  Result (*group_start)();
  Result (*group_end)();
  const char *(*error_string)(Result result);

  // "ncclSend: <NCCL's words>"
  std::string error(const char *call, Result result) const;
};

// NCCL's functions, loaded once per process; nullptr, with why, where
// libnccl.so.2 or one of its functions is missing.
const NcclApi *nccl_api(std::string *why);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
