// What tells FFTW's precisions apart, in one place: PrecisionTraits<R> for
// R = float, double, long double gives FFTW's types of that precision, its
// prefix (fftwf_, fftw_, fftwl_), its libraries' file names, the word the
// log uses for it, a short name for tables and test labels, and the machine
// epsilon.
#pragma once

#include <fftw3.h>

#include <limits>

namespace gpufftw {

template <class R>
struct PrecisionTraits;

// X: FFTW's prefix; LIB: the letter its libraries add to libfftw3.
#define GPUFFTW_PRECISION_TRAITS(R_, X, LIB, WORD, SHORT)                                      \
  template <>                                                                                  \
  struct PrecisionTraits<R_> {                                                                 \
    using real = R_;                                                                           \
    using complex = X##complex;                                                                \
    using plan = X##plan;                                                                      \
    using iodim = X##iodim;                                                                    \
    using iodim64 = X##iodim64;                                                                \
    using r2r_kind = X##r2r_kind;                                                              \
    static constexpr const char *prefix = #X;                                                  \
    static constexpr const char *lib = "libfftw3" LIB ".so.3";                                 \
    static constexpr const char *threads_lib = "libfftw3" LIB "_threads.so.3";                 \
    static constexpr const char *mpi_lib = "libfftw3" LIB "_mpi.so.3";                         \
    static constexpr const char *word = WORD;                                                  \
    static constexpr const char *short_name = SHORT;                                           \
    static constexpr double epsilon = static_cast<double>(std::numeric_limits<R_>::epsilon()); \
  };
GPUFFTW_PRECISION_TRAITS(float, fftwf_, "f", "single", "f32")
GPUFFTW_PRECISION_TRAITS(double, fftw_, "", "double", "f64")
GPUFFTW_PRECISION_TRAITS(long double, fftwl_, "l", "long double", "f64x")
#undef GPUFFTW_PRECISION_TRAITS

}  // namespace gpufftw
