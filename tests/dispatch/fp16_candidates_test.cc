// GPUFFTW_PRECISION=fp16's ways as candidates of dispatch's planner
// (dispatch/fp16_candidates.h) against the stand-in sides: each way a
// candidate with its typed reason where it does not take the problem, the
// decision's cheapest way, FFTW_MEASURE's readings of the ways through
// the planner's timing (every way once a round) and the store's way
// recalled, one transform's f32 over a device set of two beside the ways
// on one GPU, GPUFFTW_FP16_WAY as a restriction on the list, and the
// why's account of each.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/time_limit.h"
#include "dispatch/decide.h"
#include "dispatch/fp16_candidates.h"
#include "dispatch/gpu_way.h"
#include "dispatch/solver_ways.h"
#include "dispatch/why.h"
#include "policy_fixture.h"

namespace gpufftw {
namespace {

// A host whose pinned DMA outruns its conversion of floats to halves,
// far faster than its pageable staging; a device copy two orders faster.
HalfRates fast_link_host() { return HalfRates{87e9, 35e9, 60e9, 2.7e12}; }

class Fp16Candidates : public Policy {
 protected:
  void SetUp() override {
    Policy::SetUp();
    saved_ = precision_setting();
    set_precision(GPUFFTW_PRECISION_FP16);
    gpu_.half = fast_link_host();
  }
  void TearDown() override {
    set_precision(saved_);
    set_time_limit(Precision::F32, -1);
  }

  // A batch of c2c the GPU wins by far under the model (sure), of `n`.
  Problem half_problem(int64_t n, unsigned flags = FFTW_ESTIMATE, Kind kind = Kind::C2C) {
    Problem p = problem(flags);
    const Problem shape = c2c_f32({n}, 4096);
    p.kind = kind;
    p.dims = shape.dims;
    p.howmany = shape.howmany;
    gpu_.one_s = cpu_price(p, 1) / (2 * kSureRatio);
    return p;
  }

  // One transform of `dims` (no batch) of `kind`, the GPU far cheaper
  // than the CPU under the model (sure).
  Problem one_transform(std::vector<int64_t> dims, unsigned flags, Kind kind) {
    Problem p = problem(flags);
    p.kind = kind;
    p.dims = c2c_f32(dims).dims;
    gpu_.one_s = cpu_price(p, 1) / (2 * kSureRatio);
    return p;
  }

  std::vector<Candidate> priced(const Problem &p) {
    std::vector<Candidate> list = ways(planner_, p, cpu_.program_threads, Memory::Pageable, Memory::Pageable);
    price_cpu(planner_, p, &list);
    price_gpu(planner_, p, false, gpu_rates(), &list);
    return list;
  }

  // The model's own seconds of each way (fp16_ways.h) on pageable arrays.
  std::vector<WayPrice> model(const Problem &p) {
    const GpuRates g = gpu_rates();
    return price_ways(p, ArraysAt::Pageable, *gpu_.half, over_gpus(p, false, Spread::Auto, &g));
  }

