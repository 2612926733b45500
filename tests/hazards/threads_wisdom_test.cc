// The threads API reaches the real threads library, and wisdom survives a
// round trip through every form of export and import.
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "direct_dft.h"
#include "gpufftw/gpufftw.h"

TEST(Threads, PlanWithNthreadsIsHonoured) {
  const gpufftw_mode saved = gpufftw_get_mode();
  gpufftw_set_mode(GPUFFTW_MODE_CPU);  // the real FFTW's threads are the subject
  ASSERT_EQ(fftwf_init_threads(), 1);
  fftwf_plan_with_nthreads(3);
  EXPECT_EQ(fftwf_planner_nthreads(), 3);
  const int n = 1 << 18;
  fftwf_complex *a = fftwf_alloc_complex(n);
  std::vector<gpufftw_test::cld> x = gpufftw_test::random_fill(&a[0][0], n);
  fftwf_plan p = fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  char *s = fftwf_sprint_plan(p);
  EXPECT_NE(std::strstr(s, "-thr-"), nullptr) << "a threaded plan prints thr: " << s;
  std::free(s);
  fftwf_execute(p);
  // Spot-check a few outputs against the direct sum.
  const long double pi = std::acos(-1.0L);
  for (int k : {0, 1, 12345, n - 1}) {
    gpufftw_test::cld ref = 0;
    for (int j = 0; j < n; ++j) ref += x[j] * std::polar(1.0L, -2 * pi * ((1LL * j * k) % n) / n);
    EXPECT_NEAR(a[k][0], static_cast<double>(ref.real()), 2e-3) << k;
    EXPECT_NEAR(a[k][1], static_cast<double>(ref.imag()), 2e-3) << k;
  }
  fftwf_destroy_plan(p);
  fftwf_free(a);
  fftwf_plan_with_nthreads(1);
  fftwf_cleanup_threads();
  gpufftw_set_mode(saved);
}

// FFTW's threads library creating its workers from gpufftw's private
// namespace hangs in pthread_create (the loader's TLS lock) in about 1 run
// of 2-3 of this loop at 16 threads, so its parallel loops run in
// gpufftw's pool (fallback/thread_pool.h).
// Many threaded plans of small batches, made, run and destroyed, in both
// precisions; each result checked against one thread's.
TEST(Threads, ManyThreadedPlansNeitherHangNorDiffer) {
  const gpufftw_mode saved = gpufftw_get_mode();
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  ASSERT_EQ(fftwf_init_threads(), 1);
  ASSERT_EQ(fftw_init_threads(), 1);
  const int n = 1024, howmany = 4;
  fftwf_complex *a = fftwf_alloc_complex(n * howmany), *b = fftwf_alloc_complex(n * howmany);
  fftw_complex *c = fftw_alloc_complex(n * howmany), *d = fftw_alloc_complex(n * howmany);
  for (int i = 0; i < n * howmany; ++i) a[i][0] = c[i][0] = std::sin(i), a[i][1] = c[i][1] = std::cos(3 * i);
  fftwf_plan one = fftwf_plan_many_dft(1, &n, howmany, a, nullptr, 1, n, b, nullptr, 1, n, FFTW_FORWARD, FFTW_ESTIMATE);
  fftwf_execute(one);
  std::vector<float> expected(&b[0][0], &b[0][0] + 2 * n * howmany);
  fftwf_destroy_plan(one);
  for (int round = 0; round < 30; ++round) {
    fftwf_plan_with_nthreads(16);
    fftw_plan_with_nthreads(16);
    fftwf_plan p = fftwf_plan_many_dft(1, &n, howmany, a, nullptr, 1, n, b, nullptr, 1, n, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_plan q = fftw_plan_many_dft(1, &n, howmany, c, nullptr, 1, n, d, nullptr, 1, n, FFTW_FORWARD, FFTW_ESTIMATE);
    ASSERT_NE(p, nullptr);
    ASSERT_NE(q, nullptr);
    for (int k = 0; k < 10; ++k) fftwf_execute(p), fftw_execute(q);
    for (int i = 0; i < 2 * n * howmany; i += 97) {
      EXPECT_NEAR((&b[0][0])[i], expected[i], 1e-3) << i;
      EXPECT_NEAR((&d[0][0])[i], expected[i], 1e-3) << i;
    }
    fftwf_destroy_plan(p);
    fftw_destroy_plan(q);
  }
  fftwf_plan_with_nthreads(1);
  fftw_plan_with_nthreads(1);
  fftwf_free(a), fftwf_free(b), fftw_free(c), fftw_free(d);
  gpufftw_set_mode(saved);
}

class Wisdom : public testing::Test {
 protected:
  void SetUp() override {
    a = fftw_alloc_complex(n);
    fftw_forget_wisdom();
  }
  void TearDown() override {
    fftw_forget_wisdom();
    fftw_free(a);
  }
  fftw_plan wisdom_only() { return fftw_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_MEASURE | FFTW_WISDOM_ONLY); }
  void learn() { fftw_destroy_plan(fftw_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_MEASURE)); }
  void expect_known() {
    fftw_plan p = wisdom_only();
    EXPECT_NE(p, nullptr);
    fftw_destroy_plan(p);
  }
  static constexpr int n = 1000;
  fftw_complex *a = nullptr;
};

