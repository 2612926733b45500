// Real-to-real transforms on the job's gathered path: the (staged) arrays
// gathered into one dense real buffer, one pass per dimension on it
// (r2r_axis.h), scattered back; staging and gathering are the c2c path's.
#include <algorithm>

#include "engine/device/context.h"
#include "engine/in_core/cufft_job.h"
#include "engine/r2r/r2r_axis.h"

namespace gpufftw::engine {
namespace {

template <class R>
bool passes(const std::vector<R2rAxis> &axes, const std::vector<Step> &steps, long long count, R *data, R *in,
            R *out, cudaStream_t stream, std::string *why) {
  size_t next = 0;
  for (const R2rAxis &a : axes) {
    if (a.length == 1) {
      if (a.kind == R2rKind::REDFT10 || a.kind == R2rKind::RODFT10) GPUFFTW_CK(r2r_scale(data, count, R(2), stream), why);
      continue;
    }
    GPUFFTW_CK(r2r_pre(a.kind, a.shape, a.in_len, data, in, stream), why);
    if (!exec_plan(steps[next++], stream, in, out, why)) return false;
    GPUFFTW_CK(r2r_post(a.kind, a.shape, a.out_len, out, data, stream), why);
  }
  return true;
}

}  // namespace

// A DFT plan per dimension over all its lines; a dimension of size 1
// needs none.
bool CufftJob::plan_r2r(std::string *why) {
  const size_t loops = g_.loops.size();
  for (size_t d = 0; d < g_.dims.size(); ++d) {
    const AxisShape shape{product(in_.n, 0, loops + d), g_.dims[d].n, product(in_.n, loops + d + 1, in_.n.size())};
    R2rAxis a;
    if (!r2r_axis(g_.kinds[d], shape, &a, why)) return false;
    if (a.length > 1) {
      Step s;
      s.type = cufft_type(a.fft, g_.real);
      long long n = a.length;
      if (!add_step(s, 1, &n, nullptr, 1, a.in_len, nullptr, 1, a.out_len, shape.outer * shape.inner, why))
        return false;
    }
    r2r_in_bytes_ = std::max(r2r_in_bytes_, a.in_bytes(g_.real));
    r2r_out_bytes_ = std::max(r2r_out_bytes_, a.out_bytes(g_.real));
    r2r_axes_.push_back(a);
  }
  return true;
}

bool CufftJob::run_r2r(void *data, std::vector<void *> *scratch, std::string *why) {
  void *in = nullptr, *out = nullptr;
  if (r2r_in_bytes_ && !alloc(r2r_in_bytes_, &in, scratch, why)) return false;
  if (r2r_out_bytes_ && !alloc(r2r_out_bytes_, &out, scratch, why)) return false;
  if (g_.real == Real::F32)
    return passes(r2r_axes_, steps_, in_.count(), static_cast<float *>(data), static_cast<float *>(in),
                  static_cast<float *>(out), stream_, why);
  return passes(r2r_axes_, steps_, in_.count(), static_cast<double *>(data), static_cast<double *>(in),
                static_cast<double *>(out), stream_, why);
}

}  // namespace gpufftw::engine
