// Hazard 1: the real FFTW calls its own public functions through the PLT.
// None of those calls may come back into gpufftw and be wrapped twice.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpufftw/gpufftw.h"

extern "C" void sfftw_plan_dft_1d_(fftwf_plan *, int *, fftwf_complex *, fftwf_complex *, int *, int *);
extern "C" void sfftw_execute_(fftwf_plan *);
extern "C" void sfftw_destroy_plan_(fftwf_plan *);

// Every call FFTW's own implementation routes through another public
// function (the basic planners to plan_many, the wisdom file functions to
// their FILE * forms), in both precisions, and the Fortran wrappers, which
// are meant to call the C API once.
TEST(Reentry, NoPublicCallIsWrappedTwice) {
  const unsigned long before = gpufftw_reentry_count();
  fftwf_complex *a = fftwf_alloc_complex(256);
  fftw_complex *b = fftw_alloc_complex(256);
  float *r = fftwf_alloc_real(512);
  fftwf_destroy_plan(fftwf_plan_dft_1d(256, a, a, FFTW_FORWARD, FFTW_ESTIMATE));
  fftwf_destroy_plan(fftwf_plan_dft_2d(16, 16, a, a, FFTW_BACKWARD, FFTW_ESTIMATE));
  fftwf_destroy_plan(fftwf_plan_dft_3d(4, 8, 8, a, a, FFTW_FORWARD, FFTW_ESTIMATE));
  fftwf_destroy_plan(fftwf_plan_dft_r2c_1d(256, r, a, FFTW_ESTIMATE));
  fftwf_destroy_plan(fftwf_plan_dft_c2r_2d(16, 16, a, r, FFTW_ESTIMATE));
  fftwf_destroy_plan(fftwf_plan_r2r_1d(256, r, r, FFTW_REDFT10, FFTW_ESTIMATE));
  fftw_destroy_plan(fftw_plan_dft_1d(256, b, b, FFTW_FORWARD, FFTW_MEASURE));
  std::string file = testing::TempDir() + "gpufftw_reentry.wisdom";
  EXPECT_EQ(fftw_export_wisdom_to_filename(file.c_str()), 1);
  EXPECT_EQ(fftw_import_wisdom_from_filename(file.c_str()), 1);
  fftw_import_system_wisdom();  // usually absent: 0, but it must not re-enter
  std::free(fftw_export_wisdom_to_string());
  std::remove(file.c_str());
  int n = 64, sign = FFTW_FORWARD, flags = FFTW_ESTIMATE;
  fftwf_plan p = nullptr;
  sfftw_plan_dft_1d_(&p, &n, a, a, &sign, &flags);
  ASSERT_NE(p, nullptr);
  sfftw_execute_(&p);
  sfftw_destroy_plan_(&p);
  EXPECT_EQ(gpufftw_reentry_count(), before);
  fftwf_free(a);
  fftw_free(b);
  fftwf_free(r);
}

// The counter itself must see a nested call, or the test above proves
// nothing: FFTW calls export_wisdom's callback from inside the public call.
TEST(Reentry, CounterSeesANestedCall) {
  const unsigned long before = gpufftw_reentry_count();
  fftwf_export_wisdom(
      [](char, void *) {
        float x[4];
        (void)fftwf_alignment_of(x);
      },
      nullptr);
  EXPECT_GT(gpufftw_reentry_count(), before);
}
