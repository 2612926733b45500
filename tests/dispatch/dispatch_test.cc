// The dispatch decisions without a GPU: the cost model with injected rates,
// and the store's file (missing, corrupt, another machine's, the choices'
// round trip across runs and their forgetting).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "shim/cost_model.h"
#include "shim/dispatch_store.h"

namespace gpufftw {
namespace {

Problem c2c_f32(std::vector<int64_t> n, int64_t batch = 1) {
  Problem p;
  p.kind = Kind::C2C;
  p.precision = Precision::F32;
  int64_t stride = 1;
  p.dims.resize(n.size());
  for (size_t i = n.size(); i-- > 0;) {
    p.dims[i] = {n[i], stride, stride};
    stride *= n[i];
  }
  if (batch > 1) p.howmany.push_back({batch, stride, stride});
  return p;
}

// A GPU 30 µs away with 40 GB/s pinned and 10 GB/s pageable, and a CPU at
// 0.5 ns per point and log2 n everywhere.
GpuRates gpu_rates() {
  GpuRates g;
  g.latency_s = {60e-6, 30e-6};
  g.single_bps = {10e9, 40e9};
  g.batch_bps = {10e9, 40e9};
  return g;
}

CpuRates cpu_rates(double ns = 0.5) {
  CpuRates c;
  for (auto &row : c.single_ns) row.fill(ns);
  c.batch_ns.fill(ns);
  return c;
}

TEST(CostModel, PredictionsFollowTheRates) {
  const Problem big = c2c_f32({1 << 24});
  // In 128 MB and out 128 MB one after the other, plus the latency.
  EXPECT_NEAR(gpu_seconds(big, true, gpu_rates()), 30e-6 + 2 * 134217728 / 40e9, 1e-9);
  EXPECT_NEAR(cpu_seconds(big, cpu_rates()), 0.5e-9 * (1 << 24) * 24, 1e-9);
  // A batch's copies overlap: the larger side, not the sum.
  const Problem batch = c2c_f32({4096}, 4096);
  EXPECT_NEAR(gpu_seconds(batch, true, gpu_rates()), 30e-6 + 134217728 / 40e9, 1e-9);
  // r2c: half the work of a c2c of the same size, and the real side's bytes.
  Problem r2c = big;
  r2c.kind = Kind::R2C;
  EXPECT_NEAR(cpu_seconds(r2c, cpu_rates()), cpu_seconds(big, cpu_rates()) / 2, 1e-9);
  EXPECT_DOUBLE_EQ(bytes_in(r2c), 4.0 * (1 << 24));
  EXPECT_DOUBLE_EQ(bytes_out(r2c), 8.0 * ((1 << 23) + 1));
}

TEST(CostModel, CpuRatesInterpolateBySize) {
  CpuRates c = cpu_rates();
  for (int i = 0; i < CpuRates::kSizes; ++i) c.single_ns[0][i] = 1.0 + i;  // 1 at 2^4 ... 6 at 2^20
  const double at7 = cpu_seconds(c2c_f32({1 << 7}), c) / ((1 << 7) * 7 * 1e-9);
  EXPECT_NEAR(at7, 2.0, 1e-9);
  const double between = cpu_seconds(c2c_f32({1 << 16 | 1 << 15}), c);  // log2 ≈ 16.58
  EXPECT_GT(between / ((1 << 16 | 1 << 15) * std::log2(double(1 << 16 | 1 << 15)) * 1e-9), 5.0);
  // Beyond the measured sizes the rate stays flat.
  EXPECT_NEAR(cpu_seconds(c2c_f32({1 << 24}), c) / ((1 << 24) * 24 * 1e-9), 6.0, 1e-9);
}

TEST(CostModel, JudgeSidesAndSureness) {
  const GpuRates g = gpu_rates();
  const CpuRates c = cpu_rates();
  Verdict v = judge(c2c_f32({1 << 24}), true, g, c);
  EXPECT_TRUE(v.gpu);
  EXPECT_TRUE(v.sure);  // 201 ms against 6.7 ms
  v = judge(c2c_f32({1024}), true, g, c);
  EXPECT_FALSE(v.gpu);
  EXPECT_TRUE(v.sure);  // 5 µs against 30 µs
  // Near the crossing: a side, but not sure, so FFTW_MEASURE times both.
  v = judge(c2c_f32({4096}, 4), true, g, c);
  EXPECT_FALSE(v.sure);
  // Pageable arrays move the same problem to the CPU.
  const Problem mid = c2c_f32({1 << 16}, 4);
  EXPECT_TRUE(judge(mid, true, g, cpu_rates(0.05)).gpu);  // 82 µs against 210 µs
  EXPECT_FALSE(judge(mid, false, g, cpu_rates(0.05)).gpu);  // 270 µs
}

TEST(CostModel, LinesRoundTripAndRejectGarbage) {
  GpuRates g = gpu_rates(), g2;
  ASSERT_TRUE(parse(format(g), &g2));
  EXPECT_DOUBLE_EQ(g2.batch_bps[1], g.batch_bps[1]);
  CpuRates c = cpu_rates(0.75), c2;
  c.precision = Precision::F64;
  c.threads = 16;
  ASSERT_TRUE(parse(format(c), &c2));
  EXPECT_EQ(c2.threads, 16);
  EXPECT_EQ(c2.precision, Precision::F64);
  EXPECT_DOUBLE_EQ(c2.single_ns[2][5], 0.75);
  EXPECT_FALSE(parse("gpu 1 2 3", &g2));                     // short
  EXPECT_FALSE(parse(format(g) + " 7", &g2));                // long
  EXPECT_FALSE(parse("gpu 1 2 3 4 5 -6", &g2));              // negative
  EXPECT_FALSE(parse("gpu 1 2 3 4 5 nan", &g2));             // not finite
  EXPECT_FALSE(parse("cpu f16 1" + format(c).substr(9), &c2));  // no such precision
}

class Store : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/gpufftw-dispatch-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    path_ = dir_ + "/sub/dispatch.txt";  // the directory is made on first save
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  DispatchStore make(const std::string &machine = "test machine") {
    DispatchStore::Calibrators c;
    c.gpu = [this](GpuRates *r, std::string *) {
      ++gpu_calibrations_;
      *r = gpu_rates();
      return true;
    };
    c.cpu = [this](Precision p, int threads) {
      ++cpu_calibrations_;
      CpuRates r = cpu_rates();
      r.precision = p;
      r.threads = threads;
      return r;
    };
    return DispatchStore(path_, machine, c);
  }

