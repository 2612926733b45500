// FFTW's contract at the edges: bad input gets a NULL plan, misuse gets a
// message instead of a crash, memory from fftw_malloc is freed by fftw_free
// whatever the mode was, and sprint/export strings belong to this process's
// malloc.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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
  fftw_iodim64 d{8, 1, 1};
  EXPECT_EQ(fftw_plan_guru64_dft(INT_MAX, &d, 0, nullptr, a, a, FFTW_FORWARD, FFTW_ESTIMATE), nullptr);
  EXPECT_EQ(fftw_plan_many_dft(INT_MAX, &n, 1, a, nullptr, 1, 1, a, nullptr, 1, 1, FFTW_FORWARD, FFTW_ESTIMATE), nullptr);
  fftw_free(a);
}

// Arguments that are no FFTW values, which the real FFTW 3.3.10 (Debian's
// release build) nevertheless plans (found by the planner fuzzer against
// it): a c2c sign other than FFTW_FORWARD is backward, an r2r kind outside
// the enum is FFTW_R2HC, a howmany rank of INT_MAX (its rank minus
// infinity) a plan that does nothing, its dims unread. gpufftw read all
// 2^31 of them and crashed.
TEST(Contract, WhatTheRealFftwPlansFromNonValuesIsPlannedAlike) {
  const int n = 8;
  fftw_complex *a = fftw_alloc_complex(n), *b = fftw_alloc_complex(n);
  for (int i = 0; i < n; ++i) a[i][0] = i, a[i][1] = 0.5 * i;
  fftw_plan p = fftw_plan_dft_1d(n, a, b, 7, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  fftw_execute(p);
  fftw_destroy_plan(p);
  std::vector<double> backward(&b[0][0], &b[0][0] + 2 * n);
  p = fftw_plan_dft_1d(n, a, b, FFTW_BACKWARD, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  for (int i = 0; i < 2 * n; ++i) EXPECT_NEAR(backward[i], (&b[0][0])[i], 1e-12) << i;

  double *r = fftw_alloc_real(n), *s = fftw_alloc_real(n);
  for (int i = 0; i < n; ++i) r[i] = i * i;
  int not_a_kind = 42;
  fftw_r2r_kind k;
  std::memcpy(&k, &not_a_kind, sizeof k);  // as a C caller would pass it
  p = fftw_plan_r2r_1d(n, r, s, k, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  fftw_execute(p);
  fftw_destroy_plan(p);
  std::vector<double> as_r2hc(s, s + n);
  p = fftw_plan_r2r_1d(n, r, s, FFTW_R2HC, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(as_r2hc[i], s[i], 1e-12) << i;

  fftw_iodim64 d{n, 1, 1};
  std::vector<double> before(&b[0][0], &b[0][0] + 2 * n);
  p = fftw_plan_guru64_dft(1, &d, INT_MAX, &d, a, b, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  fftw_execute(p);
  fftw_destroy_plan(p);
  for (int i = 0; i < 2 * n; ++i) EXPECT_EQ(before[i], (&b[0][0])[i]) << "a plan of no loop wrote " << i;
  fftw_free(a);
  fftw_free(b);
  fftw_free(r);
  fftw_free(s);
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
