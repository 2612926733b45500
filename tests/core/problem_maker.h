// A single-precision problem of `kind` over `dims` and `howmany`, its
// arrays unset (an r2r's kinds REDFT10 on every dim): the tests of what
// is derived from a problem's layout alone.
#pragma once

#include <utility>
#include <vector>

#include "core/problem.h"

namespace gpufftw {

inline Problem f32(Kind kind, std::vector<Dim> dims, std::vector<Dim> howmany = {}) {
  Problem p;
  p.kind = kind;
  p.precision = Precision::F32;
  p.dims = std::move(dims);
  p.howmany = std::move(howmany);
  if (kind == Kind::R2R) p.r2r_kinds.assign(p.dims.size(), FFTW_REDFT10);
  return p;
}

}  // namespace gpufftw
