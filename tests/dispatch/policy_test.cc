// Dispatch's policy (planner.h) against stand-ins for both sides: a GPU
// side whose prices, plans and readings the test sets, and a real FFTW
// side whose plans only say what they were made as. No CUDA and no FFTW
// needed, so every build runs it, the sanitizers' included.
#include <gtest/gtest.h>

#include <string>

#include "core/time_limit.h"
#include "dispatch/why.h"
#include "policy_fixture.h"

namespace gpufftw {
namespace {

TEST_F(Policy, EstimateTakesTheSideTheModelPricesLower) {
  const Problem p = problem(FFTW_ESTIMATE);
  const double cpu_s = cpu_price(p, 1);
  gpu_.one_s = cpu_s / 2;
  Dispatched d = choose_now(p);
  EXPECT_TRUE(made(d).gpu());
  EXPECT_EQ(d.why.rfind("model: gpu ", 0), 0u) << d.why;
  EXPECT_NE(d.why.find("(1 thread)"), std::string::npos) << d.why;

  gpu_.one_s = cpu_s * 2;
  d = choose_now(p);
  EXPECT_FALSE(made(d).gpu());
  EXPECT_EQ(d.why.rfind("model: gpu ", 0), 0u) << d.why;
  EXPECT_EQ(readings_, 0) << "FFTW_ESTIMATE times nothing";
  Choice c;
  EXPECT_FALSE(store().recall(choice_key(p, 1, false), &c)) << "FFTW_ESTIMATE stores nothing";
}

// The GPU set is a candidate where the model prices it, and one GPU alone
// beside it: the cheaper way is the one planned, and the why gives both
// prices. Where the model does not price the set, the engine places it.
TEST_F(Policy, TheCheaperGpuWayIsPlanned) {
  const Problem p = problem(FFTW_ESTIMATE);
  gpu_.splits = true;
  gpu_.one_s = cpu_price(p, 1) / 4;
  gpu_.set_s = *gpu_.one_s / 2;
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::Set) << d.why;
  EXPECT_NE(d.why.find("; the GPUs' split priced " + ms(*gpu_.set_s) + ", one GPU " + ms(*gpu_.one_s)),
            std::string::npos)
      << d.why;
  gpu_.set_s = *gpu_.one_s * 2;
  d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
  EXPECT_NE(d.why.find("; the GPUs' split priced "), std::string::npos) << d.why;
  gpu_.set_s.reset();
  d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::Auto) << d.why;
  EXPECT_EQ(d.why.find("split"), std::string::npos) << d.why;
  EXPECT_EQ(gpu_.plans[Spread::Set], 1) << "a set the model does not price is never planned";
  gpu_.one_s.reset();
  d = choose_now(p);
  EXPECT_FALSE(made(d).gpu());
  EXPECT_EQ(d.why, "the model prices no GPU way for it");
}

// A split the model chose that the engine then cannot make runs on one
// GPU, and says why.
TEST_F(Policy, ASplitTheEngineCannotMakeLeavesOneGpu) {
  const Problem p = problem(FFTW_ESTIMATE);
  gpu_.splits = false;
  gpu_.one_s = cpu_price(p, 1) / 4;
  gpu_.set_s = *gpu_.one_s / 2;
  const Dispatched d = choose_now(p);
  EXPECT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
  EXPECT_NE(d.why.find(" (the split not taken: one GPU in this test)"), std::string::npos) << d.why;
}

// One thread where the model prices it kOneThreadBy below the program's
// count; within that, the program's count.
TEST_F(Policy, EstimateTakesOneThreadOnlyWherePricedFarLower) {
  cpu_.program_threads = 4;
  gpu_.one_s = 1;  // far slower than either
  one_thread_ns_ = 0.2;
  Dispatched d = choose_now(problem(FFTW_ESTIMATE));
  EXPECT_EQ(made(d).threads(), 1) << d.why;
  EXPECT_NE(d.why.find("(1 thread)"), std::string::npos) << d.why;

  one_thread_ns_ = 0.4;
  calibrate_again();
  d = choose_now(problem(FFTW_ESTIMATE));
  EXPECT_EQ(made(d).threads(), 4) << d.why;
  EXPECT_NE(d.why.find("(4 threads)"), std::string::npos) << d.why;
}

