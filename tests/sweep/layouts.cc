#include "layouts.h"

#include <algorithm>
#include <numeric>

namespace sweep {
namespace {

// Appends to `out` base + every offset of the row-major index space
// counts x strides.
void offsets_into(const std::vector<Index>& counts,
                  const std::vector<Index>& strides, Index base,
                  std::vector<Index>& out) {
  const std::size_t r = counts.size();
  for (Index c : counts)
    if (c == 0) return;
  std::vector<Index> idx(r, 0);
  for (;;) {
    Index off = base;
    for (std::size_t d = 0; d < r; ++d) off += idx[d] * strides[d];
    out.push_back(off);
    std::size_t d = r;
    while (d > 0) {
      --d;
      if (++idx[d] < counts[d]) break;
      idx[d] = 0;
      if (d == 0) return;
    }
    if (r == 0) return;
  }
}

}  // namespace

std::vector<Index> side_counts(const std::vector<IoDim>& dims, bool half_last) {
  std::vector<Index> c;
  for (const IoDim& d : dims) c.push_back(d.n);
  if (half_last && !c.empty()) c.back() = c.back() / 2 + 1;
  return c;
}

std::vector<Index> logical_shape(const Geometry& g) {
  return side_counts(g.dims, false);
}

std::vector<Index> element_offsets(const Geometry& g, bool input,
                                   bool half_last) {
  std::vector<Index> hc, hs, tc = side_counts(g.dims, half_last), ts;
  for (const IoDim& d : g.howmany) {
    hc.push_back(d.n);
    hs.push_back(input ? d.is : d.os);
  }
  for (const IoDim& d : g.dims) ts.push_back(input ? d.is : d.os);
  std::vector<Index> bases, out;
  offsets_into(hc, hs, 0, bases);
  for (Index b : bases) offsets_into(tc, ts, b, out);
  return out;
}

Index extent(const Geometry& g, bool input, bool half_last) {
  std::vector<Index> tc = side_counts(g.dims, half_last);
  Index e = 1;
  for (std::size_t d = 0; d < g.dims.size(); ++d) {
    if (tc[d] == 0) return 0;
    e += (tc[d] - 1) * (input ? g.dims[d].is : g.dims[d].os);
  }
  for (const IoDim& d : g.howmany) {
    if (d.n == 0) return 0;
    e += (d.n - 1) * (input ? d.is : d.os);
  }
  return e;
}

std::vector<Index> row_major_strides(const std::vector<Index>& phys,
                                     Index unit) {
  std::vector<Index> s(phys.size());
  Index acc = unit;
  for (std::size_t d = phys.size(); d-- > 0;) {
    s[d] = acc;
    acc *= phys[d];
  }
  return s;
}

std::vector<Index> padded_strides(Rng& rng, const std::vector<Index>& counts,
                                  const std::vector<std::size_t>& order,
                                  Index unit) {
  static const std::vector<Index> kPads = {0, 0, 1, 3};
  std::vector<Index> s(counts.size());
  Index cur = unit;
  for (std::size_t d : order) {
    s[d] = cur;
    cur = cur * counts[d] + pick(rng, kPads);
  }
  return s;
}

std::vector<Index> random_strides(Rng& rng, const std::vector<Index>& counts,
                                  Index unit) {
  std::vector<std::size_t> order(counts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (std::size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[static_cast<std::size_t>(rand_below(rng, static_cast<Index>(i)))]);
  return padded_strides(rng, counts, order, unit);
}

}  // namespace sweep