  gpufftw_precision saved_ = GPUFFTW_PRECISION_FP32;
};

const Candidate &way_of(const std::vector<Candidate> &list, Fp16Way w) {
  for (const Candidate &c : list)
    if (c.gpu && c.way == w) return c;
  static const Candidate none;
  return none;
}

// The GPU's ways at `spread`, exactly there.
std::vector<Candidate> placed_at(const std::vector<Candidate> &list, Spread spread) {
  std::vector<Candidate> ways;
  for (const Candidate &c : list)
    if (c.gpu && c.spread == spread) ways.push_back(c);
  return ways;
}

// The price of the cheapest way in half that applies among `ways`.
double cheapest_in_half(const std::vector<Candidate> &ways) {
  double best = HUGE_VAL;
  for (const Candidate &c : ways)
    if (c.way != Fp16Way::Single && c.applies() && c.price) best = std::min(best, *c.price);
  return best;
}

const WayPrice &price_of(const std::vector<WayPrice> &prices, Fp16Way w) {
  for (const WayPrice &p : prices)
    if (p.way == w) return p;
  static const WayPrice none;
  return none;
}

bool says(const std::string &why, const std::string &what) { return why.find(what) != std::string::npos; }

// 1000 points: neither our kernels nor cuFFT's FP16 take it, each saying
// why; single precision on halves and f32 priced at the table's price
// times their model price over f32's.
TEST_F(Fp16Candidates, EachWayIsACandidateWithItsTypedReason) {
  const Problem p = half_problem(1000);
  const std::vector<Candidate> list = priced(p);
  ASSERT_EQ(list.size(), 5u);  // the real FFTW, and four ways of the GPU as the engine places it
  const Candidate &ours = way_of(list, Fp16Way::Ours), &half = way_of(list, Fp16Way::CufftHalf),
                  &halves = way_of(list, Fp16Way::SingleOnHalves), &single = way_of(list, Fp16Way::Single);
  EXPECT_EQ(ours.unfit, Unfit::NotInHalf);
  EXPECT_EQ(ours.why_not, "our kernels take powers of two 256 to 4096");
  EXPECT_EQ(half.unfit, Unfit::NotInHalf);
  EXPECT_EQ(half.why_not, "cuFFT's FP16 takes powers of two only");
  ASSERT_TRUE(halves.applies() && halves.price) << halves.why_not;
  ASSERT_TRUE(single.applies() && single.price) << single.why_not;
  EXPECT_DOUBLE_EQ(*single.price, *gpu_.one_s);
  const std::vector<WayPrice> m = model(p);
  EXPECT_DOUBLE_EQ(*halves.price,
                   *gpu_.one_s * price_of(m, Fp16Way::SingleOnHalves).seconds / price_of(m, Fp16Way::Single).seconds);
  for (const Candidate &c : list) EXPECT_EQ(c.spread, Spread::Auto);

  // r2c and c2r: single precision on halves takes them at any size too,
  // where the ways that compute in half do not.
  for (const Kind kind : {Kind::R2C, Kind::C2R}) {
    const Problem r = half_problem(1000, FFTW_ESTIMATE, kind);
    const std::vector<Candidate> real = priced(r);
    const Candidate &real_halves = way_of(real, Fp16Way::SingleOnHalves);
    ASSERT_TRUE(real_halves.applies() && real_halves.price) << real_halves.why_not;
    const std::vector<WayPrice> rm = model(r);
    EXPECT_DOUBLE_EQ(*real_halves.price, *gpu_.one_s * price_of(rm, Fp16Way::SingleOnHalves).seconds /
                                             price_of(rm, Fp16Way::Single).seconds);
    EXPECT_EQ(way_of(real, Fp16Way::CufftHalf).unfit, Unfit::NotInHalf);
    EXPECT_TRUE(way_of(real, Fp16Way::Single).applies());
  }
}

// Not half precision: one GPU way, f32's.
TEST_F(Fp16Candidates, OtherProblemsKeepOneGpuWay) {
  set_precision(GPUFFTW_PRECISION_FP32);
  const std::vector<Candidate> list = priced(half_problem(1024));
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].way, Fp16Way::Single);
  EXPECT_FALSE(has_half_ways(list));
}

// FFTW_ESTIMATE: the cheapest way, its why naming it and each way's price;
// a way the GPU then cannot make leaves the next cheapest.
TEST_F(Fp16Candidates, EstimateTakesTheCheapestWayThatMakesAPlan) {
  const Problem p = half_problem(1024);
  const std::vector<Candidate> list = priced(p);
  const Candidate best = *cheapest_gpu(list);
  ASSERT_NE(best.way, Fp16Way::Single) << "halves pay on pageable arrays on such a host";
  Dispatched d = choose_now(p);
  ASSERT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).way(), best.way) << d.why;
  EXPECT_TRUE(says(d.why, "; fp16: " + std::string(way_name(best.way)) + ", by the model: ")) << d.why;
  EXPECT_TRUE(says(d.why, "f32 " + ms(*gpu_.one_s))) << d.why;
  EXPECT_EQ(readings_, 0);
  KernelPick pick;
  EXPECT_FALSE(store().recall_kernel(way_key(p, ArraysAt::Pageable, Spread::Auto), &pick));

  gpu_.declines = {best.way};
  d = choose_now(p);
  ASSERT_TRUE(made(d).gpu()) << d.why;
  EXPECT_NE(made(d).way(), best.way) << d.why;
  EXPECT_TRUE(says(d.why, std::string(way_name(best.way)) + " made no plan: the GPU cannot take it in this test"))
      << d.why;
}

