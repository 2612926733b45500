// NCCL, the GPUs' own collectives (NVLink inside a node, the network
// between nodes), opened at run time from libnccl.so.2 as gpufftw opens
// cuFFT: the library loads and every plan still works where NCCL is absent.
// The few declarations of NCCL's C ABI the exchange uses are written here,
// so building needs no nccl.h.
#pragma once

#include <cuda_runtime_api.h>
#include <mpi.h>

#include <cstddef>
#include <memory>
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

// One NCCL communicator over the ranks of an MPI communicator, each rank on
// its own GPU; destroyed with the object.
class NcclComm {
 public:
  NcclComm() = default;
  NcclComm(NcclComm &&other) noexcept : api_(other.api_), comm_(other.comm_) { other.comm_ = nullptr; }
  NcclComm &operator=(NcclComm &&other) noexcept;
  NcclComm(const NcclComm &) = delete;
  NcclComm &operator=(const NcclComm &) = delete;
  ~NcclComm();

  // Collective on `comm`: rank 0 makes NCCL's unique id, MPI_Bcast hands
  // it to the rest, and every rank joins on GPU `device`. Every rank of
  // `comm` must call it with NCCL loaded. False, with why, where a call
  // failed on this rank (the caller then votes the communicator away on
  // every rank).
  static bool create(MPI_Comm comm, const NcclApi &api, int device, NcclComm *out, std::string *why);

  const NcclApi &api() const { return *api_; }
  NcclApi::Comm get() const { return comm_; }

 private:
  const NcclApi *api_ = nullptr;
  NcclApi::Comm comm_ = nullptr;
};

// Collective on `comm`: the NCCL communicator of its ranks on their GPUs
// (each rank's `device`), made at the first device-resident plan over
// `comm` and kept with it (an MPI attribute, released when `comm` is freed
// or MPI finalized), so later plans over the same ranks join no new one.
// nullptr, with why, where it could not be made on some rank (every rank
// then gets nullptr).
std::shared_ptr<const NcclComm> nccl_of(MPI_Comm comm, const NcclApi &api, int device, std::string *why);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
