#include <algorithm>

#include "engine/device/context.h"
#include "engine/in_core/cufft_job.h"

namespace gpufftw::engine {

// The direct path: one plan over the arrays as they lie (cuFFT's
// advanced layout), `batch` transforms of the one loop.
bool CufftJob::plan_direct(long long batch, std::string *why) {
  const size_t loops = g_.loops.size(), rank = g_.dims.size();
  long long inembed[3], onembed[3], istride, ostride;
  embed(in_, loops, inembed, &istride);
  embed(out_, loops, onembed, &ostride);
  // cuFFT rejects a zero distance even for one transform (guru howmany
  // rank 0): give it the span of each side.
  const long long idist = loops ? g_.loops[0].is : in_.max_offset() + 1;
  const long long odist = loops ? g_.loops[0].os : out_.max_offset() + 1;
  std::vector<long long> n;
  for (const Axis &a : g_.dims) n.push_back(a.n);
  Step s;
  s.type = cufft_type(g_.type, g_.real);
  s.sign = g_.sign;
  return add_step(s, static_cast<int>(rank), n.data(), inembed, istride, idist, onembed, ostride, odist, batch, why);
}

// Dense buffers, loops outer: the last (up to) three dims in one plan,
// each dim before them as strided 1-D transforms of the complex side.
bool CufftJob::plan_dense(std::string *why) {
  if (g_.type == Type::R2R) return plan_r2r(why);
  const size_t rank = g_.dims.size();
  const size_t tail = std::min<size_t>(rank, 3), lead = rank - tail;
  std::vector<long long> n;
  for (const Axis &a : g_.dims) n.push_back(a.n);
  std::vector<long long> cn = n;  // the complex side's dims
  if (g_.type != Type::C2C) cn.back() = cn.back() / 2 + 1;
  const long long loops = product(in_.n, 0, g_.loops.size());
  const long long outer_tail = loops * product(n, 0, lead);
  auto add_leading = [&](int sign) -> bool {
    for (size_t k = 0; k < lead; ++k) {
      Step s;
      s.type = complex_type(g_.real);
      s.sign = sign;
      s.in_to_out = false;
      const long long inner = product(cn, k + 1, rank);
      s.outer = loops * product(cn, 0, k);
      s.outer_step = cn[k] * inner;
      long long nk = cn[k], embed_k = cn[k];
      if (!add_step(s, 1, &nk, &embed_k, inner, 1, &embed_k, inner, 1, inner, why)) return false;
    }
    return true;
  };
  // c2r: the leading dims first, backward, on the complex input.
  if (g_.type == Type::C2R && !add_leading(CUFFT_INVERSE)) return false;
  Step t;
  t.type = cufft_type(g_.type, g_.real);
  t.sign = g_.sign;
  const size_t first_tail = g_.loops.size() + lead;
  if (!add_step(t, static_cast<int>(tail), n.data() + lead, nullptr, 1, product(in_.n, first_tail, in_.n.size()),
                nullptr, 1, product(out_.n, first_tail, out_.n.size()), outer_tail, why))
    return false;
  return g_.type == Type::C2R || add_leading(g_.type == Type::R2C ? CUFFT_FORWARD : g_.sign);
}

Strided CufftJob::strided(const Side &s, void *const p[2], const Map &map) const {
  Strided a;
  a.naxes = static_cast<int>(s.n.size());
  for (int i = 0; i < a.naxes; ++i) a.n[i] = s.n[i], a.stride[i] = s.stride[i];
  const size_t real_size = g_.real == Real::F32 ? sizeof(float) : sizeof(double);
  a.comp[0] = map(p[0]);
  if (s.complex && s.split) {
    a.comp[1] = map(p[1]);
  } else if (s.complex) {
    a.comp[1] = static_cast<char *>(map(p[0])) + real_size;
    a.step = 2;
  }
  return a;
}

// The gathered path: a kernel packs the (staged) arrays densely, cuFFT
// works on the dense buffers, a kernel scatters the result back.
bool CufftJob::run_dense(void *const in[2], void *const out[2], const Map &map, std::vector<void *> *scratch,
                         std::string *why) {
  const size_t real_size = g_.real == Real::F32 ? sizeof(float) : sizeof(double);
  void *d_in = nullptr, *d_out = nullptr;
  if (!alloc(in_.count() * (in_.complex ? 2 : 1) * real_size, &d_in, scratch, why)) return false;
  d_out = d_in;
  const bool own_output = g_.type == Type::R2C || g_.type == Type::C2R;  // c2c and r2r: in place
  if (own_output && !alloc(out_.count() * (out_.complex ? 2 : 1) * real_size, &d_out, scratch, why)) return false;
  const Strided src = strided(in_, in, map), dst = strided(out_, out, map);
  if (g_.real == Real::F32)
    GPUFFTW_CK(gather(src, static_cast<float *>(d_in), in_.count(), stream_), why);
  else
    GPUFFTW_CK(gather(src, static_cast<double *>(d_in), in_.count(), stream_), why);
  // The leading dims' 1-D transforms work in place on the complex buffer.
  char *cbuf = static_cast<char *>(g_.type == Type::R2C ? d_out : d_in);
  if (g_.type == Type::R2R) {
    if (!run_r2r(d_in, scratch, why)) return false;
  } else {
    for (const Step &s : steps_) {
      if (s.in_to_out) {
        if (!exec(s, d_in, d_out, why)) return false;
        continue;
      }
      for (long long o = 0; o < s.outer; ++o) {
        char *at = cbuf + o * s.outer_step * static_cast<long long>(2 * real_size);
        if (!exec(s, at, at, why)) return false;
      }
    }
  }
  if (g_.real == Real::F32)
    GPUFFTW_CK(scatter(static_cast<const float *>(d_out), dst, out_.count(), stream_), why);
  else
    GPUFFTW_CK(scatter(static_cast<const double *>(d_out), dst, out_.count(), stream_), why);
  return true;
}

}  // namespace gpufftw::engine
