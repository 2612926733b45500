#include "mpi/composed/estimate.h"

#include <algorithm>
#include <cmath>

#include "mpi/composed/route.h"

namespace gpufftw {
namespace mpi {
namespace composed {

std::vector<long> whole_sizes(const Layout &layout) {
  std::vector<long> n(layout.n.begin(), layout.n.end());
  if (layout.kind != Kind::C2C && !n.empty()) n.back() = static_cast<long>(layout.real_last);
  return n;
}

int exchange_count(const Layout &l, int n_pes) {
  if (n_pes < 2) return 0;
  return make_route(l, 0, n_pes, 1, 1).back ? 2 : 1;
}

double exchange_bytes(const Layout &l, int n_pes, size_t value_bytes) {
  if (n_pes < 2) return 0;
  // The composed plan's own route (route.h): its cuts of f and o, and
  // whether a second exchange follows.
  const Route r = make_route(l, 0, n_pes, 1, 1);
  ptrdiff_t there = 0, back = 0;  // units, each of `rest` values
  for (int q = 0; q < n_pes; ++q) {
    // Rank q holds [its f][o] and sends [its f][p's o] to each other p.
    there = std::max(there, r.f_in.count[q] * (r.no - r.o_mid.count[q]));
    // Then [f][its o], and sends [p's f][its o] to each other p.
    if (r.back) back = std::max(back, (r.nf - r.f_out.count[q]) * r.o_mid.count[q]);
  }
  return static_cast<double>(there + back) * static_cast<double>(l.rest) * static_cast<double>(value_bytes);
}

int64_t whole_points(const Layout &layout) {
  int64_t points = layout.howmany;
  for (long d : whole_sizes(layout)) points *= d;
  return points;
}

size_t alltoall_bytes_each(const Layout &l, int n_pes, size_t value_bytes, size_t cap) {
  const int count = exchange_count(l, n_pes);
  if (count == 0) return 0;
  const double one = std::min(exchange_bytes(l, n_pes, value_bytes) / count, static_cast<double>(cap));
  return static_cast<size_t>(std::ceil(one / (n_pes - 1)));
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
