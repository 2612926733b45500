// One transform as FFTW's guru64 interface states it: every plan entry point
// of the API turns its arguments into a Problem and hands it to the planner.
#pragma once

#include <fftw3.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gpufftw {

enum class Kind { C2C, R2C, C2R, R2R };
enum class Precision { F32, F64 };

// Strides count elements of the array they index: complex numbers for a
// complex array (interleaved), reals for a real or split array.
struct Dim {
  int64_t n, is, os;
};

struct Problem {
  Kind kind = Kind::C2C;
  Precision precision = Precision::F64;
  bool split = false;        // separate real and imaginary arrays
  std::vector<Dim> dims;     // the transform
  std::vector<Dim> howmany;  // the loops around it
  // Interleaved: in[0], out[0]. Split: in = {ri, ii} or {r} for r2c,
  // out = {ro, io} or {r} for c2r.
  void *in[2] = {nullptr, nullptr};
  void *out[2] = {nullptr, nullptr};
  int sign = FFTW_FORWARD;                   // c2c only
  std::vector<fftw_r2r_kind> r2r_kinds;      // r2r only, one per dim
  unsigned flags = 0;

  bool in_place() const { return in[0] == out[0]; }
  int64_t transform_size() const;  // product of dims' n
  int64_t batch() const;           // product of howmany's n
  std::string describe() const;    // "c2c f32 n=[64x64] howmany=[8] fwd oop"
  // The same planned with FFTW_ESTIMATE, now: not measured, and not only
  // from wisdom (FFTW_WISDOM_ONLY), as the GPU plan's twin and the
  // estimated plan that FFTW_MEASURE chose must exist.
  Problem estimated() const;
};

// One side of a problem as its axes, the loops then the dims: each one's
// size as that side holds it (the last dim n/2 + 1 on the complex side of
// an r2c or c2r) and the caller's stride, in elements of the side (complex
// numbers where interleaved, reals where real or split).
struct SideAxes {
  std::vector<int64_t> n, stride;
  bool complex = false, split = false;
  int64_t elem = 0;       // bytes an element of one array of the side takes
  int64_t count() const;  // the side's elements: the product of n
};
SideAxes side_axes(const Problem &p, bool output);

// Whether the input and output share memory without being the same array:
// the bytes each side spans from each of its pointers (side_axes, negative
// strides reaching below the pointer) meet. Sizes past 64 bits count as
// sharing. The real FFTW decides for itself whether it plans such a
// problem (a c2r of 3 points with the output one double into the input,
// say, it does not), so a plan cannot assume it will.
bool arrays_overlap(const Problem &p);

// What FFTW's own API checks before planning (rank and howmany rank >= 0,
// every n >= 1, howmany n >= 0), and r2r kinds that exist. FFTW returns a
// NULL plan for the first; an unknown kind it does not check at all.
bool valid(const Problem &p);

// The layout the basic and advanced interfaces imply: row-major dims over
// n with physical sizes inembed/onembed (NULL: n), strides is/os and one
// howmany loop of distance idist/odist; for r2c and c2r the padding rules of
// FFTW's rdft2_pad (real side n, or 2(n/2+1) in place; complex side n/2+1).
struct ManyLayout {
  int rank;
  const int *n;
  int howmany;
  const int *inembed;
  int istride, idist;
  const int *onembed;
  int ostride, odist;
};
bool from_many(const ManyLayout &m, Problem *p);  // false: not expressible

template <class IoDim>
void from_guru(int rank, const IoDim *dims, int howmany_rank, const IoDim *howmany_dims, Problem *p) {
  p->dims.clear();
  p->howmany.clear();
  for (int i = 0; i < rank; ++i) p->dims.push_back({dims[i].n, dims[i].is, dims[i].os});
  for (int i = 0; i < howmany_rank; ++i)
    p->howmany.push_back({howmany_dims[i].n, howmany_dims[i].is, howmany_dims[i].os});
}

const char *kind_name(Kind k);

// The precision of real type R (float or double).
template <class R>
constexpr Precision precision_of() {
  return sizeof(R) == sizeof(float) ? Precision::F32 : Precision::F64;
}

}  // namespace gpufftw
