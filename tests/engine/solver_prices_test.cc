// The engine's solvers' prices (Solver::cost, engine/solver/price.h), on
// the CPU: what each counts, and that they order the solvers as the
// planner must make them: half precision, where asked, before single;
// in core before out of core; our kernels before cuFFT where tuning found
// them faster, at cuFFT's price where it is still to measure them.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "engine/fp16/fp16_job.h"
#include "engine/in_core/cufft_job.h"
#include "engine/in_core/own_kernel.h"
#include "engine/multi/split_job.h"
#include "engine/out_of_core/four_step.h"
#include "engine/out_of_core/out_of_core.h"

namespace gpufftw::engine {
namespace {

double seconds(const Solver &s, const Geometry &g, const std::vector<int> &set = {0}) {
  return s.cost(g, set).seconds(Rates{});
}

// `count` dense c2c of n.
Geometry batch(long long n, long long count) {
  Geometry g;
  g.dims = {{n, 1, 1}};
  g.loops = {{count, n, n}};
  return g;
}

TEST(SolverPrices, ArrayBytesCountEachSide) {
  EXPECT_EQ(array_bytes(batch(1024, 64)), 2.0 * 1024 * 64 * 8);
  Geometry r2c = batch(1024, 64);
  r2c.type = Type::R2C;
  r2c.real = Real::F64;
  EXPECT_EQ(array_bytes(r2c), 64 * (1024 * 8 + 513 * 16.0));
  Geometry r2r = batch(1024, 64);
  r2r.type = Type::R2R;
  EXPECT_EQ(array_bytes(r2r), 2.0 * 1024 * 64 * 4);
}

// In core, the arrays cross the link once each way and cuFFT passes over
// them once; gathered, a kernel's pass each way besides.
TEST(SolverPrices, InCoreCountsTheLinkOnceAndItsPasses) {
  const Geometry g = batch(1024, 64);
  const double bytes = array_bytes(g);
  const Price p = kInCoreSolver.cost(g, {0});
  EXPECT_EQ(p.link_bytes, bytes);
  EXPECT_EQ(p.device_bytes, bytes);
  Geometry split = g;
  split.split_in = split.split_out = true;
  EXPECT_EQ(kInCoreSolver.cost(split, {0}).device_bytes, 3 * bytes);
  EXPECT_GT(seconds(kInCoreSolver, split), seconds(kInCoreSolver, g));
}

TEST(SolverPrices, HalfPrecisionIsCheaperThanSingle) {
  Geometry g = batch(1024, 4096);
  g.half = true;
  for (const Solver *s : {&kInCoreSolver, &kOwnKernelSolver})
    EXPECT_LT(seconds(kFp16Solver, g), seconds(*s, g)) << s->name;
}

TEST(SolverPrices, OutOfCoreCostsMoreThanInCore) {
  Geometry plane;
  plane.dims = {{4096, 4096, 4096}, {4096, 1, 1}};
  EXPECT_GT(seconds(kOutOfCoreSolver, plane), seconds(kInCoreSolver, plane));
  EXPECT_EQ(seconds(kOutOfCoreSolver, plane), seconds(kOutOfCoreOverCapSolver, plane));
  Geometry line;
  line.dims = {{1 << 24, 1, 1}};
  EXPECT_GT(seconds(kFourStepSolver, line), seconds(kOutOfCoreSolver, plane));
  EXPECT_GT(seconds(kFourStepSolver, line), seconds(kInCoreSolver, line));
}

// Each of the split's shapes moves a GPU's share over each link, the
// links side by side: cheaper on two GPUs than one GPU in core.
TEST(SolverPrices, TheSplitsShareTheLinkBetweenTheGpus) {
  const Geometry g = batch(1024, 65536);
  EXPECT_DOUBLE_EQ(seconds(kBatchSplitSolver, g, {0, 1}), seconds(kBatchSplitSolver, g, {0, 1, 2, 3}) * 2);
  EXPECT_LT(seconds(kBatchSplitSolver, g, {0, 1}), seconds(kInCoreSolver, g));
  Geometry cube;
  cube.dims = {{256, 65536, 65536}, {256, 256, 256}, {256, 1, 1}};
  EXPECT_LT(seconds(kSlabSplitSolver, cube, {0, 1}), seconds(kInCoreSolver, cube));
  Geometry line;
  line.dims = {{1 << 24, 1, 1}};
  EXPECT_LT(seconds(kLineSplitSolver, line, {0, 1}), seconds(kInCoreSolver, line));
}

std::map<std::string, KernelPick> remembered;

// Our kernel's device passes at the share of cuFFT's time tuning measured;
// cuFFT's price where none was measured.
TEST(SolverPrices, OurKernelsAtTheirMeasuredShareOfCufft) {
  remembered.clear();
  set_kernel_pick_store({[](const std::string &key, KernelPick *pick) {
                           const auto it = remembered.find(key);
                           return it != remembered.end() && (*pick = it->second, true);
                         },
                         [](const std::string &key, const KernelPick &pick) { remembered[key] = pick; }});
  const Geometry measured = batch(2048, 4096), unmeasured = batch(4096, 4096);
  remembered[kernel_pick_key(measured)] = {"stages16-128", 1e-3, 4e-3};
  const Price cufft = kInCoreSolver.cost(measured, {0}), ours = kOwnKernelSolver.cost(measured, {0});
  EXPECT_EQ(ours.link_bytes, cufft.link_bytes);
  EXPECT_EQ(ours.device_bytes, cufft.device_bytes / 4);
  EXPECT_EQ(seconds(kOwnKernelSolver, unmeasured), seconds(kInCoreSolver, unmeasured));
}

}  // namespace
}  // namespace gpufftw::engine
