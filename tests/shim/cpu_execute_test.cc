// A plan that runs on the real FFTW pays nothing for the GPUs it does not
// use: every execute entry, run many times on such a plan with stand-in
// device sets of 1, 2 and 8 GPUs, asks the GPU nothing (dispatch/devices.h
// counts each question the shim can ask it). Built from the library's own
// objects, so the fftw_* calls here are the shim's; run plain (fftw_execute
// takes its shortcut) and with the report on (every execute through the
// shim's run, tests/CMakeLists.txt).
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dispatch/devices.h"
#include "gpufftw/gpufftw.h"

namespace {

constexpr int kN = 1024;
constexpr int kExecutes = 200;

// The questions asked of the GPU by `executes` calls of `run`.
template <class F>
unsigned long questions_during(F run) {
  const unsigned long before = gpufftw::gpu_questions();
  for (int i = 0; i < kExecutes; ++i) run();
  return gpufftw::gpu_questions() - before;
}

class CpuExecute : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(gpufftw_real_fftw_available('f') && gpufftw_real_fftw_available('d')) << "no real FFTW";
    std::vector<int> set;
    for (int d = 0; d < GetParam(); ++d) set.push_back(d);
    gpufftw::stand_in_devices(set);
    ASSERT_EQ(gpufftw::gpu_devices(), set) << "the stand-in set is not what the shim would see";
    gpufftw_set_mode(GPUFFTW_MODE_CPU);
  }
  void TearDown() override {
    gpufftw_set_mode(GPUFFTW_MODE_AUTO);
    gpufftw::stand_in_devices({});
  }
};

TEST_P(CpuExecute, ComplexSinglePrecisionAsksTheGpuNothing) {
  std::vector<fftwf_complex> in(kN), out(kN);
  fftwf_plan p = fftwf_plan_dft_1d(kN, in.data(), out.data(), FFTW_FORWARD, FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  ASSERT_STREQ(gpufftw_plan_where(p), "cpu");
  for (fftwf_complex &c : in) c[0] = c[1] = 0;
  in[0][0] = 1;
  EXPECT_EQ(questions_during([&] { fftwf_execute(p); }), 0u) << "fftwf_execute, " << GetParam() << " GPUs";
  EXPECT_EQ(questions_during([&] { fftwf_execute_dft(p, in.data(), out.data()); }), 0u)
      << "fftwf_execute_dft, " << GetParam() << " GPUs";
  // The executes ran: an impulse's transform is all ones.
  for (const fftwf_complex &c : out) ASSERT_NEAR(std::hypot(c[0] - 1, c[1]), 0, 1e-5);
  fftwf_destroy_plan(p);
  std::vector<float> ri(kN, 0), ii(kN, 0), ro(kN), io(kN);
  const fftwf_iodim dim = {kN, 1, 1};
  fftwf_plan split = fftwf_plan_guru_split_dft(1, &dim, 0, nullptr, ri.data(), ii.data(), ro.data(), io.data(),
                                               FFTW_ESTIMATE);
  ASSERT_NE(split, nullptr);
  ASSERT_STREQ(gpufftw_plan_where(split), "cpu");
  EXPECT_EQ(questions_during([&] { fftwf_execute_split_dft(split, ri.data(), ii.data(), ro.data(), io.data()); }), 0u)
      << "fftwf_execute_split_dft, " << GetParam() << " GPUs";
  fftwf_destroy_plan(split);
}

TEST_P(CpuExecute, RealDoublePrecisionAsksTheGpuNothing) {
  std::vector<double> x(kN, 1), back(kN);
  std::vector<fftw_complex> y(kN / 2 + 1);
  fftw_plan r2c = fftw_plan_dft_r2c_1d(kN, x.data(), y.data(), FFTW_ESTIMATE);
  fftw_plan c2r = fftw_plan_dft_c2r_1d(kN, y.data(), back.data(), FFTW_ESTIMATE);
  fftw_plan r2r = fftw_plan_r2r_1d(kN, x.data(), back.data(), FFTW_REDFT10, FFTW_ESTIMATE);
  ASSERT_TRUE(r2c && c2r && r2r);
  for (fftw_plan p : {r2c, c2r, r2r}) ASSERT_STREQ(gpufftw_plan_where(p), "cpu");
  EXPECT_EQ(questions_during([&] { fftw_execute_dft_r2c(r2c, x.data(), y.data()); }), 0u)
      << "fftw_execute_dft_r2c, " << GetParam() << " GPUs";
  EXPECT_NEAR(y[0][0], kN, 1e-9);  // a constant's transform: n at zero
  EXPECT_EQ(questions_during([&] { fftw_execute(r2c); }), 0u) << "fftw_execute of an r2c, " << GetParam() << " GPUs";
  EXPECT_EQ(questions_during([&] { fftw_execute_dft_c2r(c2r, y.data(), back.data()); }), 0u)
      << "fftw_execute_dft_c2r, " << GetParam() << " GPUs";
  EXPECT_EQ(questions_during([&] { fftw_execute_r2r(r2r, x.data(), back.data()); }), 0u)
      << "fftw_execute_r2r, " << GetParam() << " GPUs";
  for (fftw_plan p : {r2c, c2r, r2r}) fftw_destroy_plan(p);
}

INSTANTIATE_TEST_SUITE_P(StandInDeviceSets, CpuExecute, ::testing::Values(1, 2, 8),
                         [](const ::testing::TestParamInfo<int> &set) {
                           return std::to_string(set.param) + "Gpus";
                         });

}  // namespace
