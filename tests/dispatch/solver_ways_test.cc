// The engine's solvers as the GPU's ways (dispatch/solver_ways.h) against
// the stand-in sides: where the GPU side offers several, the GPU's way at
// a placement is one per solver, priced by the ratio of their seconds;
// FFTW_ESTIMATE makes the cheaper, FFTW_MEASURE reads those priced close
// and keeps and stores the faster, which the next plan recalls; a solver
// that makes no plan leaves the next; where one is offered, the list is as
// it was.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dispatch/gpu_way.h"
#include "dispatch/measure.h"
#include "dispatch/solver_ways.h"
#include "dispatch/why.h"
#include "policy_fixture.h"

namespace gpufftw {
namespace {

bool says(const std::string &why, const std::string &what) { return why.find(what) != std::string::npos; }

class SolverWays : public Policy {
 protected:
  // A problem the model is sure the GPU takes, as the engine places it
  // (the stand-in's model prices no split).
  Problem sure_gpu(unsigned flags) {
    const Problem p = problem(flags);
    gpu_.one_s = cpu_price(p, 1) / (2 * kSureRatio);
    return p;
  }
  KernelPick stored_way(const Problem &p) {
    KernelPick pick;
    EXPECT_TRUE(store(true).recall_kernel(way_key(p, ArraysAt::Pageable, Spread::Auto), &pick)) << "no way stored";
    return pick;
  }
};

// Two offers: the way becomes two, each naming its solver, priced at the
// way's price times its seconds over the cheapest's (the cheaper listed
// second: the ratio is to the cheapest, not the first); unpriced, at the
// solvers' own seconds. A way that does not apply, or is in half, stays.
TEST_F(SolverWays, TwoOffersAreTwoWaysPricedByTheirRatio) {
  gpu_.offered = {{"out of core", 2.0}, {"cuFFT", 0.5}};
  const Problem p = problem();
  Candidate ruled_out = Candidate::gpu_at(Spread::Auto, 1e-3);
  ruled_out.unfit = Unfit::NotPriced;
  const std::vector<Candidate> ways =
      solver_ways(planner_, p,
                  {Candidate::gpu_at(Spread::Auto, 3e-3), ruled_out,
                   Candidate::gpu_at(Spread::Auto, 1e-3, Fp16Way::CufftHalf)});
  ASSERT_EQ(ways.size(), 4u);
  EXPECT_EQ(ways[0].solver, "out of core");
  ASSERT_TRUE(ways[0].price);
  EXPECT_DOUBLE_EQ(*ways[0].price, 12e-3);
  EXPECT_EQ(ways[1].solver, "cuFFT");
  ASSERT_TRUE(ways[1].price);
  EXPECT_DOUBLE_EQ(*ways[1].price, 3e-3);
  for (size_t i : {2u, 3u}) EXPECT_EQ(ways[i].solver, "") << i;
  EXPECT_EQ(ways[3].way, Fp16Way::CufftHalf);
  EXPECT_TRUE(has_solver_ways(ways));

  const std::vector<Candidate> unpriced = solver_ways(planner_, p, {Candidate::gpu_at(Spread::Auto)});
  ASSERT_EQ(unpriced.size(), 2u);
  EXPECT_DOUBLE_EQ(*unpriced[0].price, 2.0);
  EXPECT_DOUBLE_EQ(*unpriced[1].price, 0.5);
  EXPECT_EQ(way_variant(unpriced[0]), "fp32:out_of_core");
  EXPECT_EQ(way_label(unpriced[0], false), "out of core");
  EXPECT_EQ(way_label(unpriced[0], true), "f32 (out of core)");
}

// One offer, or none: the way as it was, no solver named, and the plan
// made as the engine places it, its why as before.
TEST_F(SolverWays, OneOfferLeavesTheListAsItWas) {
  const Problem p = sure_gpu(FFTW_ESTIMATE);
  for (const std::vector<SolverOffer> &offered :
       {std::vector<SolverOffer>{}, std::vector<SolverOffer>{{"cuFFT", 0.5}}}) {
    gpu_.offered = offered;
    const std::vector<Candidate> ways = solver_ways(planner_, p, {Candidate::gpu_at(Spread::Auto, 3e-3)});
    ASSERT_EQ(ways.size(), 1u);
    EXPECT_EQ(ways[0].solver, "");
    EXPECT_DOUBLE_EQ(*ways[0].price, 3e-3);
    EXPECT_FALSE(has_solver_ways(ways));
    gpu_.solvers_made.clear();
    const Dispatched d = choose_now(p);
    ASSERT_TRUE(made(d).gpu()) << d.why;
    EXPECT_EQ(made(d).solver(), "");
    EXPECT_EQ(gpu_.solvers_made, (std::map<std::string, int>{{"", 1}}));
    EXPECT_FALSE(says(d.why, "solver")) << d.why;
  }
}

// A fallback solver (made where the cheaper make no job) is a way of its
// own only where the program asks for every plan timed, FFTW_PATIENT and
// up; under FFTW_MEASURE and FFTW_ESTIMATE the way stays one, the engine's
// choice, so nothing more is made or read.
TEST_F(SolverWays, AFallbackSolverIsAWayOnlyUnderPatient) {
  gpu_.offered = {{"cuFFT", 1.0}, {"out of core", 2.0, true}};
  for (unsigned flags : {FFTW_ESTIMATE, FFTW_MEASURE}) {
    const std::vector<Candidate> ways = solver_ways(planner_, problem(flags), {Candidate::gpu_at(Spread::Auto, 3e-3)});
    ASSERT_EQ(ways.size(), 1u) << flags;
    EXPECT_EQ(ways[0].solver, "") << flags;
  }
  for (unsigned flags : {FFTW_PATIENT, FFTW_EXHAUSTIVE}) {
    const std::vector<Candidate> ways = solver_ways(planner_, problem(flags), {Candidate::gpu_at(Spread::Auto, 3e-3)});
    ASSERT_EQ(ways.size(), 2u) << flags;
    EXPECT_EQ(ways[1].solver, "out of core") << flags;
    EXPECT_DOUBLE_EQ(*ways[1].price, 6e-3) << flags;
  }
  gpu_.offered.push_back({"four-step", 1.5, true});
  EXPECT_EQ(solver_ways(planner_, problem(FFTW_MEASURE), {Candidate::gpu_at(Spread::Auto, 3e-3)}).size(), 1u)
      << "two fallbacks beside one solver: still one way";
}

// FFTW_ESTIMATE: the cheaper solver's plan, nothing read, the why naming
// it and both prices.
TEST_F(SolverWays, EstimateMakesTheCheaper) {
  gpu_.offered = {{"out of core", 2.0}, {"cuFFT", 1.0}};
  const Problem p = sure_gpu(FFTW_ESTIMATE);
  const Dispatched d = choose_now(p);
  ASSERT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).solver(), "cuFFT") << d.why;
  EXPECT_EQ(gpu_.solvers_made, (std::map<std::string, int>{{"cuFFT", 1}}));
  EXPECT_EQ(readings_, 0);
  EXPECT_TRUE(says(d.why, "; solver: cuFFT, by the model: out of core " + ms(2 * *gpu_.one_s) + ", cuFFT " +
                              ms(*gpu_.one_s)))
      << d.why;
}

