// Comparison mode (run with GPUFFTW_COMPARE=1): plans of every family,
// executed from several threads at once, are all compared, all within
// tolerance, and the program's results are the same as without comparison;
// the comparison's reference plans add nothing to the program's wisdom.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "direct_dft.h"
#include "gpufftw/gpufftw.h"

namespace {

constexpr int kExecutes = 10;

void c2c_f32() {
  const int n = 256, batch = 4;
  fftwf_complex *a = fftwf_alloc_complex(n * batch), *b = fftwf_alloc_complex(n * batch);
  std::vector<gpufftw_test::cld> x = gpufftw_test::random_fill(&a[0][0], n);
  fftwf_plan p = fftwf_plan_many_dft(1, &n, batch, a, nullptr, 1, n, b, nullptr, 1, n, FFTW_FORWARD, FFTW_ESTIMATE);
  for (int i = 0; i < kExecutes; ++i) fftwf_execute(p);
  EXPECT_LT(gpufftw_test::rel_error(&b[0][0], gpufftw_test::direct_dft(x, FFTW_FORWARD)), 1e-5);
  fftwf_destroy_plan(p);
  fftwf_free(a);
  fftwf_free(b);
}

void split_f64() {
  const int n = 60;
  std::vector<double> ri(n), ii(n), ro(n), io(n), pairs(2 * n);
  std::vector<gpufftw_test::cld> x = gpufftw_test::random_fill(pairs.data(), n);
  for (int i = 0; i < n; ++i) ri[i] = pairs[2 * i], ii[i] = pairs[2 * i + 1];
  fftw_iodim64 dim{n, 1, 1};
  fftw_plan p = fftw_plan_guru64_split_dft(1, &dim, 0, nullptr, ri.data(), ii.data(), ro.data(), io.data(), FFTW_ESTIMATE);
  for (int i = 0; i < kExecutes; ++i) fftw_execute(p);
  std::vector<double> got(2 * n);
  for (int i = 0; i < n; ++i) got[2 * i] = ro[i], got[2 * i + 1] = io[i];
  EXPECT_LT(gpufftw_test::rel_error(got.data(), gpufftw_test::direct_dft(x, FFTW_FORWARD)), 1e-13);
  fftw_destroy_plan(p);
}

void r2c_c2r_f64() {
  const int n0 = 12, n1 = 10;
  double *r = fftw_alloc_real(n0 * n1);
  fftw_complex *c = fftw_alloc_complex(n0 * (n1 / 2 + 1));
  for (int i = 0; i < n0 * n1; ++i) r[i] = std::sin(i);
  fftw_plan f = fftw_plan_dft_r2c_2d(n0, n1, r, c, FFTW_ESTIMATE), b = fftw_plan_dft_c2r_2d(n0, n1, c, r, FFTW_ESTIMATE);
  for (int i = 0; i < kExecutes; ++i) {
    fftw_execute(f);
    fftw_execute(b);
    for (int k = 0; k < n0 * n1; ++k) r[k] /= n0 * n1;
  }
  EXPECT_NEAR(r[7], std::sin(7), 1e-12);
  fftw_destroy_plan(f);
  fftw_destroy_plan(b);
  fftw_free(r);
  fftw_free(c);
}

void r2r_f32() {
  const int n = 33;
  float *a = fftwf_alloc_real(n), *b = fftwf_alloc_real(n);
  for (int i = 0; i < n; ++i) a[i] = std::cos(0.3f * i);
  fftwf_plan p = fftwf_plan_r2r_1d(n, a, b, FFTW_REDFT10, FFTW_ESTIMATE);
  for (int i = 0; i < kExecutes; ++i) fftwf_execute(p);
  fftwf_destroy_plan(p);
  fftwf_free(a);
  fftwf_free(b);
}

}  // namespace

TEST(Compare, EveryFamilyFromSeveralThreads) {
  ASSERT_STREQ(std::getenv("GPUFFTW_COMPARE"), "1") << "run with GPUFFTW_COMPARE=1 (the ctest entry does)";
  // The threads plan at once, which FFTW allows only after this.
  fftw_make_planner_thread_safe();
  fftwf_make_planner_thread_safe();
  std::vector<std::thread> threads;
  for (auto *f : {c2c_f32, split_f64, r2c_c2r_f64, r2r_f32}) threads.emplace_back(f);
  for (std::thread &t : threads) t.join();
  FILE *f = std::tmpfile();
  gpufftw_compare_table(f);
  std::rewind(f);
  std::string table;
  for (int c; (c = std::fgetc(f)) != EOF;) table.push_back(static_cast<char>(c));
  std::fclose(f);
  EXPECT_NE(table.find("gpufftw compare: 5 plans, 0 over tolerance"), std::string::npos) << table;
  for (const char *problem : {"c2c f32 n=[256] howmany=[4]", "c2c-split f64 n=[60]", "r2c f64 n=[12x10]",
                              "c2r f64 n=[12x10]", "r2r f32 n=[33]"})
    EXPECT_NE(table.find(problem), std::string::npos) << problem << " missing from\n" << table;
  EXPECT_EQ(table.find(" 0/"), std::string::npos) << "every execute is compared:\n" << table;
}

// Run after the test above, whose table counts its plans alone. An
// in-place plan, whose references (out of place, and in the precision
// above) the real FFTW would otherwise add to its wisdom.
TEST(Compare, AddsNothingToTheProgramsWisdom) {
  ASSERT_STREQ(std::getenv("GPUFFTW_COMPARE"), "1") << "run with GPUFFTW_COMPARE=1 (the ctest entry does)";
  const int n = 48;
  fftw_complex *a = fftw_alloc_complex(n);
  for (int i = 0; i < n; ++i) a[i][0] = i % 7, a[i][1] = 0;
  fftw_forget_wisdom();
  fftw_plan p = fftw_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  char *before = fftw_export_wisdom_to_string();
  for (int i = 0; i < 3; ++i) fftw_execute(p);
  char *after = fftw_export_wisdom_to_string();
  ASSERT_TRUE(before && after);
  EXPECT_STREQ(after, before);
  std::free(before);
  std::free(after);
  fftw_destroy_plan(p);
  fftw_free(a);
}
