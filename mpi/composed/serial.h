// gpufftw's own serial API (the public fftw_ / fftwf_ functions, which in
// every way in are gpufftw's), typed by precision: the local transforms of
// a composed plan go through the same planner as a program's
// fftw_plan_guru64_dft, so dispatch puts each on the GPU or the real FFTW.
#pragma once

#include <fftw3-mpi.h>

#include <cstdio>

namespace gpufftw {
namespace mpi {
namespace composed {

template <class R>
struct Serial;

#define GPUFFTW_COMPOSED_SERIAL(R_, X)                                                                         \
  template <>                                                                                                  \
  struct Serial<R_> {                                                                                          \
    using C = X##complex;                                                                                      \
    using Plan = X##plan;                                                                                      \
    static constexpr char precision = sizeof(R_) == sizeof(float) ? 'f' : 'd';                                 \
    static Plan plan(int rank, const X##iodim64 *dims, int howmany_rank, const X##iodim64 *howmany_dims, C *in, \
                     C *out, int sign, unsigned flags) {                                                       \
      return X##plan_guru64_dft(rank, dims, howmany_rank, howmany_dims, in, out, sign, flags);                 \
    }                                                                                                          \
    static Plan plan_r2c(int rank, const X##iodim64 *dims, int howmany_rank, const X##iodim64 *howmany_dims,    \
                         R_ *in, C *out, unsigned flags) {                                                     \
      return X##plan_guru64_dft_r2c(rank, dims, howmany_rank, howmany_dims, in, out, flags);                   \
    }                                                                                                          \
    static void execute(Plan p, C *in, C *out) { X##execute_dft(p, in, out); }                                 \
    static Plan plan_c2r(int rank, const X##iodim64 *dims, int howmany_rank, const X##iodim64 *howmany_dims,    \
                         C *in, R_ *out, unsigned flags) {                                                     \
      return X##plan_guru64_dft_c2r(rank, dims, howmany_rank, howmany_dims, in, out, flags);                   \
    }                                                                                                          \
    static void execute_r2c(Plan p, R_ *in, C *out) { X##execute_dft_r2c(p, in, out); }                       \
    static void execute_c2r(Plan p, C *in, R_ *out) { X##execute_dft_c2r(p, in, out); }                       \
    static void destroy(Plan p) { X##destroy_plan(p); }                                                        \
    static void fprint(Plan p, FILE *f) { X##fprint_plan(p, f); }                                              \
    static void flops(Plan p, double *add, double *mul, double *fma) { X##flops(p, add, mul, fma); }           \
    static double cost(Plan p) { return X##cost(p); }                                                          \
    static double estimate_cost(Plan p) { return X##estimate_cost(p); }                                        \
    static C *alloc(size_t n) { return X##alloc_complex(n); }                                                  \
    static int planner_nthreads() { return X##planner_nthreads(); }                                            \
    static void free(C *p) { X##free(p); }                                                                     \
  };
GPUFFTW_COMPOSED_SERIAL(double, fftw_)
GPUFFTW_COMPOSED_SERIAL(float, fftwf_)
#undef GPUFFTW_COMPOSED_SERIAL

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