// Sides the model cannot separate are timed, and the faster kept in the
// store, for this process and the next, which recalls it untimed.
TEST_F(Policy, MeasureTimesCloseSidesAndKeepsTheFaster) {
  const Problem p = close_sides();
  const double cpu_s = cpu_price(p, 1);
  Dispatched d = choose_now(p);
  EXPECT_TRUE(made(d).gpu());
  EXPECT_EQ(d.why.rfind("measured: gpu " + ms(gpu_read_s_) + ", cpu " + ms(cpu_s) + " (1 thread); its FFTW_ESTIMATE plan ", 0),
            0u)
      << d.why;
  EXPECT_GT(readings_, 2);
  const Choice c = stored(p, true);
  EXPECT_TRUE(c.gpu);
  EXPECT_NEAR(c.gpu_s, gpu_read_s_, 1e-5 * gpu_read_s_);

  const int timed = readings_;
  d = choose_now(p);
  EXPECT_TRUE(made(d).gpu());
  EXPECT_EQ(d.why.rfind("chosen earlier: gpu ", 0), 0u) << d.why;
  EXPECT_EQ(readings_, timed);
}

// Measuring, the input is zeroed as FFTW's planner zeroes it, before the
// first plan is read on it: pages malloc has not yet given the program
// read faster than its filled arrays will. Not where nothing is read
// (FFTW_ESTIMATE, a recalled choice), and not on device arrays, whose
// memory the host cannot write.
TEST_F(Policy, MeasureZeroesAPageableInputBeforeItsFirstReading) {
  Problem p = close_sides();
  choose_now(p);
  ASSERT_EQ(zeroed_.size(), 1u);
  EXPECT_EQ(zeroed_[0], p.in[0]);
  EXPECT_EQ(zeroed_at_reading_[0], 0);
  EXPECT_GT(readings_, 0);

  choose_now(p);
  EXPECT_EQ(zeroed_.size(), 1u) << "a recalled choice reads nothing";
  p.flags = FFTW_ESTIMATE;
  choose_now(p);
  EXPECT_EQ(zeroed_.size(), 1u) << "FFTW_ESTIMATE reads nothing";

  p = problem();
  p.sign = FFTW_BACKWARD;  // a problem of its own, not recalled
  for (Memory m : {Memory::Device, Memory::Managed}) {
    gpu_.memory_of[p.in[0]] = m;
    choose_now(p);
  }
  gpu_.memory_of[p.in[0]] = gpu_.memory_of[p.out[0]] = Memory::Pinned;
  const int before = readings_;
  choose_now(p);
  EXPECT_GT(readings_, before) << "pinned arrays' plans are read, on pages they have";
  EXPECT_EQ(zeroed_.size(), 1u);
}

// The store's calibrated rates are handed to the GPU before its way is
// priced, so that the engine's plan orders its solvers by them; and a
// choice recalled by a later process, which prices nothing, hands the
// rates the file holds.
TEST_F(Policy, TheGpuIsHandedTheStoredRates) {
  const Problem p = close_sides();
  EXPECT_TRUE(made(choose_now(p)).gpu());
  ASSERT_TRUE(gpu_.handed);
  EXPECT_EQ(gpu_.handed->link_rate, gpu_rates().link_rate);
  EXPECT_EQ(gpu_.handed->device_rate, gpu_rates().device_rate);
  EXPECT_EQ(gpu_.handed->peer_rate, gpu_rates().peer_rate);

  gpu_.handed.reset();
  store(true);
  const Dispatched d = choose_now(p);
  EXPECT_EQ(d.why.rfind("chosen earlier: gpu ", 0), 0u) << d.why;
  ASSERT_TRUE(gpu_.handed) << "a recalled choice";
  EXPECT_NEAR(gpu_.handed->link_rate, gpu_rates().link_rate, 1e-5 * gpu_rates().link_rate);  // from the file, 6 digits
  EXPECT_NEAR(gpu_.handed->peer_rate, gpu_rates().peer_rate, 1e-5 * gpu_rates().peer_rate);

  // Device arrays, where the GPU alone applies and nothing is priced: the
  // stored rates too, in a process that made no other plan.
  gpu_.handed.reset();
  store(true);
  Problem on_device = problem();
  gpu_.memory_of[on_device.in[0]] = Memory::Device;
  EXPECT_EQ(choose_now(on_device).why, "arrays in device memory");
  ASSERT_TRUE(gpu_.handed) << "device arrays";
  EXPECT_NEAR(gpu_.handed->device_rate, gpu_rates().device_rate, 1e-5 * gpu_rates().device_rate);
}

