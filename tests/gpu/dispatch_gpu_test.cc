// Dispatch on a GPU machine, in auto mode: where plans go and why, the
// calibration's file, FFTW_MEASURE's timing and its memory across plans,
// runs and fftw_forget_wisdom, and the real FFTW's wisdom left as it was.
// Run with GPUFFTW_MEASURE=always (ctest sets it), so that FFTW_MEASURE
// times both sides whatever the model says. Each test skips without a GPU.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gpufftw/gpufftw.h"

namespace {

// A test with a dispatch store of its own: a fresh folder named by
// GPUFFTW_CACHE_DIR, which the store reads when first needed (after this).
class OwnStore : public testing::Test {
 protected:
  void make_store_folder() {
    char tmpl[] = "/tmp/gpufftw-dispatch-gpu-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    setenv("GPUFFTW_CACHE_DIR", tmpl, 1);
  }
  void TearDown() override {
    if (dir_.empty()) return;
    std::filesystem::remove_all(dir_);
    unsetenv("GPUFFTW_CACHE_DIR");
  }
  std::string dir_;
};

class Dispatch : public OwnStore {
 protected:
  void SetUp() override {
    if (!gpufftw_gpu_available()) GTEST_SKIP() << "no usable GPU here: GPU tests skipped";
    ASSERT_EQ(gpufftw_get_mode(), GPUFFTW_MODE_AUTO);
    make_store_folder();
  }
  std::string store_file() const {
    std::ifstream in(dir_ + "/dispatch.txt");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

// The two predictions or measurements a why names, "gpu A ms, cpu B ms".
bool times_in(const std::string &why, double *gpu_ms, double *cpu_ms) {
  const size_t at = why.find("gpu ");
  return at != std::string::npos && std::sscanf(why.c_str() + at, "gpu %lf ms, cpu %lf ms", gpu_ms, cpu_ms) == 2;
}

void expect_placed_by_times(fftwf_plan plan, const char *prefix) {
  const std::string why = gpufftw_plan_why(plan), where = gpufftw_plan_where(plan);
  SCOPED_TRACE(why);
  EXPECT_EQ(why.rfind(prefix, 0), 0u);
  double g = 0, c = 0;
  ASSERT_TRUE(times_in(why, &g, &c));
  EXPECT_EQ(where, g < c ? "gpu" : "cpu");
}

TEST_F(Dispatch, SmallProblemsStayOnTheCpuWithoutTheStore) {
  fftwf_complex *a = fftwf_alloc_complex(64);
  fftwf_plan p = fftwf_plan_dft_1d(64, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  EXPECT_STREQ(gpufftw_plan_where(p), "cpu");
  EXPECT_STREQ(gpufftw_plan_why(p), "too small for the GPU to pay");
  EXPECT_EQ(store_file(), "");
  fftwf_destroy_plan(p);
  fftwf_free(a);
}

TEST_F(Dispatch, DeviceArraysGoToTheGpuHoweverSmall) {
  void *d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 64 * sizeof(fftwf_complex)), cudaSuccess);
  fftwf_complex h[64];
  for (int i = 0; i < 64; ++i) h[i][0] = i == 1, h[i][1] = 0;  // an impulse at 1
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  auto *a = static_cast<fftwf_complex *>(d);
  fftwf_plan p = fftwf_plan_dft_1d(64, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu");
  // Then the GPUs it runs on: the device set's first, as a plan of one GPU.
  EXPECT_EQ(std::string(gpufftw_plan_why(p)).rfind("arrays in device memory; on GPU ", 0), 0u) << gpufftw_plan_why(p);
  fftwf_execute(p);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 64; ++k) {
    EXPECT_NEAR(h[k][0], std::cos(2 * 3.14159265358979 * k / 64), 1e-5);
    EXPECT_NEAR(h[k][1], -std::sin(2 * 3.14159265358979 * k / 64), 1e-5);
  }
  fftwf_destroy_plan(p);
  cudaFree(d);
}

TEST_F(Dispatch, EstimateFollowsTheCalibratedModel) {
  const int n = 1 << 22;
  fftwf_complex *a = fftwf_alloc_complex(n), *b = fftwf_alloc_complex(n);
  fftwf_plan big = fftwf_plan_dft_1d(n, a, b, FFTW_FORWARD, FFTW_ESTIMATE);
  expect_placed_by_times(big, "model: ");
  EXPECT_STREQ(gpufftw_plan_where(big), "gpu");  // 32 MB: PCIe beats the CPU by far
  const std::string file = store_file();
  EXPECT_NE(file.find("\ngpu "), std::string::npos) << file;
  EXPECT_NE(file.find("\ncpu f32 "), std::string::npos) << file;
  // After calibration an ESTIMATE plan costs the model and the plan itself.
  for (int m : {5000, 8192, 3 << 12, 1 << 16, 1 << 20}) {
    const auto t0 = std::chrono::steady_clock::now();
    fftwf_plan p = fftwf_plan_dft_1d(m, a, b, FFTW_FORWARD, FFTW_ESTIMATE);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("ESTIMATE plan of n=%d: %.2f ms, %s (%s)\n", m, ms, gpufftw_plan_where(p), gpufftw_plan_why(p));
    expect_placed_by_times(p, "model: ");
    fftwf_destroy_plan(p);
  }
  fftwf_destroy_plan(big);
  fftwf_free(a);
  fftwf_free(b);
}

TEST_F(Dispatch, MeasureTimesBothRemembersAndForgets) {
  // Without the variable this would run on the model: a list in
  // gtest_discover_tests' PROPERTIES loses all but its first item, so ctest
  // sets it through ENVIRONMENT_MODIFICATION.
  const char *measure = std::getenv("GPUFFTW_MEASURE");
  ASSERT_STREQ(measure ? measure : "(unset)", "always") << "ctest sets it (tests/CMakeLists.txt)";
  const int n = 1 << 14, howmany = 64;
  fftwf_complex *a = fftwf_alloc_complex(n * howmany), *b = fftwf_alloc_complex(n * howmany);
  auto plan = [&] {
    return fftwf_plan_many_dft(1, &n, howmany, a, nullptr, 1, n, b, nullptr, 1, n, FFTW_FORWARD, FFTW_MEASURE);
  };
  fftwf_plan first = plan();
  expect_placed_by_times(first, "measured: ");
  EXPECT_NE(store_file().find("\nchoice c2c.f32.n16384:1:1,.h64:16384:16384,.fwd.oop."), std::string::npos);
  fftwf_plan again = plan();
  expect_placed_by_times(again, "chosen earlier: ");
  EXPECT_STREQ(gpufftw_plan_where(again), gpufftw_plan_where(first));
  // FFTW_WISDOM_ONLY finds the choice as it finds the real FFTW's wisdom.
  fftwf_plan wise =
      fftwf_plan_many_dft(1, &n, howmany, a, nullptr, 1, n, b, nullptr, 1, n, FFTW_FORWARD, FFTW_WISDOM_ONLY);
  ASSERT_NE(wise, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(wise), gpufftw_plan_where(first));
  fftwf_forget_wisdom();
  fftwf_plan after = plan();
  expect_placed_by_times(after, "measured: ");
  for (fftwf_plan p : {first, again, wise, after}) fftwf_destroy_plan(p);
  fftwf_free(a);
  fftwf_free(b);
}

std::string wisdom() {
  char *w = fftwf_export_wisdom_to_string();
  std::string s = w;
  fftwf_free(w);
  return s;
}

TEST_F(Dispatch, CalibrationLeavesTheRealWisdomAsItWas) {
  const int n = 1 << 21;
  fftwf_complex *a = fftwf_alloc_complex(n), *b = fftwf_alloc_complex(n);
  fftwf_forget_wisdom();
  fftwf_plan p = fftwf_plan_dft_1d(n, a, b, FFTW_FORWARD, FFTW_ESTIMATE);  // calibrates
  const std::string calibrating = wisdom();
  fftwf_destroy_plan(p);
  fftwf_forget_wisdom();
  p = fftwf_plan_dft_1d(n, a, b, FFTW_FORWARD, FFTW_ESTIMATE);  // the store is read
  EXPECT_EQ(calibrating, wisdom());
  fftwf_destroy_plan(p);
  fftwf_free(a);
  fftwf_free(b);
}

// The store's table of the real FFTW's times at `threads` ("cpu f32 T ..."),
// summed; 0 where the line is missing.
double cpu_table_sum(const std::string &store, int threads) {
  std::istringstream lines(store);
  const std::string head = "cpu f32 " + std::to_string(threads) + " ";
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(head, 0) == 0) {
      std::istringstream values(line.substr(head.size()));
      double sum = 0;
      for (double v; values >> v;) sum += v;
      return sum;
    }
  return 0;
}

// Calibration times each thread count at that count: a table of one thread
// timed at the program's would make one thread look as fast as 16 and plan
// 1-D 2^24 batches on one thread (45 ms against 4.4). The table's big problems (up to 2^20
// points) must run several times faster on all cores than on one.
TEST_F(Dispatch, CalibrationTimesTheRealFftwAtEachThreadCount) {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (cores < 4) GTEST_SKIP() << "needs 4 cores or more for threads to pay; " << cores << " here";
  ASSERT_TRUE(fftwf_init_threads());
  fftwf_plan_with_nthreads(cores);
  const int n = 1 << 21;
  fftwf_complex *a = fftwf_alloc_complex(n);
  fftwf_plan p = fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);  // calibrates 1 and `cores` threads
  fftwf_destroy_plan(p);
  fftwf_free(a);
  fftwf_plan_with_nthreads(1);
  const double one = cpu_table_sum(store_file(), 1), all = cpu_table_sum(store_file(), cores);
  ASSERT_GT(one, 0) << store_file();
  ASSERT_GT(all, 0) << store_file();
  EXPECT_GT(one, 1.5 * all) << "1 thread " << one << " s, " << cores << " threads " << all << " s\n" << store_file();
}

