#include "dispatch/dispatch.h"

namespace gpufftw {

std::string choice_key(const Problem &p, int threads, bool pinned) {
  std::string k = std::string(kind_name(p.kind)) + (p.precision == Precision::F32 ? ".f32" : ".f64");
  auto dims = [&k](char tag, const std::vector<Dim> &v) {
    k += '.';
    k += tag;
    for (const Dim &d : v) k += std::to_string(d.n) + ":" + std::to_string(d.is) + ":" + std::to_string(d.os) + ",";
  };
  dims('n', p.dims);
  dims('h', p.howmany);
  if (p.kind == Kind::C2C) k += p.sign == FFTW_FORWARD ? ".fwd" : ".bwd";
  if (p.kind == Kind::R2R) {
    k += ".k";
    for (fftw_r2r_kind r : p.r2r_kinds) k += std::to_string(r) + ",";
  }
  k += p.in_place() ? ".ip" : ".oop";
  if (p.split) k += ".split";
  // A choice timed in half precision (GPUFFTW_PRECISION=fp16) is not one in single.
  if (half_wanted(p)) k += ".fp16";
  // One timed against the real FFTW's FFTW_MEASURE plan does not stand
  // for FFTW_PATIENT or FFTW_EXHAUSTIVE, whose plans may run faster, as
  // FFTW's own wisdom of lesser rigor does not.
  if ((p.flags & FFTW_EXHAUSTIVE) == FFTW_EXHAUSTIVE)
    k += ".exhaustive";
  else if (p.flags & FFTW_PATIENT)
    k += ".patient";
  k += ".t" + std::to_string(threads) + (pinned ? ".pinned" : ".pageable");
  return k;
}

}  // namespace gpufftw
