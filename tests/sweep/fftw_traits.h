// FftwApi<T>: one name for each public FFTW3 entry point the tests use, so
// that every test is written once as a template and instantiated for
// float (fftwf_*) and double (fftw_*); the types, names and epsilon of the
// precision come from gpufftw's PrecisionTraits. Only <fftw3.h> is used:
// the same test links against the real FFTW or against gpufftw.
#ifndef GPUFFTW_TESTS_SWEEP_FFTW_TRAITS_H
#define GPUFFTW_TESTS_SWEEP_FFTW_TRAITS_H

#include <fftw3.h>

#include <cstddef>

#include "../../core/precision_traits.h"

namespace sweep {

template <class T>
struct FftwApi;

// X is the FFTW prefix (fftw / fftwf).
#define SWEEP_DEFINE_FFTW_API(T, X)                                         \
  template <>                                                               \
  struct FftwApi<T> : gpufftw::PrecisionTraits<T> {                         \
    static T* alloc_real(std::size_t n) { return X##_alloc_real(n); }       \
    static complex* alloc_complex(std::size_t n) {                          \
      return X##_alloc_complex(n);                                          \
    }                                                                       \
    static void* malloc(std::size_t n) { return X##_malloc(n); }            \
    static void free(void* p) { X##_free(p); }                              \
    static constexpr auto destroy_plan = &X##_destroy_plan;                 \
    static constexpr auto sprint_plan = &X##_sprint_plan;                   \
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

SWEEP_DEFINE_FFTW_API(double, fftw)
SWEEP_DEFINE_FFTW_API(float, fftwf)

#undef SWEEP_DEFINE_FFTW_API

}  // namespace sweep

#endif  // GPUFFTW_TESTS_SWEEP_FFTW_TRAITS_H