// FFTW_MEASURE: both solvers, priced within kWayTimedWithin, made and
// read in turn; the faster kept though priced dearer, and stored under the
// way's key with its solver; the next plan recalls it, nothing read.
TEST_F(SolverWays, MeasureReadsBothKeepsTheFasterAndStoresIt) {
  gpu_.offered = {{"cuFFT", 1.0}, {"out of core", 2.0}};
  solver_read_s_ = {{"cuFFT", 2e-3}, {"out of core", 1e-3}};
  const Problem p = sure_gpu(FFTW_MEASURE);
  Dispatched d = choose_now(p);
  ASSERT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).solver(), "out of core") << d.why;
  EXPECT_TRUE(says(d.why, "; solver: out of core, measured: cuFFT 2 ms, out of core 1 ms (model: cuFFT ")) << d.why;
  const KernelPick pick = stored_way(p);
  EXPECT_EQ(pick.variant, "fp32:out_of_core");
  EXPECT_DOUBLE_EQ(pick.own_s, 1e-3);
  EXPECT_EQ(way_key(p, ArraysAt::Pageable, Spread::Auto).rfind("gpuway.", 0), 0u);
  EXPECT_TRUE(stored(p).gpu);

  const int timed = readings_;
  gpu_.solvers_made.clear();
  d = choose_now(p);
  EXPECT_EQ(made(d).solver(), "out of core") << d.why;
  EXPECT_EQ(d.why.rfind("chosen earlier: gpu ", 0), 0u) << d.why;
  EXPECT_TRUE(says(d.why, "; solver: out of core, measured earlier: 1 ms")) << d.why;
  EXPECT_EQ(readings_, timed);
  EXPECT_EQ(gpu_.solvers_made, (std::map<std::string, int>{{"out of core", 1}})) << "only the stored solver is made";
}

