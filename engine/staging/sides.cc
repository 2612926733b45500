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

// In place, whether both sides address the one buffer alike: every
// axis's stride the same in bytes, but an r2c's or c2r's last dim, whose
// real and complex elements step alike in their own units (FFTW's padded
// rows).
bool one_layout_in_place(const Geometry &g, const Side &in, const Side &out) {
  const size_t last = in.stride.size() - 1;
  for (size_t i = 0; i < in.stride.size(); ++i) {
    const bool own_units = g.type != Type::C2C && i == last;
    const long long a = in.stride[i] * (own_units ? 1 : static_cast<long long>(in.elem)),
                    b = out.stride[i] * (own_units ? 1 : static_cast<long long>(out.elem));
    if (a != b) return false;
  }
  return true;
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
  // cuFFT runs a batch's transforms at once: in place through two layouts,
  // one transform's outputs would land on inputs another has not read.
  if (g.in_place && !one_layout_in_place(g, in, out)) return *why_not = "in place with other output strides", false;
  return true;
}

}  // namespace gpufftw::engine
