#include "mpi/composed/nccl_comm.h"

#include <cuda_runtime_api.h>

#include <memory>
#include <mutex>

#include "mpi/composed/exchange.h"

namespace gpufftw {
namespace mpi {
namespace composed {

NcclComm &NcclComm::operator=(NcclComm &&other) noexcept {
  if (this != &other) {
    if (comm_) api_->comm_destroy(comm_);
    api_ = other.api_;
    comm_ = other.comm_;
    other.comm_ = nullptr;
  }
  return *this;
}

NcclComm::~NcclComm() {
  if (comm_) api_->comm_destroy(comm_);
}

bool NcclComm::create(MPI_Comm comm, const NcclApi &api, int device, NcclComm *out, std::string *why) {
  int me = 0, n = 0, rc;
  if ((rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS || (rc = MPI_Comm_size(comm, &n)) != MPI_SUCCESS)
    return *why = mpi_error("MPI_Comm_rank/MPI_Comm_size", rc), false;
  // Rank 0's id, and whether it made one: the others must not wait in
  // ncclCommInitRank for a rank 0 that never joins.
  struct {
    NcclApi::UniqueId id;
    int made;
  } root{};
  if (me == 0) {
    const NcclApi::Result r = api.get_unique_id(&root.id);
    root.made = r == 0;
    if (!root.made) *why = api.error("ncclGetUniqueId", r);
  }
  if ((rc = MPI_Bcast(&root, sizeof root, MPI_BYTE, 0, comm)) != MPI_SUCCESS)
    return *why = mpi_error("MPI_Bcast", rc), false;
  if (!root.made) {
    if (me != 0) *why = "rank 0 could not make NCCL's unique id";
    return false;
  }
  const cudaError_t e = cudaSetDevice(device);
  if (e != cudaSuccess) return *why = std::string("cudaSetDevice: ") + cudaGetErrorString(e), false;
  NcclApi::Comm c = nullptr;
  const NcclApi::Result r = api.comm_init_rank(&c, n, root.id, me);
  if (r != 0) return *why = api.error("ncclCommInitRank", r), false;
  NcclComm made;
  made.api_ = &api;
  made.comm_ = c;
  *out = std::move(made);
  return true;
}

namespace {

// What the attribute holds: the communicator and the GPU it was made on.
struct Kept {
  std::shared_ptr<const NcclComm> comm;
  int device;
};

int release(MPI_Comm, int, void *kept, void *) {
  delete static_cast<Kept *>(kept);
  return MPI_SUCCESS;
}

}  // namespace

std::shared_ptr<const NcclComm> nccl_of(MPI_Comm comm, const NcclApi &api, int device, std::string *why) {
  static int key = MPI_KEYVAL_INVALID;
  static std::once_flag once;
  static int made_key = MPI_SUCCESS;
  std::call_once(once, [] { made_key = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, release, &key, nullptr); });
  // Whether every rank holds one for its GPU: all reuse it, or all make a new one.
  Kept *kept = nullptr;
  int found = 0;
  if (made_key == MPI_SUCCESS && MPI_Comm_get_attr(comm, key, &kept, &found) != MPI_SUCCESS) found = 0;
  int reuse = found && kept->device == device;
  int rc = MPI_Allreduce(MPI_IN_PLACE, &reuse, 1, MPI_INT, MPI_MIN, comm);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Allreduce", rc), nullptr;
  if (reuse) return kept->comm;
  NcclComm made;
  if (!on_every_rank(NcclComm::create(comm, api, device, &made, why), comm, "join NCCL", why)) return nullptr;
  auto shared = std::make_shared<const NcclComm>(std::move(made));
  // Kept where MPI lets it; a plan works the same without (it holds its own).
  if (made_key == MPI_SUCCESS) {
    auto *hold = new Kept{shared, device};
    if (MPI_Comm_set_attr(comm, key, hold) != MPI_SUCCESS) delete hold;
  }
  return shared;
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
