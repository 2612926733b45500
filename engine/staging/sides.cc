#include "engine/staging/sides.h"

#include <algorithm>

namespace gpufftw::engine {

long long product(const std::vector<long long> &v, size_t from, size_t to) {
  long long p = 1;
  for (size_t i = from; i < to; ++i) p *= v[i];
  return p;
}

cufftType cufft_type(Type t, Real r) {
  switch (t) {
    case Type::C2C: return r == Real::F32 ? CUFFT_C2C : CUFFT_Z2Z;
    case Type::R2C: return r == Real::F32 ? CUFFT_R2C : CUFFT_D2Z;
    case Type::C2R: return r == Real::F32 ? CUFFT_C2R : CUFFT_Z2D;
    case Type::R2R: break;  // cuFFT has none: engine/r2r/r2r_axis.h picks a DFT per dim
  }
  return CUFFT_C2C;
}

cufftType complex_type(Real r) { return r == Real::F32 ? CUFFT_C2C : CUFFT_Z2Z; }

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

bool embed(const Side &s, size_t first_dim, long long *nembed, long long *stride) {
  const size_t rank = s.n.size() - first_dim;
  *stride = s.stride.back();
  nembed[0] = s.n[first_dim];
  for (size_t i = 1; i < rank; ++i) {
    const long long hi = s.stride[first_dim + i - 1], lo = s.stride[first_dim + i];
    if (lo <= 0 || hi % lo != 0 || hi / lo < s.n[first_dim + i]) return false;
    nembed[i] = hi / lo;
  }
  return *stride > 0;
}

long long extent(const Side &s) {
  long long e = 1;
  for (size_t i = 1; i < s.n.size(); ++i) e += (s.n[i] - 1) * s.stride[i];
  return e;
}

bool direct_layout(const Geometry &g, std::string *why_not) {
  const Side in = make_side(g, false), out = make_side(g, true);
  long long e[3], s;
  if (g.type == Type::R2R) return *why_not = "r2r: kernels on dense buffers", false;
  if (in.split || out.split) return *why_not = "split arrays", false;
  if (g.dims.size() > 3) return *why_not = "rank " + std::to_string(g.dims.size()), false;
  if (g.loops.size() > 1) return *why_not = "several howmany dims", false;
  if (!g.loops.empty() && (g.loops[0].is <= 0 || g.loops[0].os <= 0)) return *why_not = "a non-positive distance", false;
  if (!embed(in, g.loops.size(), e, &s) || !embed(out, g.loops.size(), e, &s))
    return *why_not = "strides cuFFT's advanced layout cannot state", false;
  return true;
}

}  // namespace gpufftw::engine
