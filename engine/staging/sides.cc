#include "engine/staging/sides.h"

namespace gpufftw::engine {

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
