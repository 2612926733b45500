#include "engine/staging/side.h"

#include <algorithm>

namespace gpufftw::engine {

long long product(const std::vector<long long> &v, size_t from, size_t to) {
  long long p = 1;
  for (size_t i = from; i < to; ++i) p *= v[i];
  return p;
}

long long Side::min_offset() const {
  long long o = 0;
  for (size_t i = 0; i < n.size(); ++i) o += std::min(0LL, (n[i] - 1) * stride[i]);
  return o;
}

long long Side::max_offset() const {
  long long o = 0;
  for (size_t i = 0; i < n.size(); ++i) o += std::max(0LL, (n[i] - 1) * stride[i]);
  return o;
}

bool Side::dense() const {
  long long size = 1;
  for (size_t i = n.size(); i-- > 0; size *= n[i])
    if (stride[i] != size) return false;
  return true;
}

Side make_side(const Geometry &g, bool output) {
  Side s;
  const size_t real_size = g.real == Real::F32 ? sizeof(float) : sizeof(double);
  s.complex = g.type == Type::C2C || (output ? g.type == Type::R2C : g.type == Type::C2R);
  s.split = s.complex && (output ? g.split_out : g.split_in);
  s.elem = s.complex && !s.split ? 2 * real_size : real_size;
  for (const Axis &a : g.loops) s.n.push_back(a.n), s.stride.push_back(output ? a.os : a.is);
  for (const Axis &a : g.dims) s.n.push_back(a.n), s.stride.push_back(output ? a.os : a.is);
  if (g.type != Type::C2C && s.complex) s.n.back() = s.n.back() / 2 + 1;
  return s;
}

long long extent(const Side &s) {
  long long e = 1;
  for (size_t i = 1; i < s.n.size(); ++i) e += (s.n[i] - 1) * s.stride[i];
  return e;
}

}  // namespace gpufftw::engine
