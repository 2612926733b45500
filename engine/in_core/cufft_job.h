// The job that runs a geometry through cuFFT while its arrays fit the
// device memory cap: the solvers "own kernel", "r2r passes" and "cuFFT"
// (in core), priced above FP16 and below out of core. Its paths live in files of their own,
// all under engine/in_core/:
//   cufft_job.cc     creation, run, scratch
//   routes.cc        the path for arrays of each kind, chosen when the
//                    job is made
//   regions.cc       host arrays merged into byte regions and staged
//   direct_dense.cc  cuFFT on the arrays as they lie, or on dense copies
//   chunked.cc       a batch in chunks over three streams
//   slabs.cc         one large 2-D/3-D transform on pinned arrays in two
//                    overlapped phases
//   r2r_passes.cc    real-to-real, a pass per dimension (engine/r2r/) on
//                    the gathered path
//   own_kernel.cc    our own kernel instead of cuFFT on the direct path,
//                    where tuning found it faster (the solver before
//                    cuFFT's)
// A single 2-D/3-D transform past the cap is the out-of-core solvers'
// (engine/out_of_core/), a 1-D one their four-step's.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

#include "engine/cufft/plan_cache.h"
#include "engine/engine.h"
#include "engine/in_core/routes.h"
#include "engine/kernels/transform_plan.h"
#include "engine/r2r/r2r_axis.h"
#include "engine/solver/solver.h"
#include "engine/staging/gather_scatter.h"
#include "engine/staging/host_copy.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine {

// A contiguous byte range of the caller's memory that the job reads or
// writes, staged to the device when it is host memory.
struct Region {
  char *start = nullptr, *end = nullptr;
  bool input = false, output = false, device = true;
  size_t written = 0;  // output bytes the transform writes in it
  char *dev = nullptr;
};

class CufftJob final : public FftJob {
 public:
  // own: our kernels are tried in place of cuFFT where they suit.
  // `layout`: in_core_layout(g, the cap).
  CufftJob(const Geometry &g, InCoreLayout layout, bool own, std::string path);
  ~CufftJob() override;

  bool init(std::string *why);
  std::string path() const override { return path_; }
  // Device bytes one run holds at most: staged arrays or chunk buffers,
  // dense buffers, cuFFT's work areas.
  size_t device_bytes() const;
  bool run(void *const in[2], void *const out[2], std::string *why) override;
  // Its cuFFT plans destroyed, not kept in the cache for the next job: a
  // job over the cap must not leave work areas that large behind.
  void drop_plans();
  // Whether our kernel runs in place of cuFFT (on device arrays only, for
  // a batch in chunks); else why cuFFT stays.
  bool runs_own_kernel() const { return own_ != nullptr; }
  const Reason &own_kernel_said() const { return own_said_; }

 private:
  using Map = std::function<void *(const void *)>;

  // cufft_job.cc
  bool runs_on_legacy_stream(Memory in_mem, Memory out_mem, bool in_place) const;
  bool run_on_legacy_stream(void *in, void *out, std::string *why);
  // in_mem, out_mem: where in[0] and out[0] lie.
  bool run_on_stream(void *const in[2], void *const out[2], Memory in_mem, Memory out_mem,
                     std::vector<void *> *scratch, std::string *why);
  bool alloc(size_t bytes, void **p, std::vector<void *> *scratch, std::string *why);
  bool join_streams(std::string *why);
  static bool owned(const void *p, const std::vector<void *> *scratch);
  bool add_step(Step step, int rank, const long long *n, long long *inembed, long long istride, long long idist,
                long long *onembed, long long ostride, long long odist, long long batch, std::string *why);
  bool exec(const Step &s, void *in, void *out, std::string *why) { return exec_plan(s, stream_, in, out, why); }
  // cuFFT's c2r overwrites its input, and the engine never modifies an
  // input it does not also write: an input already on the device, not
  // also the output (and not this run's scratch), gets a copy first.
  bool c2r_needs_copy(bool also_output, bool scratch = false) const {
    return g_.type == Type::C2R && !also_output && !scratch;
  }

  // regions.cc
  // in_mem, out_mem: where in[0] and out[0] lie (split arrays' second
  // halves are asked).
  std::vector<Region> regions_of(void *const in[2], void *const out[2], Memory in_mem, Memory out_mem) const;
  bool stage(Region *r, std::vector<void *> *scratch, std::string *why);

  // direct_dense.cc
  bool plan_direct(long long batch, std::string *why);
  bool plan_dense(std::string *why);
  Strided strided(const Side &s, void *const p[2], const Map &map) const;
  bool run_dense(void *const in[2], void *const out[2], const Map &map, std::vector<void *> *scratch,
                 std::string *why);

  // chunked.cc
  bool plan_chunks(std::string *why);
  // Sets whole_step_ where a plan of the whole batch fits the cap.
  void plan_whole_batch();
  // That plan destroyed (our kernel runs instead), whole_step_ back to -1.
  void drop_whole_batch();
  bool run_staged_chunks(char *in, char *out, bool in_dev, bool out_dev, std::vector<void *> *scratch,
                         std::string *why);
  bool run_chunks(char *in, char *out, bool in_dev, bool out_dev, std::vector<void *> *scratch, std::string *why);

  // slabs.cc
  bool plan_slabs(std::string *why);
  bool run_slabs(char *in, char *out, std::vector<void *> *scratch, std::string *why);

  // r2r_passes.cc
  bool plan_r2r(std::string *why);
  // The r2r in place on the dense buffer `data`.
  bool run_r2r(void *data, std::vector<void *> *scratch, std::string *why);

  Geometry g_;
  Side in_, out_;
  InCoreLayout layout_;
  Routes routes_;  // set by init, once our kernel's tuning is known
  bool try_own_;
  std::string path_;
  Reason own_said_;  // what pick_own_kernel said: what runs, or why cuFFT stays
  std::vector<Step> steps_;
  // The plan of the whole problem as the arrays lie: its index in steps_
  // (a chunked batch's only for device arrays, where it fits), -1 where
  // there is none.
  int whole_step_ = -1;
  // Runs instead of the whole problem's plan, or of the chunks on device
  // arrays, where set.
  std::unique_ptr<kernels::TransformPlan> own_;
  std::vector<Step> chunk_plans_;  // one per stream, then the last chunk's
  std::vector<Step> slab_plans_, pencil_plans_;  // two each: one per stream
  std::vector<R2rAxis> r2r_axes_;  // one per dim; a DFT step each unless of size 1
  size_t r2r_in_bytes_ = 0, r2r_out_bytes_ = 0;  // the largest pass's work buffers
  std::vector<cudaStream_t> streams_;
  cudaStream_t stream_ = nullptr;
  HostCopier copier_;
};

// Three solvers share the job, each an entry of the table:
// kOwnKernelSolver, our kernels in place of cuFFT where tuning found them
// faster (own_kernel.h; no job where it kept cuFFT); kR2rSolver, r2r as a
// pass per dimension (r2r_passes.cc); kInCoreSolver, cuFFT for c2c, r2c
// and c2r. Each make fails where cuFFT cannot plan the geometry or the job
// needs more than the cap.
extern const Solver kOwnKernelSolver, kR2rSolver, kInCoreSolver;

}  // namespace gpufftw::engine
