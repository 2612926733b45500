// FFTW's contract at the edges: bad input gets a NULL plan, misuse gets a
// message instead of a crash, memory from fftw_malloc is freed by fftw_free
// whatever the mode was, and sprint/export strings belong to this process's
// malloc.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "direct_dft.h"
#include "gpufftw/gpufftw.h"

TEST(Contract, BadArgumentsGiveNullPlans) {
  fftw_complex *a = fftw_alloc_complex(64);
  int n = 8, bad = -3;
  EXPECT_EQ(fftw_plan_dft_1d(0, a, a, FFTW_FORWARD, FFTW_ESTIMATE), nullptr);
  EXPECT_EQ(fftw_plan_dft(1, &bad, a, a, FFTW_FORWARD, FFTW_ESTIMATE), nullptr);
  EXPECT_EQ(fftw_plan_many_dft(-1, &n, 1, a, nullptr, 1, 1, a, nullptr, 1, 1, FFTW_FORWARD, FFTW_ESTIMATE), nullptr);
  EXPECT_EQ(fftw_plan_many_dft(1, &n, -1, a, nullptr, 1, 1, a, nullptr, 1, 1, FFTW_FORWARD, FFTW_ESTIMATE), nullptr);
  EXPECT_EQ(fftw_plan_guru_dft(2, nullptr, 0, nullptr, a, a, FFTW_FORWARD, FFTW_ESTIMATE), nullptr);
  EXPECT_EQ(fftw_plan_dft_1d(8, a, a, 7, FFTW_ESTIMATE), nullptr);
  fftw_r2r_kind k = static_cast<fftw_r2r_kind>(42);
  EXPECT_EQ(fftw_plan_r2r_1d(8, a[0], a[0], k, FFTW_ESTIMATE), nullptr);
  fftw_free(a);
}

TEST(Contract, MisuseIsRefusedWithoutACrash) {
  fftw_execute(nullptr);
  fftw_destroy_plan(nullptr);
  fftwf_complex *a = fftwf_alloc_complex(16);
  float *af = reinterpret_cast<float *>(a);
  for (int i = 0; i < 32; ++i) af[i] = 1.0f;
  fftwf_plan p = fftwf_plan_dft_1d(16, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  float r[32];
  fftwf_execute_dft_r2c(p, r, a);  // an r2c execute on a c2c plan: refused
  EXPECT_EQ(a[0][0], 1.0f);
  fftwf_destroy_plan(p);
  fftwf_free(a);
}

TEST(Contract, EstimateNeverTouchesTheArrays) {
  const int n = 4096;
  fftw_complex *in = fftw_alloc_complex(n), *out = fftw_alloc_complex(n);
  gpufftw_test::random_fill(&in[0][0], n);
  gpufftw_test::random_fill(&out[0][0], n);
  std::string before_in(reinterpret_cast<char *>(in), n * sizeof(fftw_complex));
  std::string before_out(reinterpret_cast<char *>(out), n * sizeof(fftw_complex));
  fftw_plan p = fftw_plan_dft_1d(n, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(std::memcmp(before_in.data(), in, before_in.size()), 0);
  EXPECT_EQ(std::memcmp(before_out.data(), out, before_out.size()), 0);
  fftw_destroy_plan(p);
  fftw_free(in);
  fftw_free(out);
}

// A plan and arrays made in one mode, destroyed and freed in another.
TEST(Contract, PlansAndMemoryOutliveAModeChange) {
  const gpufftw_mode saved = gpufftw_get_mode();
  gpufftw_set_mode(GPUFFTW_MODE_GPU);
  const int n = 1 << 16;
  fftwf_complex *a = fftwf_alloc_complex(n);
  std::vector<gpufftw_test::cld> x = gpufftw_test::random_fill(&a[0][0], 64);
  fftwf_plan p = fftwf_plan_dft_1d(64, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  fftwf_execute(p);
  EXPECT_LT(gpufftw_test::rel_error(&a[0][0], gpufftw_test::direct_dft(x, FFTW_FORWARD)), 1e-5);
  fftwf_destroy_plan(p);
  fftwf_free(a);
  gpufftw_set_mode(saved);
}

TEST(Contract, AllocationsAreAlignedAndOverflowIsNull) {
  void *p = fftw_malloc(0);
  EXPECT_NE(p, nullptr);
  fftw_free(p);
  double *r = fftw_alloc_real(3);
  EXPECT_EQ(fftw_alignment_of(r), 0);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(r) % 64, 0u);
  fftw_free(r);
  EXPECT_EQ(fftw_alloc_complex(SIZE_MAX / 4), nullptr);
  fftw_free(nullptr);
}

TEST(Contract, StringsAreThisProcesssMalloc) {
  // 1024: FFTW counts no flops at all for its smallest SIMD codelets.
  fftwf_complex *a = fftwf_alloc_complex(1024);
  fftwf_plan p = fftwf_plan_dft_1d(1024, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  char *s = fftwf_sprint_plan(p);
  ASSERT_NE(s, nullptr);
  EXPECT_NE(std::strstr(s, "dft"), nullptr) << s;
  std::free(s);  // would abort if it came from the real FFTW's C library
  char *w = fftwf_export_wisdom_to_string();
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(std::strncmp(w, "(fftw-3", 7), 0) << w;
  std::free(w);
  double add = -1, mul = -1, fma = -1;
  fftwf_flops(p, &add, &mul, &fma);
  EXPECT_GT(add + mul + fma, 0.0);
  EXPECT_GT(fftwf_estimate_cost(p), 0.0);
  fftwf_destroy_plan(p);
  fftwf_free(a);
}

TEST(Contract, VersionStringsAreTheRealLibrarys) {
  EXPECT_EQ(std::strncmp(fftw_version, "fftw-3", 6), 0);
  EXPECT_EQ(std::strncmp(fftwf_version, "fftw-3", 6), 0);
  EXPECT_EQ(std::strncmp(gpufftw_version(), "gpufftw ", 8), 0);
}