// FFTW_MEASURE: the ways read in turn through the planner's timing, the
// fastest kept and stored as the way's pick (f32's reading beside it); the
// next plan of the problem recalls both the GPU and its way, untimed.
TEST_F(Fp16Candidates, MeasureReadsTheWaysAndTheStoreRecallsTheWay) {
  const Problem p = half_problem(1024, FFTW_MEASURE);
  way_read_s_ = {{Fp16Way::Ours, 0.9e-3}, {Fp16Way::CufftHalf, 0.5e-3}, {Fp16Way::SingleOnHalves, 0.8e-3},
                 {Fp16Way::Single, 0.95e-3}};
  Dispatched d = choose_now(p);
  ASSERT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).way(), Fp16Way::CufftHalf) << d.why;
  EXPECT_TRUE(says(d.why, "; fp16: cuFFT fp16, measured: ")) << d.why;
  EXPECT_TRUE(says(d.why, "(model: ")) << d.why;
  EXPECT_TRUE(says(d.why, "f32 " + ms(0.95e-3))) << d.why;
  KernelPick pick;
  ASSERT_TRUE(store(true).recall_kernel(way_key(p, ArraysAt::Pageable, Spread::Auto), &pick));
  EXPECT_EQ(pick.variant, "cufft-fp16");
  EXPECT_DOUBLE_EQ(pick.own_s, 0.5e-3);
  EXPECT_DOUBLE_EQ(pick.cufft_s, 0.95e-3);
  EXPECT_TRUE(stored(p).gpu);

  const int timed = readings_;
  gpu_.ways_made.clear();
  d = choose_now(p);
  EXPECT_EQ(made(d).way(), Fp16Way::CufftHalf) << d.why;
  EXPECT_EQ(d.why.rfind("chosen earlier: gpu ", 0), 0u) << d.why;
  EXPECT_TRUE(says(d.why, "; fp16: cuFFT fp16, measured earlier: 0.5 ms, f32 0.95 ms")) << d.why;
  EXPECT_EQ(readings_, timed);
  EXPECT_EQ(gpu_.ways_made.size(), 1u) << "only the stored way is made";
}

// Where the engine offers several solvers, an fp16 problem's way in
// single precision is one per solver, the ways in half (the fp16
// solver's) one each; the why labels each.
TEST_F(Fp16Candidates, TheWayInSinglePrecisionIsOnePerSolver) {
  gpu_.offered = {{"cuFFT", 1.0}, {"out of core", 2.0}};
  const Problem p = half_problem(1024);
  const std::vector<Candidate> ways = solver_ways(planner_, p, gpu_ways_at(priced(p), Spread::Auto));
  std::vector<std::string> singles, halves;
  for (const Candidate &c : ways) (c.way == Fp16Way::Single ? singles : halves).push_back(c.solver);
  EXPECT_EQ(singles, (std::vector<std::string>{"cuFFT", "out of core"}));
  EXPECT_EQ(halves, (std::vector<std::string>{"", "", ""}));
  const Dispatched d = choose_now(p);
  EXPECT_TRUE(says(d.why, "f32 (cuFFT) ")) << d.why;
  EXPECT_TRUE(says(d.why, "f32 (out of core) ")) << d.why;
}