  std::string file() const {
    std::ifstream in(path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::string dir_, path_;
  int gpu_calibrations_ = 0, cpu_calibrations_ = 0;
};

TEST_F(Store, CalibratesOnceAndTheNextRunReadsTheFile) {
  {
    DispatchStore s = make();
    ASSERT_TRUE(s.gpu_rates());
    s.gpu_rates();
    s.cpu_rates(Precision::F32, 16);
    s.cpu_rates(Precision::F32, 16);
    s.cpu_rates(Precision::F64, 16);
  }
  EXPECT_EQ(gpu_calibrations_, 1);
  EXPECT_EQ(cpu_calibrations_, 2);
  DispatchStore next = make();
  EXPECT_DOUBLE_EQ(next.gpu_rates()->single_bps[1], 40e9);
  EXPECT_EQ(next.cpu_rates(Precision::F64, 16).precision, Precision::F64);
  EXPECT_EQ(gpu_calibrations_, 1);
  EXPECT_EQ(cpu_calibrations_, 2);
  next.cpu_rates(Precision::F32, 1);  // a new thread count is calibrated
  EXPECT_EQ(cpu_calibrations_, 3);
}

TEST_F(Store, CorruptFileIsCalibratedAgainAndRewritten) {
  make().gpu_rates();
  {
    std::ofstream out(path_, std::ios::app);
    out << "gpu 1 2 \x01 garbage\n";
  }
  DispatchStore s = make();
  ASSERT_TRUE(s.gpu_rates());
  EXPECT_EQ(gpu_calibrations_, 2);
  EXPECT_EQ(file().find("garbage"), std::string::npos);
  make().gpu_rates();
  EXPECT_EQ(gpu_calibrations_, 2);  // the rewritten file is good
}

TEST_F(Store, AnotherMachinesFileIsCalibratedAgain) {
  make("machine A").gpu_rates();
  make("machine B").gpu_rates();
  EXPECT_EQ(gpu_calibrations_, 2);
  EXPECT_NE(file().find("machine B"), std::string::npos);
}

TEST_F(Store, ChoicesRoundTripAcrossRunsAndAreForgotten) {
  Choice c;
  c.gpu = true;
  c.gpu_s = 0.001;
  c.cpu_s = 0.004;
  make().remember("c2c.f32.n1024:1:1,.h64:1024:1024,.fwd.oop.t16.pinned", c);
  make().remember("c2c.f64.n4096:1:1,.h.fwd.oop.t1.pageable", Choice{false, 0.002, 0.001});
  DispatchStore s = make();
  Choice got;
  ASSERT_TRUE(s.recall("c2c.f32.n1024:1:1,.h64:1024:1024,.fwd.oop.t16.pinned", &got));
  EXPECT_TRUE(got.gpu);
  EXPECT_DOUBLE_EQ(got.cpu_s, 0.004);
  EXPECT_FALSE(s.recall("c2c.f32.n1024:1:1,.h64:1024:1024,.fwd.oop.t8.pinned", &got));
  // Forgetting the f32 choices keeps the f64 one, in this run and in the file.
  s.forget([](const std::string &k) { return k.find(".f32.") != std::string::npos; });
  EXPECT_FALSE(s.recall("c2c.f32.n1024:1:1,.h64:1024:1024,.fwd.oop.t16.pinned", &got));
  ASSERT_TRUE(s.recall("c2c.f64.n4096:1:1,.h.fwd.oop.t1.pageable", &got));
  EXPECT_FALSE(got.gpu);
  s.remember("r2c.f32.n64:1:1,.h.oop.t1.pageable", Choice{false, 1, 2});
  DispatchStore after = make();
  EXPECT_FALSE(after.recall("c2c.f32.n1024:1:1,.h64:1024:1024,.fwd.oop.t16.pinned", &got));
  EXPECT_TRUE(after.recall("c2c.f64.n4096:1:1,.h.fwd.oop.t1.pageable", &got));
  EXPECT_TRUE(after.recall("r2c.f32.n64:1:1,.h.oop.t1.pageable", &got));
}

TEST_F(Store, UnwritableDirectoryKeepsChoicesInTheProcess) {
  path_ = "/proc/gpufftw-cannot/dispatch.txt";
  DispatchStore s = make();
  s.remember("k", Choice{true, 1, 2});
  Choice got;
  EXPECT_TRUE(s.recall("k", &got));
  EXPECT_TRUE(s.gpu_rates());
}

TEST(StorePath, FollowsTheEnvironment) {
  setenv("GPUFFTW_CACHE_DIR", "/x/y", 1);
  EXPECT_EQ(dispatch_store_path(), "/x/y/dispatch.txt");
  unsetenv("GPUFFTW_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/c", 1);
  EXPECT_EQ(dispatch_store_path(), "/c/gpufftw/dispatch.txt");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/h", 1);
  EXPECT_EQ(dispatch_store_path(), "/h/.cache/gpufftw/dispatch.txt");
}

}  // namespace
}  // namespace gpufftw
