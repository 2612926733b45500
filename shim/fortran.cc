// The legacy Fortran 77 API (dfftw_*_ and sfftw_*_), both precisions from
// one source (fortran.inc).
#include <fftw3.h>

#include <cstdio>
#include <vector>

#define GPUFFTW_STR_(x) #x
#define GPUFFTW_STR(x) GPUFFTW_STR_(x)

namespace gpufftw {
namespace {

// An int array reversed from Fortran's order to C's; data() is NULL where
// the caller passed none, as the C API expects for a missing nembed.
class Reversed {
 public:
  Reversed(int rank, const int *v) : null_(!v) {
    if (v && rank > 0) values_.assign(v, v + rank);
    for (size_t i = 0; i < values_.size() / 2; ++i) std::swap(values_[i], values_[values_.size() - 1 - i]);
  }
  const int *data() const { return null_ ? nullptr : values_.data(); }

 private:
  bool null_;
  std::vector<int> values_;
};

Reversed reversed(int rank, const int *v) { return Reversed(rank, v); }

std::vector<fftw_r2r_kind> reversed_kinds(int rank, const int *kinds) {
  std::vector<fftw_r2r_kind> k;
  for (int i = rank - 1; kinds && i >= 0; --i) k.push_back(static_cast<fftw_r2r_kind>(kinds[i]));
  return k;
}

// Guru dims from parallel arrays, in the order given (FFTW does not reverse
// them either).
template <class IoDim>
std::vector<IoDim> iodims(int rank, const int *n, const int *is, const int *os) {
  std::vector<IoDim> d;
  for (int i = 0; i < rank; ++i) d.push_back({n[i], is[i], os[i]});
  return d;
}

// Adapters from FFTW's C wisdom callbacks to the Fortran ones, which take
// their character by reference.
struct F77WriteChar {
  void (*write)(char *, void *);
  void *data;
  static void call(char c, void *self) {
    auto *w = static_cast<F77WriteChar *>(self);
    w->write(&c, w->data);
  }
};
struct F77ReadChar {
  void (*read)(int *, void *);
  void *data;
  static int call(void *self) {
    auto *r = static_cast<F77ReadChar *>(self);
    int c = 0;
    r->read(&c, r->data);
    return c < 0 ? EOF : c;
  }
};

}  // namespace
}  // namespace gpufftw

#pragma GCC visibility push(default)

#define X(name) fftwf_##name
#define F77(name) sfftw_##name##_
#define F77U(name) sfftw_##name##__
#define R float
#define C fftwf_complex
#define P fftwf_plan
#define IODIM fftwf_iodim
#include "shim/fortran.inc"
#undef X
#undef F77
#undef F77U
#undef R
#undef C
#undef P
#undef IODIM

#define X(name) fftw_##name
#define F77(name) dfftw_##name##_
#define F77U(name) dfftw_##name##__
#define R double
#define C fftw_complex
#define P fftw_plan
#define IODIM fftw_iodim
#include "shim/fortran.inc"

#pragma GCC visibility pop