// GPUFFTW_FP16_WAY=fp32 leaves the solvers of f32: FFTW_MEASURE reads
// them, but stores nothing for a later plan that weighs every way.
TEST_F(Fp16Candidates, TheSolversAForcedWayLeavesAreReadNotStored) {
  planner_.forced_way = Fp16Way::Single;
  gpu_.offered = {{"cuFFT", 1.0}, {"out of core", 2.0}};
  solver_read_s_ = {{"cuFFT", 2e-3}, {"out of core", 1e-3}};
  const Problem p = half_problem(1024, FFTW_MEASURE);
  const Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).solver(), "out of core") << d.why;
  KernelPick pick;
  EXPECT_FALSE(store(true).recall_kernel(way_key(p, ArraysAt::Pageable, Spread::Auto), &pick)) << pick.variant;
}

// Past the program's time limit, FFTW_MEASURE reads no way against
// another: the model's cheapest way is the one made, saying so, and no
// way is stored for a later plan with time to find.
TEST_F(Fp16Candidates, PastTheLimitTheModelPicksTheWayUnread) {
  const Problem p = half_problem(1024, FFTW_MEASURE);
  const Candidate best = *cheapest_gpu(priced(p));
  ASSERT_NE(best.way, Fp16Way::Single) << "halves pay on pageable arrays on such a host";
  way_read_s_ = {{Fp16Way::Ours, 0.9e-3}, {Fp16Way::CufftHalf, 0.9e-3}, {Fp16Way::SingleOnHalves, 0.9e-3},
                 {Fp16Way::Single, 0.1e-3}};  // f32 would read fastest
  set_time_limit(Precision::F32, 0);
  const Dispatched d = choose_now(p);
  ASSERT_TRUE(made(d).gpu()) << d.why;
  EXPECT_EQ(made(d).way(), best.way) << d.why;
  EXPECT_EQ(readings_, 0) << d.why;
  EXPECT_EQ(gpu_.ways_made.size(), 1u) << "one way made, none to read it against";
  EXPECT_TRUE(says(d.why, "; fp16: " + std::string(way_name(best.way)) +
                              ", by the model (the program's time limit passed): "))
      << d.why;
  KernelPick pick;
  EXPECT_FALSE(store(true).recall_kernel(way_key(p, ArraysAt::Pageable, Spread::Auto), &pick));
}

// One 2-D or 3-D transform on a device set of two, in auto mode: at the
// set's placement f32 and single precision on halves (the slabs carry
// halves), the ways that compute in half ruled out saying so, priced at
// the set's table; one GPU beside it has every way.
// FFTW_ESTIMATE takes the cheaper of the set's where it is priced under
// every way on one GPU, else the cheapest way on one GPU.
TEST_F(Fp16Candidates, OneTransformTakesTheSetWherePricedLower) {
  for (const Kind kind : {Kind::C2C, Kind::R2C}) {
    const Problem p = kind == Kind::C2C ? one_transform({4096, 4096}, FFTW_ESTIMATE, kind)
                                        : one_transform({256, 256, 256}, FFTW_ESTIMATE, kind);
    gpu_.splits = true;
    gpu_.set_s = *gpu_.one_s;
    const std::vector<Candidate> list = priced(p);
    const std::vector<Candidate> set = placed_at(list, Spread::Set), one = placed_at(list, Spread::One);
    ASSERT_EQ(set.size(), 4u);
    ASSERT_EQ(one.size(), 4u);
    EXPECT_TRUE(way_of(set, Fp16Way::Single).applies());
    EXPECT_DOUBLE_EQ(*way_of(set, Fp16Way::Single).price, *gpu_.set_s);
    for (Fp16Way w : {Fp16Way::Ours, Fp16Way::CufftHalf}) {
      EXPECT_EQ(way_of(set, w).unfit, Unfit::NotInHalf) << way_tag(w);
    }
    EXPECT_EQ(way_of(set, Fp16Way::CufftHalf).why_not,
              "over the GPUs, one transform splits in half as single precision on halves");
    // The halves pay over the set as on one GPU on pageable arrays.
    EXPECT_TRUE(way_of(set, Fp16Way::SingleOnHalves).applies());
    const double half_s = cheapest_in_half(one);
    ASSERT_LT(half_s, *gpu_.one_s) << "halves pay on one GPU on pageable arrays on such a host";

    gpu_.set_s = half_s / 2;
    Dispatched d = choose_now(p);
    ASSERT_TRUE(made(d).gpu()) << d.why;
    EXPECT_EQ(made(d).spread(), Spread::Set) << d.why;
    EXPECT_EQ(made(d).way(), Fp16Way::SingleOnHalves) << d.why;
    EXPECT_TRUE(says(d.why, "; the GPUs' split priced " + ms(*way_of(placed_at(priced(p), Spread::Set), Fp16Way::SingleOnHalves).price)))
        << d.why;

    gpu_.set_s = half_s * 4;
    d = choose_now(p);
    EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
    EXPECT_EQ(made(d).way(), cheapest_gpu(priced(p))->way) << d.why;
    EXPECT_NE(made(d).way(), Fp16Way::Single) << d.why;
  }
}