// A solver priced over kWayTimedWithin times the cheapest is not made:
// only the cheapest in the problem's own precision is made whatever its
// price, not every one; made alone, it is not read, and with no choice
// timed no way is stored.
TEST_F(SolverWays, MeasureLeavesOutASolverPricedFarOff) {
  gpu_.offered = {{"cuFFT", 1.0}, {"out of core", 5.0}};
  solver_read_s_ = {{"cuFFT", 2e-3}, {"out of core", 1e-3}};
  const Problem p = problem();
  const GpuWay g = gpu_way_plan(planner_, p, {Candidate::gpu_at(Spread::Auto, 1e-3)}, true);
  ASSERT_TRUE(g.plan) << g.why;
  EXPECT_EQ(g.solver, "cuFFT");
  EXPECT_EQ(gpu_.solvers_made.count("out of core"), 0u);
  EXPECT_TRUE(says(g.why, "; solver: cuFFT, the one way made, nothing to read it against (model: ")) << g.why;
  EXPECT_TRUE(says(g.why, "not timed, priced over 4x the cheapest: out of core")) << g.why;
  EXPECT_EQ(readings_, 0);
  KernelPick pick;
  EXPECT_FALSE(store(true).recall_kernel(way_key(p, ArraysAt::Pageable, Spread::Auto), &pick)) << pick.variant;
}

// The cheaper solver makes no plan: the next is made, the why saying why
// the first was not.
TEST_F(SolverWays, ASolverThatMakesNoPlanLeavesTheNext) {
  gpu_.offered = {{"cuFFT", 1.0}, {"out of core", 2.0}};
  gpu_.solver_declines = {"cuFFT"};
  const Dispatched d = choose_now(sure_gpu(FFTW_ESTIMATE));
  ASSERT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).solver(), "out of core") << d.why;
  EXPECT_TRUE(says(d.why, "; solver: out of core, by the model: ")) << d.why;
  EXPECT_TRUE(says(d.why, "; cuFFT made no plan: cuFFT makes no job in this test")) << d.why;
}

