// One NCCL communicator over the ranks of an MPI communicator, each rank on
// its own GPU, and the one a communicator keeps for its later plans.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>

#include "mpi/composed/nccl_api.h"

namespace gpufftw {
namespace mpi {
namespace composed {

// Destroyed with the object.
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
