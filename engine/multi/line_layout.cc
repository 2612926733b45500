#include "engine/multi/line_layout.h"

namespace gpufftw::engine {

std::optional<LineSplit> line_split(long long n, int gpus) {
  long long n1 = 1;
  for (long long d = 2; d * d <= n; ++d)
    if (n % d == 0) n1 = d;
  if (gpus < 1 || n1 < gpus || n / n1 < gpus) return std::nullopt;
  LineSplit s;
  s.n1 = n1;
  s.n2 = n / n1;
  s.columns = split_evenly(s.n2, gpus);
  s.rows = split_evenly(s.n1, gpus);
  return s;
}

Block line_in(const LineSplit &s, int k) {
  const Share &c = s.columns[k];
  return {c.begin, s.n2, 0, c.size(), c.size(), s.n1};
}

Block line_exchange(const LineSplit &s, int from, int to, const Share &part) {
  const Share &c = s.columns[from], &r = s.rows[to];
  return {(r.begin + part.begin) * c.size(), c.size(), part.begin * s.n2 + c.begin, s.n2, c.size(), part.size()};
}

Block line_out(const LineSplit &s, int k, const Share &part) {
  const Share &r = s.rows[k];
  return {part.begin, r.size(), r.begin + part.begin, s.n1, part.size(), s.n2};
}

}  // namespace gpufftw::engine