// cuFFT's FP16 on 2-D and 3-D, where our kernels take the problem: not
// offered (its error passes the fp16 promise there), but when forced; on
// 1-D batches, and on 2-D sizes ours does not take, offered.
TEST_F(Fp16Candidates, CufftsFp16OnTwoAndThreeDimsIsLeftToOursUnlessForced) {
  for (const Kind kind : {Kind::C2C, Kind::R2C}) {
    for (const std::vector<int64_t> &dims : {std::vector<int64_t>{4096, 4096}, std::vector<int64_t>{256, 256, 256}}) {
      const Problem p = one_transform(dims, FFTW_ESTIMATE, kind);
      const std::vector<Candidate> list = priced(p);
      EXPECT_TRUE(way_of(list, Fp16Way::Ours).applies()) << way_of(list, Fp16Way::Ours).why_not;
      EXPECT_EQ(way_of(list, Fp16Way::CufftHalf).unfit, Unfit::NotInHalf);
      EXPECT_EQ(way_of(list, Fp16Way::CufftHalf).why_not,
                "less accurate than ours on 2-D and 3-D, which takes the problem");
      Dispatched d = choose_now(p);
      ASSERT_TRUE(made(d).gpu()) << d.why;
      EXPECT_NE(made(d).way(), Fp16Way::CufftHalf) << d.why;
      EXPECT_TRUE(says(d.why, "cuFFT fp16 not offered: less accurate than ours")) << d.why;
    }
  }
  EXPECT_TRUE(way_of(priced(half_problem(1024)), Fp16Way::CufftHalf).applies()) << "a 1-D batch";
  const std::vector<Candidate> large = priced(one_transform({8192, 8192}, FFTW_ESTIMATE, Kind::C2C));
  EXPECT_EQ(way_of(large, Fp16Way::Ours).unfit, Unfit::NotInHalf);
  EXPECT_TRUE(way_of(large, Fp16Way::CufftHalf).applies()) << "ours does not take 8192";

  planner_.forced_way = Fp16Way::CufftHalf;
  const Problem p = one_transform({4096, 4096}, FFTW_ESTIMATE, Kind::C2C);
  EXPECT_TRUE(way_of(priced(p), Fp16Way::CufftHalf).applies());
  EXPECT_EQ(made(choose_now(p)).way(), Fp16Way::CufftHalf);
}

// The same under FFTW_MEASURE: the set's f32 is read against one GPU's
// fastest way, whatever the prices, and the faster kept.
TEST_F(Fp16Candidates, OneTransformReadsF32OverTheSetAgainstOneGpusWays) {
  const Problem p = one_transform({4096, 4096}, FFTW_MEASURE, Kind::C2C);
  gpu_.splits = true;
  gpu_.set_s = *gpu_.one_s * 2;  // the model would keep one GPU
  way_read_s_ = {{Fp16Way::Ours, 2e-3}, {Fp16Way::CufftHalf, 2.4e-3}, {Fp16Way::SingleOnHalves, 2.2e-3}};
  gpu_read_s_ = 3e-3;    // f32 on one GPU
  set_read_s_ = 1.5e-3;  // f32 over the set
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::Set) << d.why;
  EXPECT_EQ(made(d).way(), Fp16Way::Single) << d.why;
  EXPECT_TRUE(says(d.why, "; the GPUs' split " + ms(1.5e-3) + ", one GPU " + ms(2e-3))) << d.why;

  calibrate_again();
  set_read_s_ = 2.5e-3;
  d = choose_now(p);
  EXPECT_EQ(made(d).spread(), Spread::One) << d.why;
  EXPECT_EQ(made(d).way(), Fp16Way::Ours) << d.why;
}