// GPUFFTW_MODE=gpu calibrates nothing: on a machine not yet calibrated the
// GPU is handed no rates (the engine's nominal ones stand); on one whose
// store holds them, the GPU is handed those, as an automatic plan would.
TEST_F(Policy, ForcedGpuModeHandsTheStoredRatesAndCalibratesNothing) {
  EXPECT_TRUE(made(choose_now(problem(FFTW_ESTIMATE), GPUFFTW_MODE_GPU)).gpu());
  EXPECT_EQ(gpu_.rates_handed, 0) << "nothing stored, and a calibration (which would hand its rates) not asked";

  EXPECT_TRUE(made(choose_now(close_sides())).gpu());
  gpu_.handed.reset();
  gpu_calibrates_ = false;  // a new process would fail to calibrate, and is not asked to
  store(true);
  EXPECT_TRUE(made(choose_now(problem(FFTW_ESTIMATE), GPUFFTW_MODE_GPU)).gpu());
  ASSERT_TRUE(gpu_.handed) << "the stored rates, read without calibrating";
  EXPECT_NEAR(gpu_.handed->device_rate, gpu_rates().device_rate, 1e-5 * gpu_rates().device_rate);
}

// Measuring, where the device set's split takes the problem, the split
// and one GPU alone are read in turn and the faster kept, its placement
// stored and recalled; the model's sure choice of the GPU included.
TEST_F(Policy, MeasureTimesTheSplitAgainstOneGpu) {
  const Problem p = split_reads_faster();
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::Set) << d.why;
  EXPECT_NE(d.why.find("; the GPUs' split " + ms(set_read_s_) + ", one GPU " + ms(gpu_read_s_)), std::string::npos)
      << d.why;
  EXPECT_EQ(stored(p, true).spread, Spread::Set);
  const int timed = readings_;
  d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::Set) << d.why;
  EXPECT_EQ(readings_, timed) << "a recalled placement is not timed again";

  Problem other = problem();
  other.dims = c2c_f32({1 << 17}).dims;
  set_read_s_ = 3e-3;
  d = choose_now(other);
  EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
  EXPECT_EQ(stored(other, true).spread, Spread::One);
  d = choose_now(other);
  EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
}

// A choice of the split recalled where the set can no longer split it
// (gpufftw_set_devices since) stays on the GPU, placed by the engine, and
// says why.
TEST_F(Policy, ARecalledSplitWithoutTheSetStaysOnTheGpu) {
  const Problem p = split_reads_faster();
  EXPECT_EQ(made(choose_now(p)).spread(), Spread::Set);
  gpu_.splits = false;
  const Dispatched d = choose_now(p);
  EXPECT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).spread(), Spread::Auto) << d.why;
  EXPECT_NE(d.why.find("(its placement not taken: one GPU in this test)"), std::string::npos) << d.why;
}

