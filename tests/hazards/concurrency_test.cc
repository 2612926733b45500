// Concurrency under load: 16 threads planning (after
// fftw_make_planner_thread_safe), executing and destroying distinct plans of
// several kinds and both precisions, and 16 threads executing one plan on
// arrays of their own through the new-array execute functions, which FFTW
// allows. Every result is checked against a long-double direct DFT, a
// watchdog fails the test where the threads do not finish (a deadlock), and
// the throughput is printed.
//
// Whichever way the library plans runs here: the CPU in CI, the GPU with
// GPUFFTW_MODE=gpu on the GPU machine (ctest's concurrency_gpu, label gpu:
// GPUFFTW_TEST_GPU=1 skips without a GPU and expects the shared plan on
// it). GPUFFTW_TEST_EXECUTES sets the executes of each test (default
// 100000; the TSan run takes fewer).
#include <fftw3.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "direct_dft.h"
#include "gpufftw/gpufftw.h"

namespace {

using gpufftw_test::cld;

constexpr int kThreads = 16;

bool gpu_wanted() { return std::getenv("GPUFFTW_TEST_GPU") != nullptr; }

long executes_wanted() {
  const char *e = std::getenv("GPUFFTW_TEST_EXECUTES");
  const long n = e ? std::atol(e) : 0;
  return n > 0 ? n : 100000;
}

double watchdog_seconds() {
  const char *e = std::getenv("GPUFFTW_TEST_WATCHDOG_S");
  const double s = e ? std::atof(e) : 0;
  return s > 0 ? s : 300;
}

// Runs body(t) on kThreads threads; a hang past the watchdog ends the
// process with a message (hung threads cannot be joined).
void run_threads(const char *what, const std::function<void(int)> &body) {
  std::mutex m;
  std::condition_variable cv;
  int done = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      body(t);
      std::lock_guard<std::mutex> lock(m);
      ++done;
      cv.notify_all();
    });
  {
    std::unique_lock<std::mutex> lock(m);
    const bool finished = cv.wait_for(lock, std::chrono::duration<double>(watchdog_seconds()),
                                      [&] { return done == kThreads; });
    if (!finished) {
      std::fprintf(stderr, "FAIL: %s: %d of %d threads still running after %.0f s: a deadlock\n", what,
                   kThreads - done, kThreads, watchdog_seconds());
      std::fflush(stderr);
      std::_Exit(1);
    }
  }
  for (auto &t : threads) t.join();
}

// One input and its reference transform.
struct Case {
  int n;
  std::vector<double> in;  // interleaved complex (c2c) or real (r2c)
  std::vector<cld> ref;    // the n (c2c) or n/2+1 (r2c) outputs
};

Case c2c_case(int n, int sign) {
  Case c{n, std::vector<double>(2 * n), {}};
  std::vector<cld> x = gpufftw_test::random_fill(c.in.data(), n);
  c.ref = gpufftw_test::direct_dft(x, sign);
  return c;
}

Case r2c_case(int n) {
  Case c{n, std::vector<double>(n), {}};
  std::vector<double> pairs(2 * n);
  std::vector<cld> x = gpufftw_test::random_fill(pairs.data(), n);
  for (int i = 0; i < n; ++i) c.in[i] = pairs[2 * i], x[i] = cld(pairs[2 * i], 0);
  c.ref = gpufftw_test::direct_dft(x, FFTW_FORWARD);
  c.ref.resize(n / 2 + 1);
  return c;
}

template <class T>
double error_of(const T *out, const std::vector<cld> &ref) {
  return gpufftw_test::rel_error(out, ref);
}

constexpr double kTolF32 = 2e-5, kTolF64 = 1e-12;

void report(const char *what, long executes, long wrong, double seconds) {
  std::printf("%s: %ld executes on %d threads in %.2f s: %.0f executes/s, %ld wrong\n", what, executes, kThreads,
              seconds, executes / seconds, wrong);
  std::fflush(stdout);
}