TEST_F(Dispatch, ReportSaysWhy) {
  const int n = 1 << 20;
  fftwf_complex *a = fftwf_alloc_complex(n);
  fftwf_plan p = fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
  fftwf_execute(p);
  char *text = nullptr;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  gpufftw_report(f);
  std::fclose(f);
  const std::string report = text;
  std::free(text);
  EXPECT_NE(report.find("execute ms"), std::string::npos) << report;
  EXPECT_NE(report.find("model: gpu "), std::string::npos) << report;
  fftwf_destroy_plan(p);
  fftwf_free(a);
}

// f in a child process of this one, which has not touched CUDA; its exit
// status (CUDA cannot go on in a child forked after it started).
template <class F>
int in_child(F f) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int code = f();
    std::fflush(nullptr);
    _exit(code);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

// Tests whose children plan in a store folder of their own, this process
// never starting CUDA (the Dispatch fixture's SetUp does) so that a child
// can: where the NVIDIA driver is.
class ChildProcesses : public OwnStore {
 protected:
  void SetUp() override {
    if (access("/proc/driver/nvidia/version", R_OK) != 0)
      GTEST_SKIP() << "no NVIDIA driver here (/proc/driver/nvidia/version): GPU tests skipped";
    make_store_folder();
  }
};
class DispatchColdStart : public ChildProcesses {};
class DispatchStandIn : public ChildProcesses {};