// Sides the model cannot separate: the GPU's side is the faster of the
// split and one GPU, and that reading is the one set against the CPU's.
TEST_F(Policy, MeasureSetsTheFasterPlacementAgainstTheCpu) {
  const Problem p = problem();
  const double cpu_s = cpu_price(p, 1);
  gpu_.one_s = cpu_s * 0.8;
  gpu_.splits = true;
  gpu_read_s_ = cpu_s * 1.5;
  set_read_s_ = cpu_s / 2;
  cpu_read_s_[0] = cpu_s;
  estimate_read_s_ = cpu_s * 1.2;
  Dispatched d = choose_now(p);
  EXPECT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).spread(), Spread::Set) << d.why;
  EXPECT_EQ(d.why.rfind("measured: gpu " + ms(set_read_s_) + ", cpu ", 0), 0u) << d.why;
  const Choice c = stored(p, true);
  EXPECT_TRUE(c.gpu);
  EXPECT_EQ(c.spread, Spread::Set);
}

// Where the split does not take the problem, the engine places it, and
// nothing is compared.
TEST_F(Policy, MeasureWithoutASplitLeavesThePlacementToTheEngine) {
  const Problem p = problem();
  gpu_.one_s = cpu_price(p, 1) / (2 * kSureRatio);
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::Auto) << d.why;
  EXPECT_EQ(d.why.find("split"), std::string::npos) << d.why;
  EXPECT_EQ(gpu_.plans[Spread::One], 0);
  EXPECT_EQ(stored(p, true).spread, Spread::Auto);
}

TEST_F(Policy, MeasureKeepsTheCpuWhereItReadsFaster) {
  const Problem p = problem();
  const double cpu_s = cpu_price(p, 1);
  gpu_.one_s = cpu_s * 1.2;
  gpu_read_s_ = cpu_s * 1.5;
  cpu_read_s_[0] = cpu_s;
  estimate_read_s_ = cpu_s * 1.1;
  Dispatched d = choose_now(p);
  EXPECT_FALSE(made(d).gpu()) << d.why;
  EXPECT_FALSE(made(d).estimated()) << d.why;
  EXPECT_EQ(d.why.rfind("measured: gpu ", 0), 0u) << d.why;
  EXPECT_FALSE(stored(p).gpu);

  d = choose_now(p);
  EXPECT_FALSE(made(d).gpu());
  EXPECT_EQ(d.why, "chosen earlier: gpu " + ms(gpu_read_s_) + ", cpu " + ms(cpu_s) + " (1 thread)");
}

// The program's time limit (fftw_set_timelimit) bounds gpufftw's timing
// as FFTW's own planner is bounded: the real FFTW's measured plan gets
// what is left of it, and once it has passed, nothing more is timed and
// the faster of what was read is kept for this process only.
class PolicyWithinALimit : public Policy {
 protected:
  void TearDown() override { set_time_limit(Precision::F32, -1); }
};

TEST_F(PolicyWithinALimit, TheRealFftwPlansWithinWhatTheLimitLeaves) {
  const Problem p = close_sides();
  set_time_limit(Precision::F32, 100);
  choose_now(p);
  ASSERT_EQ(cpu_.measured_plans, 1);
  EXPECT_GT(cpu_.limits[0], 0);
  EXPECT_LE(cpu_.limits[0], 100);
  EXPECT_GT(cpu_.limits[0], 99) << "the stand-ins' timing costs nothing";
}

TEST_F(PolicyWithinALimit, NoLimitLeavesTheRealFftwUnbounded) {
  const Problem p = close_sides();
  choose_now(p);
  ASSERT_EQ(cpu_.measured_plans, 1);
  EXPECT_LT(cpu_.limits[0], 0);
}

TEST_F(PolicyWithinALimit, PastTheLimitTheFasterOfWhatWasReadIsKeptForThisProcess) {
  const Problem p = problem();
  const double cpu_s = cpu_price(p, 1);
  gpu_.one_s = cpu_s * 0.8;
  gpu_read_s_ = cpu_s / 2;
  cpu_read_s_[0] = cpu_s / 4;  // the measured plan would win, were it made
  estimate_read_s_ = cpu_s;
  set_time_limit(Precision::F32, 0);
  Dispatched d = choose_now(p);
  EXPECT_EQ(cpu_.measured_plans, 0) << d.why;
  EXPECT_TRUE(made(d).gpu()) << d.why;
  EXPECT_NE(d.why.find("the program's time limit passed: kept for this process only"), std::string::npos) << d.why;
  Choice c;
  EXPECT_FALSE(store(true).recall(choice_key(p, cpu_.program_threads, false), &c)) << "stored past the limit";

  // The estimated plan read faster than the GPU: it runs.
  estimate_read_s_ = gpu_read_s_ / 2;
  d = choose_now(problem());
  EXPECT_FALSE(made(d).gpu()) << d.why;
  EXPECT_TRUE(made(d).estimated()) << d.why;
}

