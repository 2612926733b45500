#include "mpi/composed/decide.h"

#include <gpufftw/gpufftw.h>

#include <cstddef>
#include <mutex>

#include "core/env.h"
#include "core/log.h"
#include "mpi/composed/exchange.h"

namespace gpufftw {
namespace mpi {
namespace composed {

Path path_setting() {
  static const char *const names[] = {"auto", "composed", "real"};
  static const Path paths[] = {Path::Auto, Path::Composed, Path::Real};
  return env::choice("GPUFFTW_MPI_PATH", names, paths, Path::Auto);
}

void check_settings() {
  path_setting();
  exchange_setting();
}

int gpu_here() { return gpufftw_get_mode() != GPUFFTW_MODE_CPU && gpufftw_gpu_available() ? 1 : 0; }

ExchangeSetting exchange_setting() {
  static const char *const names[] = {"auto", "host"};
  static const ExchangeSetting settings[] = {ExchangeSetting::Auto, ExchangeSetting::Host};
  return env::choice("GPUFFTW_MPI_EXCHANGE", names, settings, ExchangeSetting::Auto);
}

bool pick_gpu(MPI_Comm comm, Gpu *gpu, std::string *why) {
  MPI_Comm node = MPI_COMM_NULL;
  int rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Comm_split_type", rc), false;
  int place = 0, ranks = 1;
  rc = MPI_Comm_rank(node, &place);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_size(node, &ranks);
  const int freed = MPI_Comm_free(&node);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Comm_rank/MPI_Comm_size", rc), false;
  if (freed != MPI_SUCCESS) return *why = mpi_error("MPI_Comm_free", freed), false;
  // The set as the process first had it, and this rank's one GPU of it.
  static int set_size = 0, mine = -1;
  static std::once_flag once;
  std::call_once(once, [place] {
    if (!gpu_here()) return;
    constexpr int kMax = 256;
    int set[kMax];
    const int count = gpufftw_get_devices(set, kMax);
    if (count < 1) return;
    set_size = count < kMax ? count : kMax;
    const int pick = set[place % set_size];
    if (count > 1 && !gpufftw_set_devices(&pick, 1)) return;
    mine = pick;
    GPUFFTW_LOG(Info, "MPI: this rank is number %d on its node; its local transforms use GPU %d (of %d in the set)",
                place, mine, count);
  });
  gpu->device = gpu_here() ? mine : -1;
  gpu->shared = ranks > set_size;
  return true;
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
