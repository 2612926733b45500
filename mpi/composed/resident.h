// A composed plan whose data stays on this rank's GPU between one copy in
// and one copy out (route.h has the order of things):
//   - the input slab crosses PCIe in chunks, each transformed by step 1 while
//     the next one is still on its way;
//   - the exchanges run GPU to GPU through NCCL, grouped sends and receives,
//     and what arrives is put in place by copies on the GPU;
//   - step 3 runs on the GPU; the output crosses PCIe in chunks, each as soon
//     as it is ready (after its part of the second exchange, or its part of
//     step 3 where there is no second exchange).
// The serial steps are gpufftw's own plans on the device buffers, so the
// planner still picks cuFFT or the project's kernels for each. c2c and r2c;
// a c2r's last step works on the output's planes, which this order does not
// hold on the GPU, so a c2r keeps the host route.
#pragma once

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mpi/composed/layout.h"
#include "mpi/composed/nccl_api.h"
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
  static std::unique_ptr<Resident> build(const Layout &layout, int me, int n_pes, int device, NcclComm nccl, int sign,
                                         unsigned serial_flags, std::string *why);
  ~Resident();
  Resident(const Resident &) = delete;
  Resident &operator=(const Resident &) = delete;

  // One execute from host `in` to host `out`; false, with why, where a CUDA
  // or NCCL call failed. `ms`, where given, gets the time of the three
  // phases: in and step 1; the first exchange; step 3, the second exchange
  // and out.
  bool execute(const void *in, void *out, double ms[3], std::string *why);

  const std::string &steps() const { return steps_; }
  // Every serial plan, for fftw_flops, fftw_cost and fftw_print_plan (each
  // once, whatever the chunks that run it).
  std::vector<typename S::Plan> plans() const;

 private:
  Resident() = default;
  bool exchange(const Transfer &t, const char *from, char *to, std::string *why);
  Layout layout_;
  Route route_;
  int device_ = 0;
  NcclComm nccl_;
  size_t unit_ = 0;  // bytes of one unit
  char *x_ = nullptr, *y_ = nullptr, *z_ = nullptr;
  cudaStream_t in_ = nullptr, out_ = nullptr, net_ = nullptr;
  std::vector<cudaEvent_t> arrived_, exchanged_;  // per chunk
  std::map<ptrdiff_t, typename S::Plan> first_, third_;  // step plans by the planes they take
  typename S::Plan across_ = nullptr;                    // step 3 where a second exchange follows
  Transfer there_;
  std::vector<Transfer> back_;
  std::string steps_;
};

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