// Past the limit, the model's CPU verdict takes the program's count
// unread against one thread: kept for this process alone, so that a
// later process without a limit reads both.
TEST_F(PolicyWithinALimit, PastTheLimitTheProgramsThreadCountIsNotStored) {
  cpu_.program_threads = 4;
  one_thread_ns_ = 0.8;
  const Problem p = problem();
  gpu_.one_s = 1;  // the model is sure of the CPU
  cpu_read_s_[1] = 1e-4;
  cpu_read_s_[4] = 3e-4;
  set_time_limit(Precision::F32, 0);
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).threads(), 4) << d.why;
  EXPECT_NE(d.why.find("the program's time limit passed: kept for this process only"), std::string::npos) << d.why;
  Choice c;
  EXPECT_FALSE(store(true).recall(choice_key(p, 4, false), &c)) << "stored past the limit";
  set_time_limit(Precision::F32, -1);
  d = choose_now(p);
  EXPECT_EQ(made(d).threads(), 1) << d.why;
}

// Past the limit the model places the GPU, nothing read against it; the
// real FFTW's FFTW_ESTIMATE plan then losing by FFTW_MEASURE's cut does
// not make that placement last: a later process reads the split.
TEST_F(PolicyWithinALimit, PastTheLimitAPlacementByTheModelIsNotStoredByTheCut) {
  const Problem p = problem();
  const double cpu_s = cpu_price(p, 1);
  gpu_.one_s = cpu_s * 0.8;
  gpu_.splits = true;
  gpu_.set_s = cpu_s * 0.9;        // the model prefers one GPU
  gpu_read_s_ = cpu_s / 2;
  set_read_s_ = cpu_s / 8;         // the split reads 4x faster
  estimate_read_s_ = cpu_s * 100;  // the real FFTW's estimate loses by the cut
  set_time_limit(Precision::F32, 0);
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
  Choice c;
  EXPECT_FALSE(store(true).recall(choice_key(p, cpu_.program_threads, false), &c)) << "stored past the limit";
  set_time_limit(Precision::F32, -1);
  d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::Set) << d.why;
}

// Past the limit, the GPUs' split is not read against one GPU: the
// model's cheaper placement is the one made, nothing of it read where the
// model is sure of the GPU, and the choice is kept for this process only.
TEST_F(PolicyWithinALimit, PastTheLimitTheModelPlacesTheGpuAndNothingIsReadAgainstIt) {
  const Problem p = split_reads_faster();  // the split would read faster
  gpu_.set_s = *gpu_.one_s * 2;
  set_time_limit(Precision::F32, 0);
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
  EXPECT_EQ(readings_, 0) << d.why;
  EXPECT_EQ(gpu_.plans[Spread::Set], 0) << "no second plan to read against";
  EXPECT_EQ(gpu_.plans[Spread::One], 1);
  EXPECT_NE(d.why.find("; the program's time limit passed: placed by the model (one GPU), nothing read against it"),
            std::string::npos)
      << d.why;
  Choice c;
  EXPECT_FALSE(store(true).recall(choice_key(p, cpu_.program_threads, false), &c)) << "stored past the limit";

  // The split priced cheaper: the split, and one GPU is never made.
  gpu_.plans.clear();
  gpu_.set_s = *gpu_.one_s / 2;
  d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::Set) << d.why;
  EXPECT_EQ(gpu_.plans[Spread::One], 0) << d.why;
  EXPECT_NE(d.why.find("placed by the model (the GPUs' split)"), std::string::npos) << d.why;
}