// Once the machine is calibrated, a process whose plans the model keeps on
// the CPU never starts CUDA (200-350 ms and device memory): the driver
// names the machine for the store.
TEST_F(DispatchColdStart, PlansKeptOnTheCpuStartNoCuda) {
  // Calibrates, by planning a problem the GPU takes (77: the GPU took none).
  const int calibrated = in_child([] {
    const int n = 1 << 20;
    fftwf_complex *a = fftwf_alloc_complex(n);
    fftwf_plan p = fftwf_plan_dft_1d(n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
    const int code = p && std::string(gpufftw_plan_where(p)) == "gpu" ? 0 : 77;
    if (p) fftwf_destroy_plan(p);
    fftwf_free(a);
    return code;
  });
  // 8192 points on malloc'd arrays: the real FFTW takes tens of µs, the GPU
  // over 100 (a pageable round trip).
  const int cold = calibrated != 0 ? calibrated : in_child([] {
    std::vector<fftwf_complex> a(8192);
    fftwf_plan p = fftwf_plan_dft_1d(8192, a.data(), a.data(), FFTW_FORWARD, FFTW_ESTIMATE);
    if (!p) return 1;
    const bool placed = std::string(gpufftw_plan_where(p)) == "cpu" &&
                        std::string(gpufftw_plan_why(p)).rfind("model:", 0) == 0;
    fftwf_execute(p);
    fftwf_destroy_plan(p);
    if (!placed) return 2;
    return dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD) ? 3 : 0;
  });
  if (calibrated == 77) GTEST_SKIP() << "the GPU took no plan here: nothing to calibrate";
  // 1: no plan; 2: not placed on the CPU by the model; 3: CUDA was started.
  EXPECT_EQ(cold, 0);
}

