// A program that knows nothing of FFTW at link time opens gpufftw with
// dlopen (by its own name, and by a drop-in name) and plans through it.
#include <dlfcn.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <string>

#include "direct_dft.h"

namespace {

void plan_and_check(const std::string &path) {
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  auto alloc = reinterpret_cast<decltype(&fftwf_alloc_complex)>(dlsym(h, "fftwf_alloc_complex"));
  auto plan = reinterpret_cast<decltype(&fftwf_plan_dft_1d)>(dlsym(h, "fftwf_plan_dft_1d"));
  auto execute = reinterpret_cast<decltype(&fftwf_execute)>(dlsym(h, "fftwf_execute"));
  auto destroy = reinterpret_cast<decltype(&fftwf_destroy_plan)>(dlsym(h, "fftwf_destroy_plan"));
  auto release = reinterpret_cast<decltype(&fftwf_free)>(dlsym(h, "fftwf_free"));
  ASSERT_TRUE(alloc && plan && execute && destroy && release);
  ASSERT_NE(dlsym(h, "gpufftw_version"), nullptr) << path << " is not gpufftw";
  const int n = 96;
  fftwf_complex *a = alloc(n);
  std::vector<gpufftw_test::cld> x = gpufftw_test::random_fill(&a[0][0], n);
  fftwf_plan p = plan(n, a, a, FFTW_BACKWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  execute(p);
  EXPECT_LT(gpufftw_test::rel_error(&a[0][0], gpufftw_test::direct_dft(x, FFTW_BACKWARD)), 1e-5);
  destroy(p);
  release(a);
  dlclose(h);
}

}  // namespace

TEST(Dlopen, ByItsOwnName) { plan_and_check(GPUFFTW_LIBRARY_FILE); }
TEST(Dlopen, ByADropInName) { plan_and_check(GPUFFTW_DROPIN_DIR "/libfftw3f.so.3"); }
