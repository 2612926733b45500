// A composed distributed complex DFT, r2c or c2r: the real FFTW MPI's data
// layout, the transforms done by gpufftw's serial planner on each rank's
// own data, the global transposes by MPI between them.
//
// With the input cut along dimension f (0, or 1 under FFTW_MPI_TRANSPOSED_IN)
// and o the other of dims 0 and 1:
//   1. a serial plan transforms every dimension but f over this rank's
//      planes, writing them [o][my f][rest], the order the exchange sends
//      (an r2c's real input is cut along 0 and this step is its r2c, so
//      every later step is a complex one; a c2r's transforms only o, or
//      just copies where o is 1);
//   2. an exchange hands out o and gathers f: [my o][f][rest];
//   3. a serial plan transforms dimension f; where the output is cut along o
//      (FFTW_MPI_TRANSPOSED_OUT, or TRANSPOSED_IN alone) this is in place in
//      the output and the plan is done;
//   4. otherwise it writes [f][my o][rest] and a second exchange hands out f
//      and gathers o into the output;
//   5. a c2r's output, cut along 0, then holds complex planes: the c2r of
//      dims 1.. turns them into FFTW's padded real ones in place.
// On one rank the whole transform is one serial plan between the two
// layouts. The serial plans never communicate, so ranks whose plans landed
// on the GPU and ranks whose plans landed on the CPU still meet in the
// same exchanges. That is the host route: every step on host arrays, the
// exchanges through MPI on host memory. Where every rank has a GPU of its
// own and NCCL, the plan takes the device-resident route instead
// (resident.h): the same steps, the data on the GPU from the copy in to the
// copy out.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "core/where.h"
#include "mpi/composed/exchange.h"
#include "mpi/composed/layout.h"
#include "mpi/composed/serial.h"
#ifdef GPUFFTW_HAVE_CUDA
#include "mpi/composed/resident.h"
#endif

namespace gpufftw {
namespace mpi {
namespace composed {

template <class R>
class Plan {
 public:
  using S = Serial<R>;
  using C = typename S::C;

  // This rank's part on the host route, planned on in/out (FFTW's planner
  // flags, the MPI ones taken off) without communicating; nullptr with why
  // where it cannot be. `in` and `out` are complex, or real on an r2c's or
  // c2r's real side (whose sign is FFTW_FORWARD or FFTW_BACKWARD as
  // FFTW's). `host_why` says why the exchanges go through host memory.
  static std::unique_ptr<Plan> build(const Layout &layout, int me, int n_pes, void *in, void *out, int sign,
                                     unsigned flags, const std::string &host_why, std::string *why);
#ifdef GPUFFTW_HAVE_CUDA
  // This rank's part on the device-resident route.
  static std::unique_ptr<Plan> build(const Layout &layout, int me, int n_pes, void *in, void *out,
                                     std::unique_ptr<Resident<R>> resident);
#endif
  ~Plan();
  Plan(const Plan &) = delete;
  Plan &operator=(const Plan &) = delete;

  // The communicator the exchanges run on (the plan's own duplicate; freed
  // with the plan).
  void adopt(MPI_Comm comm) { comm_ = comm; }

  void execute(void *in, void *out);
  void execute() { execute(in_, out_); }
  void fprint(FILE *f) const;
  void flops(double *add, double *mul, double *fma) const;
  double cost() const;
  double estimate_cost() const;
  // "gpu" or "cpu", for the foreign plan's ops and the log.
  const char *where() const { return where_name(where_); }
  const char *why() const { return why_.c_str(); }
  // Adds to the why (what measuring found).
  void note(const std::string &more) { why_ += more; }

 private:
  Plan(const Layout &layout, int me, int n_pes, void *in, void *out)
      : layout_(layout), me_(me), n_pes_(n_pes), in_(in), out_(out) {}
  void execute_on_host(void *in, void *out);
  // Every serial plan of either route.
  std::vector<typename S::Plan> steps() const;
  Layout layout_;
  int me_ = 0, n_pes_ = 1;
  void *in_ = nullptr, *out_ = nullptr;
  typename S::Plan first_ = nullptr, second_ = nullptr, last_ = nullptr;  // steps 1, 3, 5 (nullptr: none here)
  bool whole_ = false;                                   // one serial plan from input to output
  bool second_in_place_ = false;                         // step 3 ends in the output
  Exchange there_, back_;                                // steps 2 and 4
  C *send_ = nullptr, *middle_ = nullptr;
  MPI_Comm comm_ = MPI_COMM_NULL;
  Where where_ = Where::Cpu;
  std::string why_;
#ifdef GPUFFTW_HAVE_CUDA
  std::unique_ptr<Resident<R>> resident_;
#endif
};

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