// Sides the model cannot separate, past the limit: the GPU's one plan, at
// the model's cheaper placement, is read against the real FFTW's, and no
// second placement is made.
TEST_F(PolicyWithinALimit, PastTheLimitCloseSidesReadOnePlacementOnly) {
  const Problem p = close_sides();
  gpu_.splits = true;
  gpu_.set_s = *gpu_.one_s * 2;
  set_read_s_ = gpu_read_s_ / 2;  // the split would read faster
  set_time_limit(Precision::F32, 0);
  const Dispatched d = choose_now(p);
  EXPECT_EQ(gpu_.plans[Spread::Set], 0) << d.why;
  EXPECT_EQ(gpu_.plans[Spread::One], 1) << d.why;
  EXPECT_EQ(cpu_.measured_plans, 0) << d.why;
  EXPECT_NE(d.why.find("placed by the model (one GPU)"), std::string::npos) << d.why;
}

// The real FFTW's FFTW_ESTIMATE plan read far slower than the GPU: its
// measured plan is never made, and the GPU runs.
TEST_F(Policy, MeasureStopsAtTheEstimatedPlanWhereItLosesFar) {
  const Problem p = problem();
  const double cpu_s = cpu_price(p, 1);
  gpu_.one_s = cpu_s * 0.8;
  gpu_read_s_ = cpu_s / 2;
  estimate_read_s_ = gpu_read_s_ * (kEstimateLosesBy + 1);
  cpu_read_s_[0] = cpu_s;
  Dispatched d = choose_now(p);
  EXPECT_TRUE(made(d).gpu());
  EXPECT_NE(d.why.find("with FFTW_ESTIMATE's plan, not measured further"), std::string::npos) << d.why;
  EXPECT_TRUE(stored(p).gpu);
}

// Sides far apart by the model are not timed, under FFTW_MEASURE too; the
// model's choice is stored.
TEST_F(Policy, MeasureTakesTheModelWhereItIsSure) {
  const Problem p = problem();
  gpu_.one_s = cpu_price(p, 1) / (2 * kSureRatio);
  Dispatched d = choose_now(p);
  EXPECT_TRUE(made(d).gpu());
  EXPECT_EQ(d.why.rfind("model: gpu ", 0), 0u) << d.why;
  EXPECT_EQ(readings_, 0);
  EXPECT_TRUE(stored(p).gpu);
}

// Under FFTW_MEASURE on the CPU, where one thread may beat the program's
// count, both are timed and the faster kept: its plan, its why, and the
// choice recalled at its count.
TEST_F(Policy, MeasureTimesBothThreadCountsWhereOneMayWin) {
  cpu_.program_threads = 4;
  one_thread_ns_ = 0.8;  // less than kOneThreadBy slower: it may win
  const Problem p = problem();
  gpu_.one_s = 1;
  cpu_read_s_[1] = 1e-4;
  cpu_read_s_[4] = 3e-4;
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).threads(), 1) << d.why;
  EXPECT_NE(d.why.find("; measured: 1 thread 0.1 ms, 4 threads 0.3 ms: 1 thread"), std::string::npos) << d.why;
  EXPECT_EQ(stored(p).threads, 1);
  d = choose_now(p);
  EXPECT_EQ(made(d).threads(), 1) << d.why;
  EXPECT_NE(d.why.find("(1 thread)"), std::string::npos) << d.why;
}

// The GPU failing to plan: the real FFTW's plan, with the GPU's reason.
TEST_F(Policy, TheGpuFailingToPlanLeavesItOnTheCpuWithWhy) {
  gpu_.takes = false;
  const Problem estimate = problem(FFTW_ESTIMATE), measure = problem();
  gpu_.one_s = cpu_price(estimate, 1) / 10;
  for (const Problem &p : {estimate, measure}) {
    Dispatched d = choose_now(p);
    EXPECT_FALSE(made(d).gpu());
    EXPECT_EQ(d.why, "the GPU cannot take it in this test");
  }
  // Sides the model cannot separate: FFTW_MEASURE times nothing.
  Problem close = problem();
  close.dims[0].n = 1 << 15;
  gpu_.one_s = cpu_price(close, 1);
  Dispatched d = choose_now(close);
  EXPECT_EQ(d.why, "the GPU cannot take it in this test");
  EXPECT_EQ(readings_, 0);
  d = choose_now(close, GPUFFTW_MODE_GPU);
  EXPECT_FALSE(made(d).gpu());
  EXPECT_EQ(d.why, "the GPU cannot take it in this test");
}

