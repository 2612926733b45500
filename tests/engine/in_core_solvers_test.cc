// The in-core solvers' choice of geometries, on the CPU: our kernels'
// solver takes a geometry from the picks remembered alone (no GPU, no
// timing), and declines, saying why, where no pick and no tuning, or a
// pick of cuFFT, keeps cuFFT; cuFFT's solver leaves r2r to the r2r passes';
// the table asks our kernels before cuFFT.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "engine/in_core/cufft_job.h"
#include "engine/in_core/own_kernel.h"
#include "engine/plan/table.h"

namespace gpufftw::engine {
namespace {

std::map<std::string, KernelPick> remembered;

class InCoreSolvers : public testing::Test {
 protected:
  void SetUp() override {
    remembered.clear();
    set_kernel_pick_store({[](const std::string &key, KernelPick *pick) {
                             const auto it = remembered.find(key);
                             return it != remembered.end() && (*pick = it->second, true);
                           },
                           [](const std::string &key, const KernelPick &pick) { remembered[key] = pick; }});
  }
  // A dense batch of `count` c2c of n. Each test takes an n of its own:
  // the engine keeps the picks it recalled for the process.
  static Geometry batch(long long n, Geometry::OwnKernels own) {
    Geometry g;
    g.dims = {{n, 1, 1}};
    g.loops = {{64, n, n}};
    g.own_kernels = own;
    return g;
  }
  bool suits(const Solver &s, const Geometry &g) {
    why = {};
    return s.suits(g, {0}, &why);
  }
  Reason why;
};

TEST_F(InCoreSolvers, OurKernelsDeclineUnmeasuredWhereNothingTunes) {
  EXPECT_FALSE(suits(kOwnKernelSolver, batch(1024, Geometry::OwnKernels::Recall)));
  EXPECT_EQ(why.text, "own kernels not measured for this problem: FFTW_MEASURE measures them");
  EXPECT_EQ(why.code, Reason::Code::NotAsked);
  EXPECT_TRUE(suits(kOwnKernelSolver, batch(1024, Geometry::OwnKernels::Tune))) << why.text;
}

TEST_F(InCoreSolvers, OurKernelsDeclineWhereThePickRememberedIsCufft) {
  const Geometry g = batch(256, Geometry::OwnKernels::Tune);
  remembered[kernel_pick_key(g)] = {"cufft", 2e-3, 1e-3};
  EXPECT_FALSE(suits(kOwnKernelSolver, g));
  EXPECT_EQ(why.text, "tuned: own kernels 2 ms against cuFFT's 1 ms");
  EXPECT_EQ(why.code, Reason::Code::Slower);
}

TEST_F(InCoreSolvers, OurKernelsTakeWhereThePickRememberedIsOurs) {
  const Geometry g = batch(128, Geometry::OwnKernels::Recall);
  remembered[kernel_pick_key(g)] = {"stages16-128", 1e-3, 2e-3};
  EXPECT_TRUE(suits(kOwnKernelSolver, g)) << why.text;
}

TEST_F(InCoreSolvers, OurKernelsTakeDenseC2cOnly) {
  Geometry r2c = batch(512, Geometry::OwnKernels::Tune);
  r2c.type = Type::R2C;
  Geometry strided = batch(512, Geometry::OwnKernels::Tune);
  strided.dims = {{512, 2, 2}};
  strided.loops = {{64, 1024, 1024}};
  for (const Geometry &g : {r2c, strided, batch(512, Geometry::OwnKernels::None)}) {
    EXPECT_FALSE(suits(kOwnKernelSolver, g));
    EXPECT_EQ(why.text, "our kernels take dense c2c of the shapes they have kernels for");
    EXPECT_EQ(why.code, Reason::Code::NotItsKind);
  }
}

TEST_F(InCoreSolvers, R2rIsTheR2rPassesOwn) {
  Geometry g = batch(64, Geometry::OwnKernels::None);
  g.type = Type::R2R;
  g.kinds = {R2rKind::REDFT10};
  EXPECT_TRUE(suits(kR2rSolver, g)) << why.text;
  EXPECT_FALSE(suits(kInCoreSolver, g));
  EXPECT_FALSE(suits(kR2rSolver, batch(64, Geometry::OwnKernels::None)));
  EXPECT_TRUE(suits(kInCoreSolver, batch(64, Geometry::OwnKernels::None))) << why.text;
}

TEST_F(InCoreSolvers, TheTableAsksOurKernelsBeforeCufft) {
  std::vector<std::string> names;
  for (const Solver &s : solver_table()) names.push_back(s.name);
  const auto at = [&names](const std::string &n) { return std::find(names.begin(), names.end(), n) - names.begin(); };
  EXPECT_LT(at(kOwnKernelSolver.name), at(kInCoreSolver.name));
  EXPECT_LT(at(kInCoreSolver.name), static_cast<long>(names.size()));
  EXPECT_LT(at(kR2rSolver.name), static_cast<long>(names.size()));
}

}  // namespace
}  // namespace gpufftw::engine
