// A composed plan whose data stays on this rank's GPU between one copy in
// and one copy out (route.h has the order of things):
//   - the input slab crosses PCIe in chunks, each transformed in place by
//     step 1 and packed for the exchange while the next one is still on
//     its way;
//   - the exchanges run GPU to GPU through NCCL, grouped sends and
//     receives; the first one lands in the order step 3 takes;
//   - step 3 runs in place on the GPU; the output crosses PCIe in chunks,
//     each as soon as it is ready (after its part of the second exchange,
//     or its turn into the output's order where there is none).
// The serial steps are gpufftw's own plans on the device buffers, so the
// planner still picks cuFFT or the project's kernels for each; every step
// is a transform over contiguous or evenly strided data, which they run
// fastest. c2c and r2c; a c2r's last step works on the output's planes,
// which this order does not hold on the GPU, so a c2r keeps the host route.
#pragma once

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mpi/composed/layout.h"
#include "mpi/composed/nccl_comm.h"
#include "mpi/composed/route.h"
#include "mpi/composed/steps.h"

namespace gpufftw {
namespace mpi {
namespace composed {

// Whether a layout can take the device-resident route at all (c2c and r2c
// on more than one rank); else why not.
bool resident_suits(const Layout &layout, int n_pes, std::string *why);

template <class R>
class Resident {
 public:
  using S = Serial<R>;
  using C = typename S::C;

  // This rank's part on GPU `device`, exchanging through `nccl`: device
  // buffers, streams, and the steps planned on those buffers (FFTW's planner
  // flags, the MPI ones taken off). No communication. nullptr with why where
  // it cannot be.
  static std::unique_ptr<Resident> build(const Layout &layout, int me, int n_pes, int device,
                                         std::shared_ptr<const NcclComm> nccl, int sign,
                                         unsigned serial_flags, std::string *why);
  ~Resident();
  Resident(const Resident &) = delete;
  Resident &operator=(const Resident &) = delete;

  // The time of an execute's phases, in ms: the copy in, with step 1 and
  // the pack overlapping it; the first exchange; step 3; the second
  // exchange or the turn, with the copy out.
  struct Times {
    double in = 0, there = 0, third = 0, out = 0;
  };

  // One execute from host `in` to host `out`; false, with why, where a CUDA
  // or NCCL call failed. `times`, where given, gets its phases' times.
  bool execute(const void *in, void *out, Times *times, std::string *why);

  const std::string &steps() const { return steps_; }
  // Every serial plan, for fftw_flops, fftw_cost and fftw_print_plan (each
  // once, whatever the chunks that run it).
  std::vector<typename S::Plan> plans() const;

 private:
  Resident() = default;
  bool exchange(const Transfer &t, const char *from, char *to, std::string *why);
  // The blocks copied from `from` to `to` on `stream`.
  bool copy(const std::vector<Block> &blocks, const char *from, char *to, cudaMemcpyKind kind, cudaStream_t stream,
            std::string *why);
  Layout layout_;
  Route route_;
  int device_ = 0;
  std::shared_ptr<const NcclComm> nccl_;
  size_t unit_ = 0;  // bytes of one unit
  char *x_ = nullptr, *y_ = nullptr, *z_ = nullptr;
  cudaStream_t in_ = nullptr, out_ = nullptr, net_ = nullptr;
  std::vector<cudaEvent_t> arrived_, ready_;  // per chunk: in its buffer; ready to copy out
  std::map<ptrdiff_t, typename S::Plan> first_;  // step 1 by the planes it takes
  typename S::Plan third_ = nullptr;
  Transfer there_;
  std::vector<Transfer> back_;  // per chunk, where there is a second exchange
  std::vector<std::vector<Block>> packs_, turns_;  // per chunk
  std::string steps_;
};

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
