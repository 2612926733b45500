// A sticky CUDA error at execute: GPUFFTW_FAULT=sticky makes
// the execute launch a kernel that traps, which leaves the context with a
// real cudaErrorLaunchFailure. The execute in flight must still give the
// right result, on the real FFTW; every GPU plan's later executes and
// every later plan run there too (the why says so), one warning is logged,
// and destroy and exit are clean; a plan over device arrays is NULL (the
// real FFTW cannot read them). The scenario runs in a child process,
// which alone touches CUDA, so that its exit status and its whole stderr
// are checked here.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gpufftw/gpufftw.h"

namespace {

// One problem: its plan on the given arrays (in the mode set), run by
// execute, and its arrays' sizes in reals.
struct Case {
  const char *name;
  bool f32;
  size_t in_reals, out_reals;
  std::function<void *(void *in, void *out)> plan;
};

void execute(const Case &c, void *p) {
  if (c.f32)
    fftwf_execute(static_cast<fftwf_plan>(p));
  else
    fftw_execute(static_cast<fftw_plan>(p));
}
void destroy(const Case &c, void *p) {
  if (c.f32)
    fftwf_destroy_plan(static_cast<fftwf_plan>(p));
  else
    fftw_destroy_plan(static_cast<fftw_plan>(p));
}

std::vector<Case> cases() {
  auto fc = [](void *p) { return static_cast<fftwf_complex *>(p); };
  auto dc = [](void *p) { return static_cast<fftw_complex *>(p); };
  return {
      {"c2c f32 n=65536", true, 2 * 65536, 2 * 65536,
       [=](void *i, void *o) -> void * { return fftwf_plan_dft_1d(65536, fc(i), fc(o), FFTW_FORWARD, FFTW_ESTIMATE); }},
      {"c2c f64 512x512", false, 2 * 512 * 512, 2 * 512 * 512,
       [=](void *i, void *o) -> void * { return fftw_plan_dft_2d(512, 512, dc(i), dc(o), FFTW_BACKWARD, FFTW_ESTIMATE); }},
      {"r2c f32 4096 x 64", true, 4096 * 64, 2 * 2049 * 64,
       [=](void *i, void *o) -> void * {
         const int n = 4096;
         return fftwf_plan_many_dft_r2c(1, &n, 64, static_cast<float *>(i), nullptr, 1, n, fc(o), nullptr, 1, 2049,
                                        FFTW_ESTIMATE);
       }},
      {"r2r f64 REDFT10 n=32768", false, 32768, 32768,
       [](void *i, void *o) -> void * {
         return fftw_plan_r2r_1d(32768, static_cast<double *>(i), static_cast<double *>(o), FFTW_REDFT10,
                                 FFTW_ESTIMATE);
       }},
      {"c2c f32 256^3 in place", true, 2 * 256 * 256 * 256, 2 * 256 * 256 * 256,
       [=](void *i, void *) -> void * { return fftwf_plan_dft_3d(256, 256, 256, fc(i), fc(i), FFTW_FORWARD, FFTW_ESTIMATE); }},
  };
}

// Planned problem: arrays (fftw_malloc'd: pinned where large), its input
// kept, the real FFTW's answer, the plan.
struct Planned {
  Case c;
  void *in = nullptr, *out = nullptr;
  std::vector<double> input, expected;
  void *plan = nullptr;
};

size_t real_bytes(const Case &c) { return c.f32 ? 4 : 8; }

void load(Planned &p) {
  for (size_t i = 0; i < p.input.size(); ++i)
    if (p.c.f32)
      static_cast<float *>(p.in)[i] = static_cast<float>(p.input[i]);
    else
      static_cast<double *>(p.in)[i] = p.input[i];
}
std::vector<double> result(const Planned &p) {
  std::vector<double> r(p.c.out_reals);
  for (size_t i = 0; i < r.size(); ++i)
    r[i] = p.c.f32 ? static_cast<float *>(p.out)[i] : static_cast<double *>(p.out)[i];
  return r;
}
double rel_l2(const std::vector<double> &got, const std::vector<double> &want) {
  double d = 0, w = 0;
  for (size_t i = 0; i < got.size(); ++i) d += (got[i] - want[i]) * (got[i] - want[i]), w += want[i] * want[i];
  return std::sqrt(d / w);
}

// The child's checks: printf "FAIL ..." for each that fails, "SKIP ..."
// where there is no GPU; exit status: the failures.
int fails = 0;
#define CHILD_CHECK(cond, ...)                        \
  do {                                                \
    if (!(cond)) {                                    \
      ++fails;                                        \
      std::printf("FAIL %s: ", #cond);                \
      std::printf(__VA_ARGS__);                       \
      std::printf("\n");                              \
    }                                                 \
  } while (0)

void check_result(const Planned &p, const char *when) {
  const double err = rel_l2(result(p), p.expected), tol = p.c.f32 ? 1e-5 : 1e-12;
  CHILD_CHECK(err < tol, "%s, %s: relative L2 error %.3g", p.c.name, when, err);
}

int scenario() {
  if (!gpufftw_gpu_available()) return std::printf("SKIP no usable GPU here\n"), 0;
  std::mt19937_64 rng(27);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<Planned> planned;
  for (const Case &c : cases()) {
    Planned p;
    p.c = c;
    p.in = fftw_malloc(c.in_reals * real_bytes(c));
    const bool in_place = std::strstr(c.name, "in place") != nullptr;
    p.out = in_place ? p.in : fftw_malloc(c.out_reals * real_bytes(c));
    p.input.resize(c.in_reals);
    for (double &v : p.input) v = u(rng);
    gpufftw_set_mode(GPUFFTW_MODE_CPU);
    void *ref = c.plan(p.in, p.out);
    load(p);
    execute(c, ref);
    p.expected = result(p);
    destroy(c, ref);
    gpufftw_set_mode(GPUFFTW_MODE_GPU);
    p.plan = c.plan(p.in, p.out);
    CHILD_CHECK(p.plan && std::strcmp(gpufftw_plan_where(p.plan), "gpu") == 0, "%s planned on %s: %s", c.name,
                p.plan ? gpufftw_plan_where(p.plan) : "nothing", p.plan ? gpufftw_plan_why(p.plan) : "");
    if (!p.plan) return fails;
    load(p);
    execute(c, p.plan);
    check_result(p, "on the GPU, before the fault");
    planned.push_back(std::move(p));
  }
  // Device arrays, made while the context works: after the loss no plan
  // may hand them to the real FFTW.
  void *device_in = nullptr, *device_out = nullptr;
  CHILD_CHECK(cudaMalloc(&device_in, 8 << 16) == cudaSuccess && cudaMalloc(&device_out, 8 << 16) == cudaSuccess,
              "cudaMalloc before the fault");
  // The trap fires in this execute; it must end on the real FFTW.
  setenv("GPUFFTW_FAULT", "sticky", 1);
  load(planned[0]);
  execute(planned[0].c, planned[0].plan);
  unsetenv("GPUFFTW_FAULT");
  check_result(planned[0], "the execute the trap hit");
  CHILD_CHECK(!gpufftw_gpu_available(), "the GPU is still said to be available after a sticky error");
  for (int round = 0; round < 2; ++round)
    for (Planned &p : planned) {
      load(p);
      execute(p.c, p.plan);
      check_result(p, "a GPU plan's execute after the loss");
    }
  // Later plans: on the real FFTW, saying why.
  for (Planned &p : planned) {
    void *later = p.c.plan(p.in, p.out);
    CHILD_CHECK(later, "%s: no plan after the loss", p.c.name);
    if (!later) continue;
    CHILD_CHECK(std::strcmp(gpufftw_plan_where(later), "cpu") == 0, "%s planned on %s after the loss", p.c.name,
                gpufftw_plan_where(later));
    CHILD_CHECK(std::strstr(gpufftw_plan_why(later), "the GPU was lost") != nullptr, "%s: why \"%s\"", p.c.name,
                gpufftw_plan_why(later));
    load(p);
    execute(p.c, later);
    check_result(p, "a plan made after the loss");
    destroy(p.c, later);
  }
  gpufftw_set_mode(GPUFFTW_MODE_AUTO);
  fftwf_plan on_device = fftwf_plan_dft_1d(1 << 16, static_cast<fftwf_complex *>(device_in),
                                           static_cast<fftwf_complex *>(device_out), FFTW_FORWARD, FFTW_ESTIMATE);
  CHILD_CHECK(!on_device, "a plan over device arrays after the loss: on %s, %s", gpufftw_plan_where(on_device),
              gpufftw_plan_why(on_device));
  if (on_device) fftwf_destroy_plan(on_device);  // never executed: it would read device memory on the host
  cudaFree(device_in);  // into the lost context: an error, not a crash
  cudaFree(device_out);
  void *big = fftw_malloc(64 << 20);  // fftw_malloc must not ask the lost context
  CHILD_CHECK(big, "fftw_malloc after the loss");
  std::memset(big, 1, 64 << 20);
  fftw_free(big);
  for (Planned &p : planned) {
    destroy(p.c, p.plan);
    if (p.out != p.in) fftw_free(p.out);
    fftw_free(p.in);
  }
  std::printf("scenario done: %d failure(s)\n", fails);
  return fails;
}

TEST(StickyGpu, TheExecuteHitEndsRightAndEveryLaterPlanRunsOnTheRealFftw) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(fds[1], 1);  // stdout and stderr, one pipe: the order kept, nothing to block on
    dup2(fds[1], 2);
    close(fds[0]);
    setvbuf(stdout, nullptr, _IONBF, 0);
    setenv("GPUFFTW_MODE", "gpu", 1);
    unsetenv("GPUFFTW_FAULT");
    const int f = scenario();
    std::fflush(nullptr);
    std::exit(f ? 1 : 0);  // through exit: its handlers, the library's and CUDA's, must run cleanly
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t got; (got = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(got));
  close(fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  std::printf("%s", out.c_str());
  if (out.rfind("SKIP ", 0) == 0) GTEST_SKIP() << out.substr(5);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_NE(out.find("scenario done: 0 failure(s)"), std::string::npos);
  // The loss's warning, once; no "GPU execute failed" besides (that one
  // is for failures the GPU survives).
  const std::string warning = "gpufftw: the GPU was lost to a sticky CUDA error";
  size_t lines = 0;
  for (size_t at = out.find(warning); at != std::string::npos; at = out.find(warning, at + 1)) ++lines;
  EXPECT_EQ(lines, 1u) << "one warning for the loss, not " << lines;
  EXPECT_NE(out.find("cudaErrorLaunchFailure"), std::string::npos);
  EXPECT_EQ(out.find("GPU execute failed"), std::string::npos);
}

}  // namespace