TEST_F(Wisdom, ForgottenWisdomGivesNoPlan) {
  learn();
  expect_known();
  fftw_forget_wisdom();
  EXPECT_EQ(wisdom_only(), nullptr);
}

TEST_F(Wisdom, RoundTripThroughString) {
  learn();
  char *w = fftw_export_wisdom_to_string();
  ASSERT_NE(w, nullptr);
  fftw_forget_wisdom();
  ASSERT_EQ(fftw_import_wisdom_from_string(w), 1);
  std::free(w);
  expect_known();
}

TEST_F(Wisdom, RoundTripThroughFilename) {
  learn();
  std::string file = testing::TempDir() + "gpufftw_wisdom_test.txt";
  ASSERT_EQ(fftw_export_wisdom_to_filename(file.c_str()), 1);
  fftw_forget_wisdom();
  ASSERT_EQ(fftw_import_wisdom_from_filename(file.c_str()), 1);
  expect_known();
  std::remove(file.c_str());
  EXPECT_EQ(fftw_import_wisdom_from_filename(file.c_str()), 0);
}

TEST_F(Wisdom, RoundTripThroughFileAndCallbacks) {
  learn();
  FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  fftw_export_wisdom_to_file(f);
  std::string via_callback;
  fftw_export_wisdom([](char c, void *d) { static_cast<std::string *>(d)->push_back(c); }, &via_callback);
  fftw_forget_wisdom();
  std::rewind(f);
  ASSERT_EQ(fftw_import_wisdom_from_file(f), 1);
  std::fclose(f);
  expect_known();
  fftw_forget_wisdom();
  struct Reader {
    const std::string *s;
    size_t pos;
  } reader{&via_callback, 0};
  ASSERT_EQ(fftw_import_wisdom(
                [](void *d) -> int {
                  auto *r = static_cast<Reader *>(d);
                  return r->pos < r->s->size() ? (*r->s)[r->pos++] : EOF;
                },
                &reader),
            1);
  expect_known();
}

// fftw_cleanup_threads leaves the real planner at one thread (it cleans
// the planner up): a plan gpufftw then makes at a count of its own (one
// thread, for a transform too small for threads) does not bring the old
// count back.
TEST(Threads, CleanupThreadsLeavesThePlannerAtOneThread) {
  ASSERT_EQ(fftw_init_threads(), 1);
  fftw_plan_with_nthreads(2);
  fftw_cleanup_threads();
  EXPECT_EQ(fftw_planner_nthreads(), 1);
  fftw_complex *a = fftw_alloc_complex(64);
  fftw_plan small = fftw_plan_dft_1d(64, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(small, nullptr);
  fftw_destroy_plan(small);
  fftw_free(a);
  EXPECT_EQ(fftw_planner_nthreads(), 1);
}