// A choice of the real FFTW's estimated plan (FFTW_MEASURE's, where its
// measured plan lost to the GPU and the estimated one beat it) gives
// later runs that plan, FFTW_WISDOM_ONLY ones too, and it computes. The
// store file is made by a measuring child and edited to that choice, as
// which side wins cannot be forced; a second child, which has not read the
// store yet, plans.
TEST_F(DispatchStandIn, AChoiceOfTheEstimatedPlanGivesLaterRunsThatPlan) {
  static const int n = 1 << 14, howmany = 64;
  auto plan = [](fftwf_complex *a, fftwf_complex *b, unsigned flags) {
    return fftwf_plan_many_dft(1, &n, howmany, a, nullptr, 1, n, b, nullptr, 1, n, FFTW_FORWARD, flags);
  };
  // 77: no GPU to measure against.
  const int measured = in_child([&plan] {
    if (!gpufftw_gpu_available()) return 77;
    fftwf_complex *a = fftwf_alloc_complex(n * howmany), *b = fftwf_alloc_complex(n * howmany);
    fftwf_plan p = plan(a, b, FFTW_MEASURE);
    const int code = p && std::string(gpufftw_plan_why(p)).rfind("measured: ", 0) == 0 ? 0 : 1;
    if (p) fftwf_destroy_plan(p);
    fftwf_free(a);
    fftwf_free(b);
    return code;
  });
  const std::string file = dir_ + "/dispatch.txt", key = "choice c2c.f32.n16384:1:1,.h64:16384:16384,.fwd.oop.";
  int edited = 0;
  if (measured == 0) {
    std::ifstream in(file);
    std::stringstream out;
    for (std::string line; std::getline(in, line); out << line << '\n') {
      if (line.rfind(key, 0) != 0) continue;
      std::istringstream fields(line);
      std::string tag, k, where, gpu_s, cpu_s;
      fields >> tag >> k >> where >> gpu_s >> cpu_s;
      line = tag + " " + k + " cpu-estimated " + gpu_s + " " + cpu_s;
      ++edited;
    }
    in.close();
    std::ofstream(file, std::ios::trunc) << out.str();
  }
  // 1: no plan; 2: not the estimated plan on the CPU; 3: wrong result.
  const int later = edited != 1 ? -1 : in_child([&plan] {
    fftwf_complex *a = fftwf_alloc_complex(n * howmany), *b = fftwf_alloc_complex(n * howmany);
    int code = 0;
    for (unsigned flags : {FFTW_MEASURE, FFTW_WISDOM_ONLY}) {
      fftwf_plan p = plan(a, b, flags);
      if (!p) return 1;
      const std::string why = gpufftw_plan_why(p);
      if (std::string(gpufftw_plan_where(p)) != "cpu" || why.rfind("chosen earlier: ", 0) != 0 ||
          why.find("FFTW_ESTIMATE's plan") == std::string::npos)
        code = 2;
      // An impulse at 0 in each transform: all ones out.
      std::memset(a, 0, sizeof(fftwf_complex) * n * howmany);
      for (int t = 0; t < howmany; ++t) a[t * n][0] = 1;
      fftwf_execute(p);
      for (int i = 0; i < n * howmany && code == 0; ++i)
        if (std::abs(b[i][0] - 1) > 1e-5f || std::abs(b[i][1]) > 1e-5f) code = 3;
      fftwf_destroy_plan(p);
    }
    fftwf_free(a);
    fftwf_free(b);
    return code;
  });
  if (measured == 77) GTEST_SKIP() << "no usable GPU here: GPU tests skipped";
  ASSERT_EQ(measured, 0) << "FFTW_MEASURE's plan in the first child";
  ASSERT_EQ(edited, 1) << "the choice's line in " << file;
  EXPECT_EQ(later, 0);
}

}  // namespace
