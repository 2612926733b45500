// Jobs that spread one geometry over several GPUs, each over its own PCIe
// link, three solvers of the engine's table: a batch split into shares of
// its loop (batch_split.cc), one large 2-D/3-D transform split into slabs
// whose exchange between the two passes goes GPU to GPU (slab_split.cc),
// or one long 1-D transform split by the four-step method, exchanged
// likewise (line_split.cc). Which geometries each takes and its price are
// split_shapes.h's; the planner makes the cheapest that takes one.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/multi/whole_on_owner.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

// In half precision (Geometry::half) the batch split alone, each share a
// half job.
extern const Solver kBatchSplitSolver;
extern const Solver kSlabSplitSolver;
extern const Solver kLineSplitSolver;

// Chunks per GPU and pass of a single transform's split: enough to hide
// the copies behind the FFTs.
constexpr int kSplitChunks = 4;
// A copy out writes rows of at least this many bytes into the host array,
// joining chunks until they do: narrower pitched copies run well below the
// link's rate while the GPU computes (docs/multi-gpu.md, "What limits
// it"), and a 2-D transform's chunks are that narrow.
constexpr size_t kMinRowBytes = size_t{64} << 10;

// Runs body(k) for k in [0, n) on n threads (k = 0 on the caller's), and
// returns when all are done.
void on_device_threads(int n, const std::function<void(int)> &body);

// One transform split between two halves on each GPU of `devices`, each
// GPU on a thread of its own: first(k) on every GPU; then, only where every
// GPU's first half went well, second(k), which may read what the others'
// first halves left in their memory; where set, then, only where every
// second half went well, third(k), which may queue a wait for what the
// others' second halves queued (so overwrite what they read); then
// settle(k), whether or not its steps ran, which waits for its queued
// work; and once every GPU has settled (nothing reads another GPU's memory
// any more), release(k). A failure on one GPU never strands the others.
// False with the first failing GPU's why, the earliest step's first.
struct Halves {
  std::function<bool(int k, std::string *why)> first, second, third, settle;
  std::function<void(int k)> release;
};
bool run_halves(const std::vector<int> &devices, const Halves &halves, std::string *why);

// A single transform split between two halves over the set (slabs, the
// 1-D split): arrays in one GPU's memory are transformed there, whole
// (whole_on_owner.h), since the halves stage from host arrays; host
// arrays run the halves.
class HalvesJob : public FftJob {
 public:
  HalvesJob(const Geometry &g, int first_device, OneGpuPlanner one_gpu);
  bool run(void *const in[2], void *const out[2], std::string *why) final;

 protected:
  virtual Halves halves(const char *in, char *out) = 0;
  // Whether GPU `device`'s share of `bytes` fits under the device memory
  // cap; else why not.
  static bool fits(int device, size_t bytes, std::string *why);

  std::vector<int> devices_;  // the GPUs of the split, k-th at k

 private:
  WholeOnOwner whole_;
};

}  // namespace gpufftw::engine
