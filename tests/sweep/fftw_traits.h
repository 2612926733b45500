// FftwApi<T>: one name for each public FFTW3 entry point the sweep uses, so
// that every test is written once as a template and instantiated for
// float (fftwf_*) and double (fftw_*). Only <fftw3.h> is used: the same test
// links against the real FFTW or against gpufftw.
#ifndef GPUFFTW_TESTS_SWEEP_FFTW_TRAITS_H
#define GPUFFTW_TESTS_SWEEP_FFTW_TRAITS_H

#include <fftw3.h>

#include <cfloat>
#include <cstddef>

namespace sweep {

template <class T>
struct FftwApi;

// X is the FFTW prefix (fftw / fftwf); EPS the machine epsilon of T.
#define SWEEP_DEFINE_FFTW_API(T, X, NAME, EPS)                              \
  template <>                                                               \
  struct FftwApi<T> {                                                       \
    using real = T;                                                         \
    using complex = X##_complex;                                            \
    using plan = X##_plan;                                                  \
    using iodim = X##_iodim;                                                \
    using iodim64 = X##_iodim64;                                            \
    using r2r_kind = X##_r2r_kind;                                          \
    static constexpr const char* kName = NAME;                              \
    static constexpr double kEps = EPS;                                     \
    static T* alloc_real(std::size_t n) { return X##_alloc_real(n); }       \
    static void free(void* p) { X##_free(p); }                              \
    static constexpr auto destroy_plan = &X##_destroy_plan;                 \
    static constexpr auto execute = &X##_execute;                           \
    static constexpr auto alignment_of = &X##_alignment_of;                 \
    /* complex DFT */                                                       \
    static constexpr auto plan_dft_1d = &X##_plan_dft_1d;                   \
    static constexpr auto plan_dft_2d = &X##_plan_dft_2d;                   \
    static constexpr auto plan_dft_3d = &X##_plan_dft_3d;                   \
    static constexpr auto plan_dft = &X##_plan_dft;                         \
    static constexpr auto plan_many_dft = &X##_plan_many_dft;               \
    static constexpr auto plan_guru_dft = &X##_plan_guru_dft;               \
    static constexpr auto plan_guru64_dft = &X##_plan_guru64_dft;           \
    static constexpr auto plan_guru_split_dft = &X##_plan_guru_split_dft;   \
    static constexpr auto plan_guru64_split_dft =                           \
        &X##_plan_guru64_split_dft;                                         \
    /* real-data DFT */                                                     \
    static constexpr auto plan_dft_r2c_1d = &X##_plan_dft_r2c_1d;           \
    static constexpr auto plan_dft_r2c_2d = &X##_plan_dft_r2c_2d;           \
    static constexpr auto plan_dft_r2c_3d = &X##_plan_dft_r2c_3d;           \
    static constexpr auto plan_dft_r2c = &X##_plan_dft_r2c;                 \
    static constexpr auto plan_dft_c2r_1d = &X##_plan_dft_c2r_1d;           \
    static constexpr auto plan_dft_c2r_2d = &X##_plan_dft_c2r_2d;           \
    static constexpr auto plan_dft_c2r_3d = &X##_plan_dft_c2r_3d;           \
    static constexpr auto plan_dft_c2r = &X##_plan_dft_c2r;                 \
    static constexpr auto plan_many_dft_r2c = &X##_plan_many_dft_r2c;       \
    static constexpr auto plan_many_dft_c2r = &X##_plan_many_dft_c2r;       \
    static constexpr auto plan_guru_dft_r2c = &X##_plan_guru_dft_r2c;       \
    static constexpr auto plan_guru_dft_c2r = &X##_plan_guru_dft_c2r;       \
    static constexpr auto plan_guru64_dft_r2c = &X##_plan_guru64_dft_r2c;   \
    static constexpr auto plan_guru64_dft_c2r = &X##_plan_guru64_dft_c2r;   \
    static constexpr auto plan_guru_split_dft_r2c =                         \
        &X##_plan_guru_split_dft_r2c;                                       \
    static constexpr auto plan_guru_split_dft_c2r =                         \
        &X##_plan_guru_split_dft_c2r;                                       \
    static constexpr auto plan_guru64_split_dft_r2c =                       \
        &X##_plan_guru64_split_dft_r2c;                                     \
    static constexpr auto plan_guru64_split_dft_c2r =                       \
        &X##_plan_guru64_split_dft_c2r;                                     \
    /* real-to-real */                                                      \
    static constexpr auto plan_r2r_1d = &X##_plan_r2r_1d;                   \
    static constexpr auto plan_r2r_2d = &X##_plan_r2r_2d;                   \
    static constexpr auto plan_r2r_3d = &X##_plan_r2r_3d;                   \
    static constexpr auto plan_r2r = &X##_plan_r2r;                         \
    static constexpr auto plan_many_r2r = &X##_plan_many_r2r;               \
    static constexpr auto plan_guru_r2r = &X##_plan_guru_r2r;               \
    static constexpr auto plan_guru64_r2r = &X##_plan_guru64_r2r;           \
    /* new-array execute */                                                 \
    static constexpr auto execute_dft = &X##_execute_dft;                   \
    static constexpr auto execute_split_dft = &X##_execute_split_dft;       \
    static constexpr auto execute_dft_r2c = &X##_execute_dft_r2c;           \
    static constexpr auto execute_split_dft_r2c = &X##_execute_split_dft_r2c; \
    static constexpr auto execute_dft_c2r = &X##_execute_dft_c2r;           \
    static constexpr auto execute_split_dft_c2r = &X##_execute_split_dft_c2r; \
    static constexpr auto execute_r2r = &X##_execute_r2r;                   \
  };

SWEEP_DEFINE_FFTW_API(double, fftw, "f64", DBL_EPSILON)
SWEEP_DEFINE_FFTW_API(float, fftwf, "f32", FLT_EPSILON)

#undef SWEEP_DEFINE_FFTW_API

}  // namespace sweep

#endif  // GPUFFTW_TESTS_SWEEP_FFTW_TRAITS_H