TEST_F(Policy, ModesDecideBeforeTheModel) {
  const Problem p = problem();
  gpu_.one_s = 1;  // the model would keep it on the CPU
  Dispatched d = choose_now(p, GPUFFTW_MODE_GPU);
  EXPECT_TRUE(made(d).gpu());
  EXPECT_EQ(d.why, "GPUFFTW_MODE=gpu");
  d = choose_now(p, GPUFFTW_MODE_CPU);
  EXPECT_FALSE(made(d).gpu());
  EXPECT_EQ(d.why, "GPUFFTW_MODE=cpu");
  EXPECT_EQ(gpu_.plans[Spread::Auto], 1);

  Planner without = planner_;
  without.gpu = nullptr;
  d = choose(without, p, GPUFFTW_MODE_AUTO);
  EXPECT_FALSE(made(d).gpu());
  EXPECT_EQ(d.why, "built without CUDA");
}

// Arrays in device memory go to the GPU whatever the model says, and
// nowhere where it cannot take them (the real FFTW would crash on them);
// managed memory goes to the GPU where it can.
TEST_F(Policy, DeviceArraysGoToTheGpuOrNowhere) {
  const Problem p = problem();
  gpu_.memory_of[p.in[0]] = Memory::Device;
  Dispatched d = choose_now(p);
  EXPECT_TRUE(made(d).gpu());
  EXPECT_EQ(d.why, "arrays in device memory");
  gpu_.takes = false;
  d = choose(planner_, p, GPUFFTW_MODE_AUTO);
  EXPECT_EQ(d.plan, nullptr);
  EXPECT_EQ(d.why, "arrays in device memory, but the GPU cannot take it: the GPU cannot take it in this test");
  gpu_.takes = true;
  gpu_.memory_of[p.in[0]] = Memory::Managed;
  d = choose_now(p);
  EXPECT_TRUE(made(d).gpu());
  EXPECT_EQ(d.why, "arrays in managed memory");
}

// A choice of one thread recalled under FFTW_WISDOM_ONLY gives a plan
// where the real FFTW would, where the program's count has wisdom: at one
// thread where that count has wisdom too, else at the program's count;
// with wisdom at one thread alone, none, as the real FFTW gives none.
TEST_F(Policy, WisdomOnlyAnswersAsTheRealFftwAtTheProgramsCount) {
  cpu_.program_threads = 4;
  cpu_.wisdom = true;
  cpu_.wisdom_threads = 4;
  const Problem p = problem(FFTW_MEASURE | FFTW_WISDOM_ONLY);
  store().remember(choice_key(p, 4, false), Choice{false, 2e-3, 1e-3, false, 1});
  const Dispatched d = choose(planner_, p, GPUFFTW_MODE_AUTO);
  ASSERT_NE(d.plan, nullptr) << d.why;
  EXPECT_EQ(made(d).threads(), 4) << d.why;
  EXPECT_NE(d.why.find("FFTW_WISDOM_ONLY: the wisdom at 4 threads"), std::string::npos) << d.why;
  cpu_.wisdom_threads = 0;  // at every count
  const Dispatched both = choose(planner_, p, GPUFFTW_MODE_AUTO);
  ASSERT_NE(both.plan, nullptr) << both.why;
  EXPECT_EQ(made(both).threads(), 1) << both.why;
  cpu_.wisdom_threads = 1;
  const Dispatched one = choose(planner_, p, GPUFFTW_MODE_AUTO);
  EXPECT_EQ(one.plan, nullptr) << one.why;
  EXPECT_NE(one.why.find("FFTW_WISDOM_ONLY: no wisdom at 4 threads"), std::string::npos) << one.why;
}

