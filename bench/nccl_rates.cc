// nccl_rates: NCCL's all-to-all over the GPUs of one host, measured in the
// run that compares against it: the rate a split's exchange between GPUs
// could reach through NCCL. NCCL is opened at run time as gpufftw's MPI
// layer opens it (mpi/composed/nccl_api.h). For each count k of GPUs (2, 4
// and so on up to the machine's, and the machine's own count), one
// communicator over the first k GPUs (one process, one thread), and each
// GPU sends kBytes / k to every GPU of them (itself too, as the composed
// plan's exchange does) in one NCCL group. Prints per count, the median of
// 7 rounds,
//   NCCL k bytes_per_gpu ms GBps
// (GBps: the bytes each GPU sends to the others over the time, GB = 1e9
// bytes), or "NCCL none WHY" where NCCL or a second GPU is missing.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mpi/composed/nccl_api.h"

namespace {

using gpufftw::mpi::composed::NcclApi;

constexpr size_t kBytes = size_t{512} << 20;  // per GPU: one GPU's half of c2c f32 512^3

#define CK(x)                                                                   \
  do {                                                                          \
    const cudaError_t e = (x);                                                  \
    if (e != cudaSuccess) {                                                     \
      std::printf("NCCL none %s: %s\n", #x, cudaGetErrorString(e));             \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

struct Gpu {
  char *send = nullptr, *recv = nullptr;
  cudaStream_t stream = nullptr;
  NcclApi::Comm comm = nullptr;
};

bool nccl_ok(const NcclApi &api, NcclApi::Result r, const char *call) {
  if (r != 0) std::printf("NCCL none %s\n", api.error(call, r).c_str());
  return r == 0;
}

// One all-to-all over `gpus` (GPU d is device d); seconds, or -1.
double all_to_all(const NcclApi &api, std::vector<Gpu> &gpus) {
  const size_t k = gpus.size(), part = kBytes / k;
  const auto t0 = std::chrono::steady_clock::now();
  if (!nccl_ok(api, api.group_start(), "ncclGroupStart")) return -1;
  NcclApi::Result r = 0;
  for (size_t d = 0; d < k && r == 0; ++d)
    for (size_t q = 0; q < k && r == 0; ++q) {
      r = api.send(gpus[d].send + q * part, part, NcclApi::kBytes, static_cast<int>(q), gpus[d].comm, gpus[d].stream);
      if (r == 0)
        r = api.recv(gpus[d].recv + q * part, part, NcclApi::kBytes, static_cast<int>(q), gpus[d].comm, gpus[d].stream);
    }
  const NcclApi::Result end = api.group_end();
  if (!nccl_ok(api, r, "ncclSend/ncclRecv") || !nccl_ok(api, end, "ncclGroupEnd")) return -1;
  for (size_t d = 0; d < k; ++d) {
    CK(cudaSetDevice(static_cast<int>(d)));
    CK(cudaStreamSynchronize(gpus[d].stream));
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One communicator over the first k GPUs, joined from this thread.
bool join(const NcclApi &api, std::vector<Gpu> &gpus) {
  NcclApi::UniqueId id;
  if (!nccl_ok(api, api.get_unique_id(&id), "ncclGetUniqueId")) return false;
  if (!nccl_ok(api, api.group_start(), "ncclGroupStart")) return false;
  NcclApi::Result r = 0;
  for (size_t d = 0; d < gpus.size() && r == 0; ++d) {
    CK(cudaSetDevice(static_cast<int>(d)));
    r = api.comm_init_rank(&gpus[d].comm, static_cast<int>(gpus.size()), id, static_cast<int>(d));
  }
  const NcclApi::Result end = api.group_end();
  return nccl_ok(api, r, "ncclCommInitRank") && nccl_ok(api, end, "ncclGroupEnd");
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    std::printf("NCCL none fewer than two GPUs, nothing to exchange\n");
    return 0;
  }
  std::string why;
  const NcclApi *api = gpufftw::mpi::composed::nccl_api(&why);
  if (!api) {
    std::printf("NCCL none %s\n", why.c_str());
    return 0;
  }
  std::vector<Gpu> all(count);
  for (int d = 0; d < count; ++d) {
    CK(cudaSetDevice(d));
    CK(cudaMalloc(reinterpret_cast<void **>(&all[d].send), kBytes));
    CK(cudaMalloc(reinterpret_cast<void **>(&all[d].recv), kBytes));
    CK(cudaMemset(all[d].send, 1, kBytes));
    CK(cudaStreamCreateWithFlags(&all[d].stream, cudaStreamNonBlocking));
  }
  std::vector<int> counts;
  for (int c = 2; c < count; c *= 2) counts.push_back(c);
  counts.push_back(count);
  for (int k : counts) {
    std::vector<Gpu> first(all.begin(), all.begin() + k);
    if (!join(*api, first)) return 1;
    std::vector<double> secs;
    for (int r = 0; r < 9; ++r) {
      const double s = all_to_all(*api, first);
      if (s < 0) return 1;
      if (r >= 2) secs.push_back(s);  // the first two: NCCL's connections and buffers
    }
    const double t = median(secs);
    std::printf("NCCL %d %zu %.3f %.2f\n", k, kBytes, t * 1e3, kBytes / static_cast<double>(k) * (k - 1) / t / 1e9);
    for (Gpu &g : first) api->comm_destroy(g.comm);
  }
  return 0;
}