// GPUFFTW_MODE=gpu: the engine places the plan, over the set where its
// split takes it, so the price of a way that spreads there (f32, and
// single precision on halves on one c2c) is one GPU's over the set's gain
// from the tables, and the ways that compute in half keep one GPU's. A
// gain takes the halves over the set; none (no set cell), ours on one
// GPU; FFTW_MEASURE keeps f32 where it reads faster, however priced.
TEST_F(Fp16Candidates, TheGpuModePricesTheWaysThatSpreadWithTheSetsGain) {
  set_gain_ = 4;
  const Problem p = one_transform({4096, 4096}, FFTW_ESTIMATE, Kind::C2C);
  Dispatched d = choose_now(p, GPUFFTW_MODE_GPU);
  EXPECT_EQ(made(d).way(), Fp16Way::SingleOnHalves) << d.why;
  EXPECT_EQ(made(d).spread(), Spread::Auto) << d.why;
  EXPECT_EQ(d.why.rfind("GPUFFTW_MODE=gpu; fp16: " + std::string(way_name(Fp16Way::SingleOnHalves)) + ", by the model: ",
                        0),
            0u)
      << d.why;

  set_gain_ = 0;
  calibrate_again();
  d = choose_now(p, GPUFFTW_MODE_GPU);
  EXPECT_EQ(made(d).way(), Fp16Way::Ours) << d.why;

  const Problem measured = one_transform({4096, 4096}, FFTW_MEASURE, Kind::C2C);
  way_read_s_ = {{Fp16Way::Ours, 2e-3}, {Fp16Way::CufftHalf, 2.4e-3}, {Fp16Way::SingleOnHalves, 2.2e-3},
                 {Fp16Way::Single, 1.5e-3}};
  d = choose_now(measured, GPUFFTW_MODE_GPU);
  EXPECT_EQ(made(d).way(), Fp16Way::Single) << d.why;
  EXPECT_TRUE(says(d.why, "; fp16: f32, measured: ")) << d.why;
}

// FFTW_MEASURE reads every way once a round, three rounds in all, so that
// a slow spell of the host falls on every way alike: here the first six
// readings run 1.3x slow, and f32, the fastest out of it by 2%, is kept.
// Read two ways at a time, f32 and ours would both have been read only
// in the spell, and cuFFT's FP16 kept.
TEST_F(Fp16Candidates, MeasureReadsEveryWayInEachRound) {
  const Problem p = half_problem(4096, FFTW_MEASURE);
  const std::vector<Candidate> list{Candidate::gpu_at(Spread::Auto, 1.0e-3, Fp16Way::Single),
                                    Candidate::gpu_at(Spread::Auto, 1.05e-3, Fp16Way::Ours),
                                    Candidate::gpu_at(Spread::Auto, 1.1e-3, Fp16Way::SingleOnHalves),
                                    Candidate::gpu_at(Spread::Auto, 1.15e-3, Fp16Way::CufftHalf)};
  way_read_s_ = {{Fp16Way::Single, 1.0e-3}, {Fp16Way::Ours, 1.03e-3}, {Fp16Way::SingleOnHalves, 1.06e-3},
                 {Fp16Way::CufftHalf, 1.02e-3}};
  std::vector<Fp16Way> order;
  const Reading read = planner_.read;
  planner_.read = [&](Plan *plan, double enough) {
    order.push_back(static_cast<StandInPlan &>(*plan).way());
    const double s = read(plan, enough);
    return order.size() <= 6 ? 1.3 * s : s;
  };
  const GpuWay g = gpu_way_plan(planner_, p, list, true);
  ASSERT_TRUE(g.plan) << g.why;
  ASSERT_EQ(order.size(), 12u);
  for (size_t round = 0; round < 3; ++round)
    EXPECT_EQ(std::set<Fp16Way>(order.begin() + 4 * round, order.begin() + 4 * round + 4).size(), 4u)
        << "round " << round;
  EXPECT_EQ(g.way, Fp16Way::Single) << g.why;
  EXPECT_DOUBLE_EQ(g.read_s, 1.0e-3);
}

