// Jobs that spread one geometry over several GPUs, each over its own PCIe
// link: a batch split into shares of its loop (batch_split.cc), or one
// large 2-D/3-D transform split into slabs whose exchange between the two
// passes goes GPU to GPU (slab_split.cc).
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

// The split over the set: where the set has several devices and the
// geometry is large enough to gain from them, a batch split into shares
// of its loop, else one transform in slabs; its make fails, with why,
// where neither takes the geometry (it then runs on the set's first GPU).
extern const Solver kSplitSolver;

std::unique_ptr<FftJob> make_batch_split_job(const Geometry &g, const std::vector<int> &set,
                                             const OneGpuPlanner &one_gpu, std::string *why_not);
std::unique_ptr<FftJob> make_slab_split_job(const Geometry &g, const std::vector<int> &set,
                                            const OneGpuPlanner &one_gpu, std::string *why_not);

// Bytes below which a problem stays on one GPU: splitting costs a thread
// start and a second device's synchronisation, tens of microseconds.
constexpr size_t kSplitMinBytes = size_t{8} << 20;

// Runs body(k) for k in [0, n) on n threads (k = 0 on the caller's), and
// returns when all are done.
void on_device_threads(int n, const std::function<void(int)> &body);

// A rendezvous of n threads, passed by each with arrive_and_wait() however
// its own work went, so that a failure on one GPU never strands the others.
class Rendezvous {
 public:
  explicit Rendezvous(int n) : n_(n) {}
  void arrive_and_wait();

 private:
  std::mutex mutex_;
  std::condition_variable all_;
  int n_, waiting_ = 0;
  unsigned long round_ = 0;
};

}  // namespace gpufftw::engine
