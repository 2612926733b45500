#include "mpi/composed/estimate.h"

#include <algorithm>
#include <cmath>

namespace gpufftw {
namespace mpi {
namespace composed {

std::vector<long> whole_sizes(const Layout &layout) {
  std::vector<long> n(layout.n.begin(), layout.n.end());
  if (layout.kind != Kind::C2C && !n.empty()) n.back() = static_cast<long>(layout.real_last);
  return n;
}

double exchange_bytes(const Layout &l, int n_pes, size_t value_bytes) {
  if (n_pes < 2) return 0;
  const int f = l.in_dim, o = 1 - f;
  const ptrdiff_t nf = l.n[f], no = l.n[o];
  const bool second = l.out_dim != o;
  // o as the middle is cut: as the output where there is no second
  // exchange, else FFTW's default cut (plan.cc, route.cc).
  const Split middle = second ? default_split(no, n_pes) : l.out;
  ptrdiff_t there = 0, back = 0;  // units, each of `rest` values
  for (int q = 0; q < n_pes; ++q) {
    // Rank q holds [its f][o] and sends [its f][p's o] to each other p.
    there = std::max(there, l.in.count[q] * (no - middle.count[q]));
    // Then [f][its o], and sends [p's f][its o] to each other p.
    if (second) back = std::max(back, (nf - l.out.count[q]) * middle.count[q]);
  }
  return static_cast<double>(there + back) * static_cast<double>(l.rest) * static_cast<double>(value_bytes);
}

int64_t whole_points(const Layout &layout) {
  int64_t points = layout.howmany;
  for (long d : whole_sizes(layout)) points *= d;
  return points;
}

int exchange_count(const Layout &l, int n_pes) {
  if (n_pes < 2) return 0;
  return l.out_dim != 1 - l.in_dim ? 2 : 1;
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