// The ways priced far over the cheapest are not made, but f32 always is.
TEST_F(Fp16Candidates, MeasureLeavesOutWaysPricedFarOffButNeverF32) {
  const Problem p = half_problem(1024, FFTW_MEASURE);
  const std::vector<Candidate> list{Candidate::gpu_at(Spread::Auto, 1e-3, Fp16Way::Ours),
                                    Candidate::gpu_at(Spread::Auto, 9e-3, Fp16Way::CufftHalf),
                                    Candidate::gpu_at(Spread::Auto, 5e-3, Fp16Way::Single)};
  way_read_s_ = {{Fp16Way::Ours, 1.2e-3}, {Fp16Way::Single, 1.0e-3}};
  GpuWay g = gpu_way_plan(planner_, p, list, true);
  ASSERT_TRUE(g.plan) << g.why;
  EXPECT_EQ(g.way, Fp16Way::Single);
  EXPECT_DOUBLE_EQ(g.read_s, 1.0e-3);
  EXPECT_EQ(gpu_.ways_made.count(Fp16Way::CufftHalf), 0u);
  EXPECT_EQ(readings_, 6) << "each way made read three times, in turn";
  EXPECT_TRUE(says(g.why, "not timed, priced over 4x the cheapest: cuFFT fp16")) << g.why;
}

// GPUFFTW_FP16_WAY: the forced way alone applies where it takes the
// problem, neither read nor stored; where it does not, the choice runs
// and says so; where it makes no plan, the others as without it.
TEST_F(Fp16Candidates, TheForcedWayRestrictsTheList) {
  planner_.forced_way = Fp16Way::Ours;
  Problem p = half_problem(1024, FFTW_MEASURE);
  const std::vector<Candidate> list = priced(p);
  EXPECT_TRUE(way_of(list, Fp16Way::Ours).applies());
  for (Fp16Way w : {Fp16Way::CufftHalf, Fp16Way::SingleOnHalves, Fp16Way::Single}) {
    EXPECT_EQ(way_of(list, w).unfit, Unfit::NotForced) << way_tag(w);
    EXPECT_EQ(way_of(list, w).why_not, "GPUFFTW_FP16_WAY=ours") << way_tag(w);
  }
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).way(), Fp16Way::Ours) << d.why;
  EXPECT_TRUE(says(d.why, "; fp16: ours (tensor cores), GPUFFTW_FP16_WAY=ours")) << d.why;
  KernelPick pick;
  EXPECT_FALSE(store().recall_kernel(way_key(p, ArraysAt::Pageable, Spread::Auto), &pick)) << "a forced way is not stored";

  const Problem odd = half_problem(1000);
  d = choose_now(odd);
  EXPECT_EQ(made(d).way(), cheapest_gpu(priced(odd))->way) << d.why;
  EXPECT_TRUE(says(d.why, "GPUFFTW_FP16_WAY=ours not taken: our kernels take powers of two 256 to 4096")) << d.why;

  gpu_.declines = {Fp16Way::Ours};
  p = half_problem(2048);
  d = choose_now(p);
  ASSERT_TRUE(made(d).gpu()) << d.why;
  EXPECT_NE(made(d).way(), Fp16Way::Ours) << d.why;
  EXPECT_TRUE(says(d.why, "GPUFFTW_FP16_WAY=ours not taken; ours (tensor cores) made no plan")) << d.why;
}