// The first solver makes no job and the engine goes on to the next, whose
// plan it returns (our kernels, tuned slower than cuFFT): that plan is the
// next way's: FFTW_ESTIMATE keeps it, named as what runs; FFTW_MEASURE
// makes the next way no second time, and with one plan made there is
// nothing to read it against: it goes back unread and no way is stored.
TEST_F(SolverWays, APlanTheEngineWentOnToIsThatSolversWay) {
  gpu_.offered = {{"own kernel", 1.0}, {"cuFFT", 1.0}};
  gpu_.goes_on_to = {{"own kernel", "cuFFT"}};
  solver_read_s_ = {{"cuFFT", 2e-3}};
  const Dispatched d = choose_now(sure_gpu(FFTW_ESTIMATE));
  ASSERT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).solver(), "cuFFT") << d.why;
  EXPECT_EQ(gpu_.solvers_made, (std::map<std::string, int>{{"own kernel", 1}}));
  EXPECT_TRUE(says(d.why, "; solver: cuFFT, by the model: ")) << d.why;

  gpu_.solvers_made.clear();
  const Problem p = problem();
  const GpuWay g = gpu_way_plan(planner_, p, {Candidate::gpu_at(Spread::Auto, 1e-3)}, true);
  ASSERT_TRUE(g.plan) << g.why;
  EXPECT_EQ(g.solver, "cuFFT");
  EXPECT_EQ(gpu_.solvers_made, (std::map<std::string, int>{{"own kernel", 1}})) << "cuFFT's plan not made twice";
  EXPECT_TRUE(says(g.why, "; solver: cuFFT, the one way made, nothing to read it against (model: ")) << g.why;
  EXPECT_TRUE(says(g.why, "; own kernel made no job, the engine went on to cuFFT: own kernel made no job in this test"))
      << g.why;
  EXPECT_EQ(readings_, 0) << "a lone plan read against nothing";
  EXPECT_LT(g.read_s, 0);
  KernelPick pick;
  EXPECT_FALSE(store(true).recall_kernel(way_key(p, ArraysAt::Pageable, Spread::Auto), &pick)) << pick.variant;
}

// Under FFTW_MEASURE, a split the model prices beside one GPU, where one
// GPU's first solver goes on to the next: each placement's plan is read in
// the split-against-one rounds alone, not first on its own.
TEST_F(SolverWays, AfterAFallThroughEachPlacementIsReadOnlyAgainstTheOther) {
  gpu_.offered = {{"own kernel", 1.0}, {"cuFFT", 1.0}};
  gpu_.goes_on_to = {{"own kernel", "cuFFT"}};
  gpu_.splits = true;
  const Problem p = problem(FFTW_MEASURE);
  const std::vector<Candidate> list = {Candidate::gpu_at(Spread::Set, 1e-3), Candidate::gpu_at(Spread::One, 2e-3)};
  Candidate made_as;
  double read_s = -1;
  std::string placed;
  const std::unique_ptr<Plan> plan = placed_gpu_plan(planner_, p, list, &made_as, &read_s, &placed, nullptr);
  ASSERT_TRUE(plan) << placed;
  EXPECT_TRUE(says(placed, "; the GPUs' split ")) << placed;
  EXPECT_EQ(readings_, 6) << "three rounds of the split and one GPU, none before";
}

// A stored way that names no offered solver (one stored before the engine
// offered several) is not taken: the solvers are read again.
TEST_F(SolverWays, AStoredWayOfNoOfferedSolverIsMeasuredAgain) {
  const Problem p = problem();
  store().remember_kernel(way_key(p, ArraysAt::Pageable, Spread::Auto), KernelPick{"fp32", 1e-3, 0});
  gpu_.offered = {{"cuFFT", 1.0}, {"out of core", 2.0}};
  solver_read_s_ = {{"cuFFT", 1e-3}, {"out of core", 2e-3}};
  const GpuWay g = gpu_way_plan(planner_, p, {Candidate::gpu_at(Spread::Auto, 1e-3)}, true);
  ASSERT_TRUE(g.plan) << g.why;
  EXPECT_EQ(g.solver, "cuFFT");
  EXPECT_TRUE(says(g.why, "measured: cuFFT 1 ms, out of core 2 ms")) << g.why;
  EXPECT_EQ(stored_way(p).variant, "fp32:cuFFT");
}

}  // namespace
}  // namespace gpufftw