// Each thread plans, runs and destroys plans of its own, again and again:
// c2c f32, c2c f64 (backward) and r2c f64 of sizes that differ from
// thread to thread, with FFTW_ESTIMATE and, now and then, FFTW_MEASURE.
TEST(Concurrency, SixteenThreadsPlanAndExecuteDistinctPlans) {
  if (gpu_wanted() && !gpufftw_gpu_available()) {
    GTEST_SKIP() << "no usable GPU";
  }
  fftw_make_planner_thread_safe();
  fftwf_make_planner_thread_safe();
  const int sizes[] = {16, 30, 60, 64, 100, 128, 210, 256};
  std::vector<Case> c2c_fwd, c2c_bwd, r2c;
  for (int n : sizes) c2c_fwd.push_back(c2c_case(n, FFTW_FORWARD));
  for (int n : sizes) c2c_bwd.push_back(c2c_case(n, FFTW_BACKWARD));
  for (int n : sizes) r2c.push_back(r2c_case(n));
  const long per_thread = executes_wanted() / kThreads;
  const int executes_per_plan = 50;
  std::atomic<long> executes{0}, wrong{0}, null_plans{0}, plans{0};
  const auto start = std::chrono::steady_clock::now();
  run_threads("distinct plans", [&](int t) {
    long mine = 0;
    for (int round = 0; mine < per_thread; ++round) {
      const int which = (t + round) % 3;
      const Case &c = (which == 0 ? c2c_fwd : which == 1 ? c2c_bwd : r2c)[(t + 3 * round) % 8];
      const unsigned flags = round % 16 == 5 ? FFTW_MEASURE : FFTW_ESTIMATE;
      const int n = c.n;
      if (which == 0) {
        fftwf_complex *a = fftwf_alloc_complex(n), *b = fftwf_alloc_complex(n);
        fftwf_plan p = fftwf_plan_dft_1d(n, a, b, FFTW_FORWARD, flags);
        plans++;
        if (!p) {
          null_plans++;
        } else {
          for (int e = 0; e < executes_per_plan; ++e) {
            for (int i = 0; i < 2 * n; ++i) (&a[0][0])[i] = static_cast<float>(c.in[i]);
            fftwf_execute(p);
            if (error_of(&b[0][0], c.ref) > kTolF32) wrong++;
          }
          fftwf_destroy_plan(p);
        }
        fftwf_free(a);
        fftwf_free(b);
      } else if (which == 1) {
        fftw_complex *a = fftw_alloc_complex(n);  // in place
        fftw_plan p = fftw_plan_dft_1d(n, a, a, FFTW_BACKWARD, flags);
        plans++;
        if (!p) {
          null_plans++;
        } else {
          for (int e = 0; e < executes_per_plan; ++e) {
            std::memcpy(a, c.in.data(), sizeof(double) * 2 * n);
            fftw_execute(p);
            if (error_of(&a[0][0], c.ref) > kTolF64) wrong++;
          }
          fftw_destroy_plan(p);
        }
        fftw_free(a);
      } else {
        double *a = fftw_alloc_real(n);
        fftw_complex *b = fftw_alloc_complex(n / 2 + 1);
        fftw_plan p = fftw_plan_dft_r2c_1d(n, a, b, flags);
        plans++;
        if (!p) {
          null_plans++;
        } else {
          for (int e = 0; e < executes_per_plan; ++e) {
            std::memcpy(a, c.in.data(), sizeof(double) * n);
            fftw_execute(p);
            if (error_of(&b[0][0], c.ref) > kTolF64) wrong++;
          }
          fftw_destroy_plan(p);
        }
        fftw_free(a);
        fftw_free(b);
      }
      mine += executes_per_plan;
      executes += executes_per_plan;
    }
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report("distinct plans", executes.load(), wrong.load(), seconds);
  std::printf("distinct plans: %ld plans made and destroyed\n", plans.load());
  EXPECT_EQ(null_plans.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GE(executes.load(), executes_wanted() / kThreads * kThreads);
}

// One plan, 16 threads, each on its own arrays (fftw_malloc'ed, so the
// alignment is the plan's): c2c f32 out of place through
// fftwf_execute_dft, and r2c f64 through fftw_execute_dft_r2c.
TEST(Concurrency, SixteenThreadsExecuteOnePlanOnTheirOwnArrays) {
  if (gpu_wanted() && !gpufftw_gpu_available()) {
    GTEST_SKIP() << "no usable GPU";
  }
  const int n = 256, inputs = 4;
  fftwf_complex *pa = fftwf_alloc_complex(n), *pb = fftwf_alloc_complex(n);
  double *ra = fftw_alloc_real(n);
  fftw_complex *rb = fftw_alloc_complex(n / 2 + 1);
  fftwf_plan c2c = fftwf_plan_dft_1d(n, pa, pb, FFTW_FORWARD, FFTW_MEASURE);
  fftw_plan r2c = fftw_plan_dft_r2c_1d(n, ra, rb, FFTW_ESTIMATE);
  ASSERT_NE(c2c, nullptr);
  ASSERT_NE(r2c, nullptr);
  std::printf("one plan: c2c f32 n=%d on %s, r2c f64 n=%d on %s\n", n, gpufftw_plan_where(c2c), n,
              gpufftw_plan_where(r2c));
  if (gpu_wanted()) {
    EXPECT_STREQ(gpufftw_plan_where(c2c), "gpu") << gpufftw_plan_why(c2c);
  }
  // Each thread's own inputs and references.
  std::vector<std::vector<Case>> c2c_cases(kThreads), r2c_cases(kThreads);
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < inputs; ++i) {
      c2c_cases[t].push_back(c2c_case(n, FFTW_FORWARD));
      r2c_cases[t].push_back(r2c_case(n));
    }
  const long per_thread = executes_wanted() / kThreads;
  std::atomic<long> executes{0}, wrong{0};
  const auto start = std::chrono::steady_clock::now();
  run_threads("one plan", [&](int t) {
    fftwf_complex *a = fftwf_alloc_complex(n), *b = fftwf_alloc_complex(n);
    double *r = fftw_alloc_real(n);
    fftw_complex *c = fftw_alloc_complex(n / 2 + 1);
    long bad = 0;
    for (long e = 0; e < per_thread; ++e) {
      const int i = static_cast<int>(e % inputs);
      if (e % 2 == 0) {
        const Case &k = c2c_cases[t][i];
        for (int j = 0; j < 2 * n; ++j) (&a[0][0])[j] = static_cast<float>(k.in[j]);
        fftwf_execute_dft(c2c, a, b);
        if (error_of(&b[0][0], k.ref) > kTolF32) ++bad;
      } else {
        const Case &k = r2c_cases[t][i];
        std::memcpy(r, k.in.data(), sizeof(double) * n);
        fftw_execute_dft_r2c(r2c, r, c);
        if (error_of(&c[0][0], k.ref) > kTolF64) ++bad;
      }
    }
    executes += per_thread;
    wrong += bad;
    fftwf_free(a);
    fftwf_free(b);
    fftw_free(r);
    fftw_free(c);
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report("one plan, new-array execute", executes.load(), wrong.load(), seconds);
  EXPECT_EQ(wrong.load(), 0);
  fftwf_destroy_plan(c2c);
  fftw_destroy_plan(r2c);
  fftwf_free(pa);
  fftwf_free(pb);
  fftw_free(ra);
  fftw_free(rb);
}

}  // namespace