// GPUFFTW_MODE=gpu: the real FFTW ruled out by the mode, the GPU's ways
// weighed against each other at the model's own seconds; a forced way
// there needs no rates at all.
TEST_F(Fp16Candidates, TheGpuModeChoosesAmongTheWays) {
  const Problem p = half_problem(1024);
  Dispatched d = choose_now(p, GPUFFTW_MODE_GPU);
  ASSERT_TRUE(made(d).gpu()) << d.why;
  std::vector<WayPrice> m = model(p);
  const WayPrice *best = &m.front();
  for (const WayPrice &w : m)
    if (w.offered && (!best->offered || w.seconds < best->seconds)) best = &w;
  EXPECT_EQ(made(d).way(), best->way) << d.why;
  EXPECT_EQ(d.why.rfind("GPUFFTW_MODE=gpu; fp16: " + std::string(way_name(best->way)) + ", by the model: ", 0), 0u)
      << d.why;

  planner_.forced_way = Fp16Way::CufftHalf;
  gpu_calibrates_ = false;
  gpu_.half_rates_asked = 0;
  calibrate_again();
  d = choose_now(p, GPUFFTW_MODE_GPU);
  EXPECT_EQ(made(d).way(), Fp16Way::CufftHalf) << d.why;
  EXPECT_EQ(d.why, "GPUFFTW_MODE=gpu; fp16: cuFFT fp16, GPUFFTW_FP16_WAY=cufft-fp16");
  EXPECT_EQ(gpu_.half_rates_asked, 0);
}

// Arrays in device memory: the GPU alone, its ways priced where the
// arrays lie (the conversions on the device cost more than halving the
// passes saves: f32), and a way read faster under FFTW_MEASURE kept.
TEST_F(Fp16Candidates, DeviceArraysWeighTheWaysOnTheGpuAlone) {
  gpu_.memory_of[in_] = Memory::Device;
  Problem p = half_problem(1024);
  Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).way(), Fp16Way::Single) << d.why;
  EXPECT_EQ(d.why.rfind("arrays in device memory; fp16: f32, by the model: ", 0), 0u) << d.why;

  p = half_problem(1024, FFTW_MEASURE);
  way_read_s_ = {{Fp16Way::Ours, 0.4e-3}, {Fp16Way::CufftHalf, 0.5e-3}, {Fp16Way::SingleOnHalves, 0.8e-3},
                 {Fp16Way::Single, 0.6e-3}};
  d = choose_now(p);
  EXPECT_EQ(made(d).way(), Fp16Way::Ours) << d.why;
  KernelPick pick;
  ASSERT_TRUE(store().recall_kernel(way_key(p, ArraysAt::Device, Spread::Auto), &pick));
  EXPECT_EQ(pick.variant, "ours");
}

// Without the rates the ways in half are priced by: f32, saying why.
TEST_F(Fp16Candidates, WithoutHalfRatesF32) {
  gpu_.half.reset();
  const Problem p = half_problem(1024);
  const std::vector<Candidate> list = priced(p);
  EXPECT_EQ(way_of(list, Fp16Way::CufftHalf).unfit, Unfit::NoHalfRates);
  const Dispatched d = choose_now(p);
  EXPECT_EQ(made(d).way(), Fp16Way::Single) << d.why;
  EXPECT_TRUE(says(d.why, "; fp16: f32, by the model: f32 ")) << d.why;
  EXPECT_TRUE(says(d.why, "no rates to price the ways in half by: no device in this test")) << d.why;

  // A forced way in half without them: not taken, and f32 not ruled out.
  planner_.forced_way = Fp16Way::CufftHalf;
  const std::vector<Candidate> forced = priced(p);
  EXPECT_EQ(way_of(forced, Fp16Way::CufftHalf).unfit, Unfit::NoHalfRates);
  EXPECT_TRUE(way_of(forced, Fp16Way::Single).applies()) << way_of(forced, Fp16Way::Single).why_not;
  const Dispatched f = choose_now(p);
  EXPECT_EQ(made(f).way(), Fp16Way::Single) << f.why;
  EXPECT_TRUE(says(f.why, "GPUFFTW_FP16_WAY=cufft-fp16 not taken: no rates to price the ways in half by")) << f.why;
}

}  // namespace
}  // namespace gpufftw