// A choice timed under FFTW_MEASURE is not recalled for FFTW_PATIENT or
// FFTW_EXHAUSTIVE, whose real FFTW plans may run faster; FFTW_ESTIMATE
// and FFTW_MEASURE share it.
TEST_F(Policy, AChoiceStandsForItsOwnRigorOnly) {
  const Problem measure = problem(FFTW_MEASURE), estimate = problem(FFTW_ESTIMATE),
                patient = problem(FFTW_PATIENT), exhaustive = problem(FFTW_EXHAUSTIVE);
  EXPECT_EQ(choice_key(measure, 1, false), choice_key(estimate, 1, false));
  EXPECT_NE(choice_key(measure, 1, false), choice_key(patient, 1, false));
  EXPECT_NE(choice_key(patient, 1, false), choice_key(exhaustive, 1, false));
  EXPECT_NE(choice_key(measure, 1, false), choice_key(exhaustive, 1, false));
}

// A loop of zero on device arrays: FFTW's plan of it does nothing and
// touches no array, so the real FFTW's is made, as for host arrays.
TEST_F(Policy, NothingToComputeOnDeviceArraysIsTheRealFftwsPlan) {
  Problem p = problem(FFTW_ESTIMATE);
  p.howmany = {{0, 1 << 16, 1 << 16}};
  gpu_.memory_of[p.in[0]] = Memory::Device;
  gpu_.memory_of[p.out[0]] = Memory::Device;
  const Dispatched d = choose_now(p);
  ASSERT_NE(d.plan, nullptr) << d.why;
  EXPECT_FALSE(made(d).gpu()) << d.why;
  EXPECT_NE(d.why.find("nothing to compute: a loop of zero"), std::string::npos) << d.why;
}

TEST_F(Policy, ALostGpuRunsNothingMore) {
  gpu_.gone = true;
  const Problem p = problem();
  Dispatched d = choose_now(p);
  EXPECT_FALSE(made(d).gpu());
  EXPECT_EQ(d.why, "the GPU was lost in this test");
  gpu_.memory_of[p.out[0]] = Memory::Device;
  d = choose(planner_, p, GPUFFTW_MODE_GPU);
  EXPECT_EQ(d.plan, nullptr);
  EXPECT_EQ(d.why, "arrays in device memory, and the GPU was lost in this test");
  EXPECT_EQ(gpu_.plans[Spread::Auto], 0);
}

// Up to kTinyPoints: one thread, no GPU, no model, under every flag.
TEST_F(Policy, TinyProblemsRunOnOneThread) {
  cpu_.program_threads = 4;
  for (unsigned flags : {FFTW_ESTIMATE, FFTW_MEASURE}) {
    Problem p = problem(flags);
    p.dims[0].n = 256;
    Dispatched d = choose_now(p);
    EXPECT_EQ(made(d).threads(), 1);
    EXPECT_EQ(d.why, "too small for the GPU or for threads to pay: 1 thread");
  }
  EXPECT_EQ(gpu_.plans[Spread::Auto], 0);
  EXPECT_EQ(readings_, 0);
  EXPECT_EQ(store_, nullptr) << "the store is not even made";
}

TEST_F(Policy, NoGpuNoCalibrationOrWisdomOnlyStayOnTheCpu) {
  gpu_.named = false;
  gpu_.usable = false;
  Dispatched d = choose_now(problem());
  EXPECT_EQ(d.why, "no GPU in this test");

  gpu_.named = true;
  gpu_calibrates_ = false;
  d = choose_now(problem());
  EXPECT_EQ(d.why, "no GPU in this test");
  gpu_.usable = true;
  calibrate_again();
  d = choose_now(problem());
  EXPECT_EQ(d.why, "the GPU could not be calibrated (the log says why)");

  cpu_.wisdom = true;
  d = choose_now(problem(FFTW_MEASURE | FFTW_WISDOM_ONLY));
  EXPECT_EQ(d.why, "FFTW_WISDOM_ONLY: the real FFTW's wisdom decides");
  EXPECT_EQ(gpu_.plans[Spread::Auto], 0);
}

}  // namespace
}  // namespace gpufftw
