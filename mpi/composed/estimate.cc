#include "mpi/composed/estimate.h"

#include "dispatch/cost_model.h"

namespace gpufftw {
namespace mpi {
namespace composed {

std::vector<long> whole_sizes(const Layout &layout) {
  std::vector<long> n(layout.n.begin(), layout.n.end());
  if (layout.kind != Kind::C2C && !n.empty()) n.back() = static_cast<long>(layout.real_last);
  return n;
}

std::vector<long> share_sizes(const Layout &layout, int n_pes) {
  std::vector<long> n = whole_sizes(layout);
  if (!n.empty() && n_pes > 1) n.front() = (n.front() + n_pes - 1) / n_pes;
  return n;
}

bool real_surely_faster(double real_ms, double composed_ms) {
  // The composed plan on the GPUs, the real FFTW MPI on the CPUs.
  const Verdict v = judge(composed_ms, real_ms);
  return real_ms > 0 && composed_ms > 0 && !v.gpu && v.sure;
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
