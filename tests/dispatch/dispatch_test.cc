// The dispatch decisions without a GPU: the cost model with injected rates,
// and the store's file (missing, corrupt, another machine's, the choices'
// round trip across runs and their forgetting).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iterator>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/time_limit.h"
#include "dispatch/cost_model.h"
#include "dispatch/store.h"
#include "temp_dir.h"
#include "test_rates.h"

namespace gpufftw {
namespace {

TEST(CostModel, GpuTimesComeFromTheTableByBytes) {
  const GpuRates g = gpu_rates();
  EXPECT_DOUBLE_EQ(gpu_seconds(c2c_f32({1 << 16}), true, g), g.seconds[1][0][2]);
  EXPECT_DOUBLE_EQ(gpu_seconds(c2c_f32({1024}, 64), false, g), g.seconds[0][1][2]);
  // f64 moves twice the bytes: as an f32 problem of twice the points.
  Problem f64 = c2c_f32({1 << 15});
  f64.precision = Precision::F64;
  EXPECT_NEAR(gpu_seconds(f64, true, g), g.seconds[1][0][2], 1e-12);
  // Flat below the table (the fixed cost), proportional beyond it.
  EXPECT_DOUBLE_EQ(gpu_seconds(c2c_f32({16}), true, g), g.seconds[1][0][0]);
  EXPECT_DOUBLE_EQ(gpu_seconds(c2c_f32({1 << 24}), true, g), g.seconds[1][0][5]);
  EXPECT_NEAR(gpu_seconds(c2c_f32({1 << 26}), true, g), 4 * g.seconds[1][0][5], 1e-12);
  // Between two sizes: between their times.
  const double mid = gpu_seconds(c2c_f32({1 << 14}), true, g);
  EXPECT_GT(mid, g.seconds[1][0][1]);
  EXPECT_LT(mid, g.seconds[1][0][2]);
}

TEST(CostModel, CpuTimesComeFromTheTable) {
  const CpuRates c = cpu_rates();
  EXPECT_NEAR(cpu_seconds(c2c_f32({1 << 10}), c), c.one_d[2][0], 1e-15);
  EXPECT_NEAR(cpu_seconds(c2c_f32({1 << 10}, 64), c), c.one_d[2][2], 1e-15);  // 2^16 points in all
  // 2^18 points: the table's own cell, not a price between 2^16's and 2^20's.
  CpuRates kinked = c;
  kinked.one_d[2][3] = 1.2 * kinked.one_d[2][2];
  EXPECT_NEAR(cpu_seconds(c2c_f32({1 << 10}, 256), kinked), kinked.one_d[2][3], 1e-15);
  EXPECT_NEAR(cpu_seconds(c2c_f32({64, 64}), c), c.multi_d[0][2], 1e-15);
  EXPECT_NEAR(cpu_seconds(c2c_f32({16, 16, 16}), c), c.multi_d[1][2], 1e-15);
  // r2c from its own tables, by reals, batches too.
  Problem r2c = c2c_f32({1 << 10});
  r2c.kind = Kind::R2C;
  EXPECT_NEAR(cpu_seconds(r2c, c), c.one_d_r2c[2][0], 1e-15);
  r2c.howmany.push_back({64, 1 << 10, 513});
  EXPECT_NEAR(cpu_seconds(r2c, c), c.one_d_r2c[2][2], 1e-15);
  Problem r2c_2d = c2c_f32({64, 128});
  r2c_2d.kind = Kind::R2C;
  EXPECT_NEAR(cpu_seconds(r2c_2d, c), std::exp2((std::log2(c.multi_d_r2c[0][2]) + std::log2(c.multi_d_r2c[0][3])) / 2),
              1e-15);  // 2^13 reals: between the rows of 2^12 and 2^14
  // Past the caches, 2-D and 3-D from the cell read at 2^24 points, however
  // far above proportional to 2^20's it lies; beyond it proportional.
  CpuRates out_of_cache = c;
  out_of_cache.multi_d[1][6] = 40 * out_of_cache.multi_d[1][5];
  const Problem cube = c2c_f32({256, 256, 256}), big_cube = c2c_f32({1024, 1024, 1024});
  EXPECT_NEAR(cpu_seconds(cube, out_of_cache), between_work(cube, out_of_cache.multi_d[1][6]), 1e-12);
  EXPECT_NEAR(cpu_seconds(big_cube, out_of_cache), between_work(big_cube, 64 * out_of_cache.multi_d[1][6]), 1e-9);
  EXPECT_GT(cpu_seconds(c2c_f32({128, 256, 256}), out_of_cache), 16 * out_of_cache.multi_d[1][5]);
  // Beyond the largest transform: proportional to the points.
  EXPECT_NEAR(cpu_seconds(c2c_f32({1 << 22}), c), 4 * c.one_d[5][0], 1e-12);
  // A size between rows lies between them.
  const double between = cpu_seconds(c2c_f32({3 << 11}), c);
  EXPECT_GT(between, c.one_d[3][0] / 2);
  EXPECT_LT(between, c.one_d[3][0]);
}

// The real FFTW's back-to-back times (the tables, FFTW_MEASURE's
// readings) priced as between other work from kBackToBackBytes of arrays.
TEST(CostModel, BigArraysArePricedAsBetweenOtherWork) {
  int in_array = 0, out_array = 0;
  auto placed = [&](Problem p, bool in_place) {
    p.in[0] = &in_array;
    p.out[0] = in_place ? &in_array : &out_array;
    return p;
  };
  // 2^22 f32 points: 32 MiB each way, 64 MiB out of place, 32 MiB in place.
  const Problem big = placed(c2c_f32({1 << 22}), false);
  EXPECT_DOUBLE_EQ(between_work(big, 1e-3), kBackToBackFastBy * 1e-3);
  EXPECT_DOUBLE_EQ(between_work(placed(c2c_f32({1 << 22}), true), 1e-3), 1e-3);
  EXPECT_DOUBLE_EQ(between_work(placed(c2c_f32({1 << 21}), false), 1e-3), 1e-3);
  Problem r2c = placed(c2c_f32({1 << 22}), false);  // 16 MiB of reals in, 16 MiB of half spectra out
  r2c.kind = Kind::R2C;
  EXPECT_DOUBLE_EQ(between_work(r2c, 1e-3), 1e-3);
  r2c.precision = Precision::F64;
  EXPECT_DOUBLE_EQ(between_work(r2c, 1e-3), kBackToBackFastBy * 1e-3);
  // The model's price of the real FFTW is so too.
  const CpuRates c = cpu_rates();
  EXPECT_NEAR(cpu_seconds(big, c), kBackToBackFastBy * 4 * c.one_d[5][0], 1e-12);
}

// Sizes with a prime factor over 13, in any dimension, priced
// kPastCodeletsBy higher than their neighbours.
TEST(CostModel, SizesPastTheCodeletsPricedHigher) {
  for (int64_t n : {16, 1000, 1008, 4096, 13 * 11 * 7 * 64}) EXPECT_FALSE(past_codelets(c2c_f32({n}))) << n;
  for (int64_t n : {17, 1009, 17 * 64, 65537}) EXPECT_TRUE(past_codelets(c2c_f32({n}))) << n;
  EXPECT_TRUE(past_codelets(c2c_f32({64, 17, 64})));
  const CpuRates c = cpu_rates();
  EXPECT_NEAR(cpu_seconds(c2c_f32({1009}, 64), c) / cpu_seconds(c2c_f32({1008}, 64), c), kPastCodeletsBy,
              0.01 * kPastCodeletsBy);
}

TEST(CostModel, JudgeSidesAndSureness) {
  const GpuRates g = gpu_rates();
  const CpuRates c = cpu_rates();
  auto judged = [](const Problem &p, bool pinned, const GpuRates &gr, const CpuRates &cr) {
    return judge(gpu_seconds(p, pinned, gr), cpu_seconds(p, cr));
  };
  Verdict v = judged(c2c_f32({1 << 24}), true, g, c);
  EXPECT_TRUE(v.gpu);
  EXPECT_TRUE(v.sure);  // 168 ms against 6.8 ms
  v = judged(c2c_f32({1024}), true, g, c);
  EXPECT_FALSE(v.gpu);
  EXPECT_TRUE(v.sure);  // 5 µs against 30 µs
  // Near the crossing: a side, but not sure, so FFTW_MEASURE times both.
  v = judged(c2c_f32({4096}, 4), true, g, c);
  EXPECT_FALSE(v.sure);
  // Pageable arrays move the same problem to the CPU.
  const Problem mid = c2c_f32({1 << 16}, 4);
  EXPECT_TRUE(judged(mid, true, g, cpu_rates(0.05)).gpu);    // 82 µs against 210 µs
  EXPECT_FALSE(judged(mid, false, g, cpu_rates(0.05)).gpu);  // 270 µs
}

// FFTW_MEASURE makes the real FFTW's measured plan where its estimated plan
// does not lose to the GPU by this much: less from 2^22 points in all, 2-D
// and 3-D included, where the two plans run close.
TEST(CostModel, TheEstimatedPlanLosesSoonerOnBigProblems) {
  EXPECT_EQ(estimate_loses_by(c2c_f32({1 << 20}, 3)), kEstimateLosesBy);
  EXPECT_EQ(estimate_loses_by(c2c_f32({1 << 20}, 4)), kNearEstimateLosesBy);
  EXPECT_EQ(estimate_loses_by(c2c_f32({1000}, 4194)), kEstimateLosesBy);
  EXPECT_EQ(estimate_loses_by(c2c_f32({1000}, 4195)), kNearEstimateLosesBy);
  EXPECT_EQ(estimate_loses_by(c2c_f32({128, 128, 128})), kEstimateLosesBy);
  EXPECT_EQ(estimate_loses_by(c2c_f32({256, 256, 64})), kNearEstimateLosesBy);
  EXPECT_LT(kNearEstimateLosesBy, kEstimateLosesBy);
}

// A calibration's reading of a cell: the table's own value (the host as
// it is), each call counted.
struct Rereads {
  CpuRates truth;
  std::vector<CpuCell> asked{};
  std::function<double(const CpuCell &)> reader() {
    return [this](const CpuCell &c) {
      asked.push_back(c);
      return c.in(truth);
    };
  }
};

TEST(RereadOutliers, ACellReadSlowIsReadAgainAndTheRestLeftAlone) {
  Rereads host{cpu_rates()};
  host.truth.threads = 16;
  CpuRates read = host.truth;
  const CpuCell spell{false, 1, 2, 2};  // r2c n = 1024, 2^16 points, as a sweep's spell read it
  spell.in(&read) *= 26;
  reread_outliers(&read, host.reader());
  ASSERT_EQ(host.asked.size(), 1u);
  EXPECT_EQ(host.asked[0].c2c, false);
  EXPECT_EQ(host.asked[0].size, 2u);
  EXPECT_EQ(host.asked[0].column, 2u);
  EXPECT_DOUBLE_EQ(spell.in(read), spell.in(host.truth));
  // A c2c cell above the bigger batch after it in its row, and a 3-D r2c
  // cell above its c2c twin.
  Rereads again{cpu_rates()};
  again.truth.threads = 16;
  read = again.truth;
  const CpuCell row{true, 1, 3, 0}, multi{false, 3, 4, 0};
  row.in(&read) *= 40;
  multi.in(&read) *= 3;
  reread_outliers(&read, again.reader());
  EXPECT_EQ(again.asked.size(), 2u);
  EXPECT_DOUBLE_EQ(row.in(read), row.in(again.truth));
  EXPECT_DOUBLE_EQ(multi.in(read), multi.in(again.truth));
}

TEST(RereadOutliers, SlowerAgainKeepsTheFasterAndOneThreadsProportionalCellsAreNotTimed) {
  Rereads host{cpu_rates()};
  host.truth.threads = 1;
  CpuRates read = host.truth;
  // Past kOneThreadTimedTo one thread's cells are proportional, not timed.
  const CpuCell big{false, 1, 4, 6};  // r2c n = 2^16 in 2^24 points
  ASSERT_GT(big.total_log2(), kOneThreadTimedTo);
  big.in(&read) = 2 * CpuCell{true, 1, 4, 6}.in(read);
  const CpuCell small{false, 1, 1, 1};
  small.in(&read) *= 2;
  const double slow = small.in(read);
  host.truth.one_d_r2c[1][1] = 3 * slow;  // the host is slower still when read again
  reread_outliers(&read, host.reader());
  ASSERT_EQ(host.asked.size(), 1u);
  EXPECT_EQ(host.asked[0].size, 1u);
  EXPECT_DOUBLE_EQ(small.in(read), slow);
}

// Readings handed out in order, counted, as time_execute's would come.
struct Readings {
  std::vector<double> left;
  int taken = 0;
  std::function<double()> reader() {
    return [this] { return left.at(static_cast<size_t>(taken++)); };
  }
};

TEST(Settle, OneSlowReadingOfThreeIsOutvoted) {
  // The CPU's first reading caught a slow spell (c2c-f64-256-b256 at 86 µs
  // against 27 µs in the sweep), and would have sent it to the GPU.
  double gpu_s = 74e-6, cpu_s = 86e-6;
  Readings g{{75e-6, 73e-6}}, c{{27e-6, 29e-6}};
  settle(&gpu_s, &cpu_s, g.reader(), c.reader());
  EXPECT_EQ(g.taken, 2);
  EXPECT_EQ(c.taken, 2);
  EXPECT_DOUBLE_EQ(gpu_s, 74e-6);
  EXPECT_DOUBLE_EQ(cpu_s, 29e-6);
  EXPECT_FALSE(judge(gpu_s, cpu_s).gpu);
  // A spell in a later reading is outvoted the same way, on either side.
  gpu_s = 100e-6, cpu_s = 80e-6;
  Readings g2{{300e-6, 101e-6}}, c2{{81e-6, 79e-6}};
  settle(&gpu_s, &cpu_s, g2.reader(), c2.reader());
  EXPECT_DOUBLE_EQ(gpu_s, 101e-6);
  EXPECT_DOUBLE_EQ(cpu_s, 80e-6);
}

TEST(Settle, ReadingsFarApartAreLeftAlone) {
  // Past kRereadWithin no reading is taken: planning time goes where the
  // answer cannot turn (a reader called here would throw out_of_range).
  double gpu_s = 1e-3, cpu_s = kRereadWithin * 1e-3 * 1.01;
  Readings none;
  settle(&gpu_s, &cpu_s, none.reader(), none.reader());
  EXPECT_EQ(none.taken, 0);
  EXPECT_DOUBLE_EQ(gpu_s, 1e-3);
  gpu_s = 4e-3, cpu_s = 1e-3;
  settle(&gpu_s, &cpu_s, none.reader(), none.reader());
  EXPECT_EQ(none.taken, 0);
  EXPECT_DOUBLE_EQ(cpu_s, 1e-3);
}

TEST(Doubt, ALoserReadFarAboveTheModelIsReadAgainUntilItWins) {
  // r2c-f32-32x32x32 as a sweep read it (docs/dispatch-sweep.md): the real
  // FFTW read 0.168 ms while planning against the GPU's 0.127, priced
  // 0.054; it ran 0.047.
  double cpu_s = 0.168e-3;
  Readings c{{0.050e-3, 0.047e-3}};
  doubt(&cpu_s, 0.127e-3, 0.054e-3, kDoubtedBy, c.reader());
  EXPECT_EQ(c.taken, 1);  // it wins at the first reading again
  EXPECT_DOUBLE_EQ(cpu_s, 0.050e-3);
  EXPECT_FALSE(judge(0.127e-3, cpu_s).gpu);
  // A spell that lasts: every reading slow, the fastest kept, no more than
  // kDoubtReadings taken.
  double gpu_s = 2.78e-3;
  Readings g{{3.1e-3, 2.5e-3, 2.9e-3, 0.1e-3}};
  doubt(&gpu_s, 0.255e-3, 0.142e-3, kDoubtedBy, g.reader());
  EXPECT_EQ(g.taken, kDoubtReadings);
  EXPECT_DOUBLE_EQ(gpu_s, 2.5e-3);
}

TEST(Doubt, ReadingsTheModelExpectsOrCannotTurnAreLeftAlone) {
  Readings none;  // a reader called here would throw out_of_range
  // Within kDoubtedBy of the model's price.
  double cpu_s = 0.15e-3;
  doubt(&cpu_s, 0.1e-3, 0.06e-3, kDoubtedBy, none.reader());
  // Far above it, but the model prices it to lose too (c2c-f32-512x512x512
  // on the real FFTW: read 870 ms, priced 86, against the GPU's tens).
  cpu_s = 870e-3;
  doubt(&cpu_s, 60e-3, 86e-3, kDoubtedBy, none.reader());
  EXPECT_EQ(none.taken, 0);
  EXPECT_DOUBLE_EQ(cpu_s, 870e-3);
}

// FFTW_MEASURE's cut (estimate_loses_by): an estimated plan read past it but
// priced under it is read again until it stays under, so that its measured
// plan is made (r2c-f32-256x256 as a sweep read it: 0.61 ms, priced 0.18,
// against the GPU's 0.13; the measured plan ran in 0.083).
TEST(Doubt, AnEstimatedPlanReadPastTheCutThatTheModelPricesUnderItIsReadAgain) {
  const double gpu_s = 0.13e-3, cut_s = kEstimateLosesBy * gpu_s;
  double quick_s = 0.61e-3;
  Readings c{{0.18e-3}};
  doubt(&quick_s, cut_s, 0.18e-3, kDoubtedBy, c.reader());
  EXPECT_EQ(c.taken, 1);
  EXPECT_LT(quick_s, cut_s);
  // Priced past the cut too (the GPU far ahead): the cut stands unread.
  Readings none;
  quick_s = 8.4e-3;
  doubt(&quick_s, 1.6 * 2.98e-3, 6e-3, kDoubtedBy, none.reader());
  EXPECT_EQ(none.taken, 0);
}

// The real FFTW's FFTW_ESTIMATE plan read faster than the GPU: its measured
// plan, read slower than both, is read again (r2c-f64-256x256 as a sweep
// read it: estimated plan 0.106 ms, GPU 0.17, measured plan 0.218).
TEST(Doubt, AMeasuredPlanReadAboveItsEstimatedOneIsReadAgain) {
  double cpu_s = 0.218e-3;
  Readings c{{0.095e-3}};
  doubt(&cpu_s, 0.17e-3, 0.106e-3, 1, c.reader());
  EXPECT_EQ(c.taken, 1);
  EXPECT_DOUBLE_EQ(cpu_s, 0.095e-3);
  // The estimated plan lost to the GPU too, or no estimated plan was read
  // (HUGE_VAL): left alone.
  Readings none;
  cpu_s = 0.218e-3;
  doubt(&cpu_s, 0.17e-3, 0.18e-3, 1, none.reader());
  doubt(&cpu_s, 0.17e-3, HUGE_VAL, 1, none.reader());
  EXPECT_EQ(none.taken, 0);
  EXPECT_DOUBLE_EQ(cpu_s, 0.218e-3);
}

// The real FFTW's plan without measuring, made now: the rest of the flags kept.
TEST(Problem, EstimatedDropsOnlyTheMeasuringAndWisdomOnlyFlags) {
  Problem p = c2c_f32({256}, 256);
  for (unsigned measuring : {FFTW_MEASURE, FFTW_PATIENT, FFTW_EXHAUSTIVE, FFTW_ESTIMATE, FFTW_WISDOM_ONLY,
                             FFTW_MEASURE | FFTW_WISDOM_ONLY}) {
    p.flags = measuring | FFTW_DESTROY_INPUT | FFTW_UNALIGNED;
    EXPECT_EQ(p.estimated().flags, FFTW_ESTIMATE | FFTW_DESTROY_INPUT | FFTW_UNALIGNED) << measuring;
  }
  EXPECT_EQ(p.estimated().batch(), 256);
}

// c2c-f64-256-b256 as a sweep read it: the measured plan lost to the GPU
// after its readings again, the estimated plan beat it, and runs.
TEST(EstimatedStandsIn, WhereTheMeasuredPlanLostButTheEstimatedOneBeatTheGpu) {
  EXPECT_TRUE(estimated_stands_in(0.073e-3, 0.074e-3, 0.025e-3));
  EXPECT_FALSE(estimated_stands_in(0.073e-3, 0.073e-3, 0.025e-3));  // a tie: the measured plan won
  EXPECT_FALSE(estimated_stands_in(0.073e-3, 0.05e-3, 0.025e-3));  // the measured plan wins
  EXPECT_FALSE(estimated_stands_in(0.073e-3, 0.074e-3, 0.073e-3));
  EXPECT_FALSE(estimated_stands_in(0.073e-3, 0.074e-3, HUGE_VAL));  // no estimated plan
}

TEST(LostInASpell, ALoserReadFarAboveAPriceThatWouldHaveWonIsNotToLast) {
  // c2c-f64-64-b16384 and c2c-f32-256x256 as read in a sweep's slow spells
  // (docs/how-it-works.md, FFTW_MEASURE's rules).
  EXPECT_TRUE(lost_in_a_spell(0.478e-3, 0.576e-3, 0.25e-3));
  EXPECT_TRUE(lost_in_a_spell(0.287e-3, 1.06e-3, 0.19e-3));
  EXPECT_FALSE(lost_in_a_spell(0.287e-3, 0.28e-3, 0.19e-3));    // 1.47x its price: a model's error
  EXPECT_FALSE(lost_in_a_spell(0.1e-3, 1.0e-3, 0.2e-3));        // it would have lost at its price too
  EXPECT_FALSE(lost_in_a_spell(0.1e-3, 0.15e-3, 0.1e-3));       // a tie at its price
  EXPECT_TRUE(lost_in_a_spell(0.13e-3, 0.21e-3, 0.1e-3));       // the GPU's side alike
}

// The program's thread count unless one thread is predicted faster by
// kOneThreadBy: a table off by less must not move a problem to one thread.
TEST(CostModel, OneThreadOnlyWhereTheModelIsSure) {
  auto sixteen_at = [](double ns) {
    CpuRates c = cpu_rates(ns);
    c.threads = 16;
    return c;
  };
  const CpuRates sixteen = sixteen_at(0.1), one = cpu_rates(0.5);
  const Problem big = c2c_f32({1 << 16}, 16);
  auto pick = [&big, &one](const CpuRates &program) {
    return pick_threads({cpu_seconds(big, program), program.threads}, {cpu_seconds(big, one), 1});
  };
  EXPECT_EQ(pick(sixteen).threads, 16);
  EXPECT_DOUBLE_EQ(pick(sixteen).seconds, cpu_seconds(big, sixteen));
  // One thread 1.5x faster: within the model's error, the program's threads stay.
  EXPECT_EQ(pick(sixteen_at(0.75)).threads, 16);
  // 2.5x faster: one thread.
  const CpuPick p = pick(sixteen_at(1.25));
  EXPECT_EQ(p.threads, 1);
  EXPECT_DOUBLE_EQ(p.seconds, cpu_seconds(big, one));
}

// Which cells a calibration times: every batch at more threads than one;
// one thread up to 2^kOneThreadTimedTo points, proportional beyond.
TEST(CostModel, OneThreadIsTimedUpTo2To20Points) {
  std::vector<int64_t> asked;
  auto time = [&asked](int64_t batch) {
    asked.push_back(batch);
    return 1e-6 * static_cast<double>(batch) * (batch > 1000 ? 3 : 1);  // slower past some size
  };
  CpuRates::OneD sixteen{}, one{};
  fill_one_d_row(&sixteen, 1, 16, time);  // n = 2^7: alone, 2^12, 2^16, 2^18, 2^20, 2^22, 2^24 points
  EXPECT_EQ(asked, (std::vector<int64_t>{1, 1 << 5, 1 << 9, 1 << 11, 1 << 13, 1 << 15, 1 << 17}));
  EXPECT_DOUBLE_EQ(sixteen[1][6], 3e-6 * (1 << 17));
  asked.clear();
  fill_one_d_row(&one, 1, 1, time);
  EXPECT_EQ(asked, (std::vector<int64_t>{1, 1 << 5, 1 << 9, 1 << 11, 1 << 13}));
  EXPECT_DOUBLE_EQ(one[1][5], 4 * one[1][4]);
  EXPECT_DOUBLE_EQ(one[1][6], 16 * one[1][4]);
  // n = 2^20 alone is 2^20 points: its batches of 4 and 16 are 4x and 16x
  // it at one thread.
  asked.clear();
  fill_one_d_row(&one, 5, 1, time);
  EXPECT_EQ(asked, (std::vector<int64_t>{1}));
  EXPECT_EQ(one[5][1], 0);
  EXPECT_EQ(one[5][3], 0);  // no batch of 2^18 points of n = 2^20
  EXPECT_DOUBLE_EQ(one[5][5], 4 * one[5][0]);
  EXPECT_DOUBLE_EQ(one[5][6], 16 * one[5][0]);
}

// 2-D and 3-D cells likewise: at one thread the 2^24-point cell is 16x the
// 2^20 one, untimed; at more threads it is read.
TEST(CostModel, OneThreadMultiDimIsTimedUpTo2To20Points) {
  std::vector<int> asked;
  auto time = [&asked](const CpuCell &c) {
    asked.push_back(c.log2());
    return 1e-9 * std::exp2(c.log2()) * (c.log2() > 20 ? 30 : 1);
  };
  for (int threads : {16, 1}) {
    CpuRates r;
    r.threads = threads;
    asked.clear();
    for (size_t i = 0; i < CpuRates::kMultiSizes; ++i) fill_multi_d_cell(&r, CpuCell{true, 3, i, 0}, time);
    const std::vector<int> timed(CpuRates::kLog2Rank3.begin(), CpuRates::kLog2Rank3.end() - (threads == 1 ? 1 : 0));
    EXPECT_EQ(asked, timed) << threads << " threads";
    EXPECT_DOUBLE_EQ(r.multi_d[1][6], (threads == 1 ? 16 : 480) * r.multi_d[1][5]) << threads << " threads";
  }
}

// The set's price from its own row, from its smallest split cell up;
// none below it, none where the row is empty.
TEST(CostModel, TheSetIsPricedFromItsSmallestSplitCellUp) {
  GpuRates g = gpu_rates();
  EXPECT_FALSE(gpu_set_seconds(c2c_f32({1 << 24}), true, g)) << "no set cells: no price";
  g.set_seconds[1][0][4] = g.seconds[1][0][4] / 2;  // 2^22 points
  g.set_seconds[1][0][5] = g.seconds[1][0][5] / 2;  // 2^24
  EXPECT_DOUBLE_EQ(*gpu_set_seconds(c2c_f32({1 << 22}), true, g), g.set_seconds[1][0][4]);
  EXPECT_DOUBLE_EQ(*gpu_set_seconds(c2c_f32({1 << 24}), true, g), g.set_seconds[1][0][5]);
  EXPECT_NEAR(*gpu_set_seconds(c2c_f32({1 << 26}), true, g), 4 * g.set_seconds[1][0][5], 1e-12);
  const double mid = *gpu_set_seconds(c2c_f32({1 << 23}), true, g);
  EXPECT_GT(mid, g.set_seconds[1][0][4]);
  EXPECT_LT(mid, g.set_seconds[1][0][5]);
  EXPECT_FALSE(gpu_set_seconds(c2c_f32({1 << 21}), true, g)) << "below the smallest cell split";
  EXPECT_FALSE(gpu_set_seconds(c2c_f32({1 << 24}), false, g)) << "another row: pageable";
  EXPECT_FALSE(gpu_set_seconds(c2c_f32({1024}, 1 << 14), true, g)) << "another row: batches";
}

// Two readings of the set's table: the faster of the cells both split, the
// one reading of a cell only one split.
TEST(CostModel, TheFasterOfTwoReadingsKeepsTheSetCellsEitherSplit) {
  GpuRates a = gpu_rates(), b = gpu_rates();
  a.set_seconds[1][1][4] = 2e-3;
  b.set_seconds[1][1][4] = 1e-3;
  b.set_seconds[1][1][5] = 4e-3;
  const GpuRates r = fastest_of(a, b);
  EXPECT_EQ(r.set_seconds[1][1][4], 1e-3);
  EXPECT_EQ(r.set_seconds[1][1][5], 4e-3);
  EXPECT_EQ(r.set_seconds[1][1][3], 0);
}

// The engine's rates: the higher reading of each.
TEST(CostModel, TheFasterOfTwoReadingsKeepsTheHigherRates) {
  GpuRates a = gpu_rates(), b = gpu_rates();
  a.link_rate = 20e9;
  b.device_rate = 1e12;
  b.peer_rate = 200e9;
  const GpuRates r = fastest_of(a, b);
  EXPECT_EQ(r.link_rate, gpu_rates().link_rate);
  EXPECT_EQ(r.device_rate, gpu_rates().device_rate);
  EXPECT_EQ(r.peer_rate, 200e9);
}

// A table without the engine's rates is no table: each must be positive.
TEST(CostModel, AGpuTableNeedsEachRate) {
  EXPECT_TRUE(gpu_rates().valid());
  for (double GpuRates::*rate : {&GpuRates::link_rate, &GpuRates::device_rate, &GpuRates::peer_rate}) {
    GpuRates g = gpu_rates(), g2;
    g.*rate = 0;
    EXPECT_FALSE(g.valid());
    EXPECT_FALSE(parse(format(g), &g2));
    g.*rate = -1e9;
    EXPECT_FALSE(g.valid());
  }
}

TEST(CostModel, LinesRoundTripAndRejectGarbage) {
  GpuRates g = gpu_rates(), g2;
  g.set_seconds[0][1][5] = 3e-3;
  ASSERT_TRUE(parse(format(g), &g2));
  EXPECT_NEAR(g2.link_rate, g.link_rate, 1e-5 * g.link_rate);
  EXPECT_NEAR(g2.device_rate, g.device_rate, 1e-5 * g.device_rate);
  EXPECT_NEAR(g2.peer_rate, g.peer_rate, 1e-5 * g.peer_rate);
  EXPECT_NEAR(g2.seconds[1][1][3], g.seconds[1][1][3], 1e-5 * g.seconds[1][1][3]);
  EXPECT_NEAR(g2.set_seconds[0][1][5], 3e-3, 1e-8);
  EXPECT_EQ(g2.set_seconds[0][1][4], 0);
  g.set_seconds[0][1][4] = -1e-3;
  EXPECT_FALSE(parse(format(g), &g2)) << "a negative set cell";
  g.set_seconds[0][1][4] = 0;
  CpuRates c = cpu_rates(0.75), c2;
  c.precision = Precision::F64;
  c.threads = 16;
  ASSERT_TRUE(parse(format(c), &c2));
  EXPECT_EQ(c2.threads, 16);
  EXPECT_EQ(c2.precision, Precision::F64);
  EXPECT_NEAR(c2.multi_d[1][5], c.multi_d[1][5], 1e-5 * c.multi_d[1][5]);
  EXPECT_EQ(c2.one_d[5][1], 0);  // no batch of 2^12 points of n = 2^20
  EXPECT_NEAR(c2.one_d_r2c[3][2], c.one_d_r2c[3][2], 1e-5 * c.one_d_r2c[3][2]);
  EXPECT_EQ(c2.one_d_r2c[5][1], 0);
  EXPECT_NEAR(c2.one_d[4][5], c.one_d[4][5], 1e-5 * c.one_d[4][5]);  // 2^22 points of n = 2^16
  EXPECT_NEAR(c2.multi_d_r2c[1][3], c.multi_d_r2c[1][3], 1e-5 * c.multi_d_r2c[1][3]);
  const std::string line = format(g), rest = line.substr(line.find(' ', 4));
  EXPECT_FALSE(parse("gpu 1 2 3", &g2));        // short
  EXPECT_FALSE(parse(line + " 7", &g2));        // long
  EXPECT_FALSE(parse("gpu -1" + rest, &g2));    // negative
  EXPECT_FALSE(parse("gpu nan" + rest, &g2));   // not finite
  EXPECT_FALSE(parse("cpu f16" + format(c).substr(7), &c2));  // no such precision
  c.readings = 2;
  ASSERT_TRUE(parse(format(c), &c2));
  EXPECT_EQ(c2.readings, 2);
  g.readings = 2;
  ASSERT_TRUE(parse(format(g), &g2));
  EXPECT_EQ(g2.readings, 2);
  g.readings = 0;
  EXPECT_FALSE(parse(format(g), &g2));
  c.readings = 0;
  EXPECT_FALSE(parse(format(c), &c2));
  c.readings = 1;
  c.one_d[5][1] = 1e-3;  // a batch row that cannot exist
  EXPECT_FALSE(parse(format(c), &c2));
  c.one_d[5][1] = 0;
  c.one_d_r2c[2][0] = 0;  // an r2c time missing
  EXPECT_FALSE(parse(format(c), &c2));
}

class Store : public ::testing::Test {
 protected:
  DispatchStore make(const std::string &machine = "test machine") {
    DispatchStore::Calibrators c;
    c.gpu = [this](GpuRates *r, std::string *) {
      ++gpu_calibrations_;
      took_the_plans_limit();
      *r = gpu_rates();
      for (auto &memory : r->seconds)
        for (auto &row : memory)
          for (double &v : row) v *= gpu_slower_;
      return true;
    };
    c.cpu = [this](Precision p, int threads) {
      ++cpu_calibrations_;
      took_the_plans_limit();
      CpuRates r = cpu_rates(cpu_ns_);
      r.precision = p;
      r.threads = threads;
      return r;
    };
    if (faster_now_ > 0)
      c.check_cpu = [this](const CpuRates &) {
        ++cpu_checks_;
        return faster_now_;
      };
    if (gpu_faster_now_ != 0)
      c.check_gpu = [this](const GpuRates &) {
        ++gpu_checks_;
        return std::max(gpu_faster_now_, 0.0);
      };
    return DispatchStore(path_, [this, machine] {
      ++machine_asked_;
      return machine;
    }, c);
  }

  // A calibration as long as `calibration_s_`, noting whether it ran under
  // a plan's deadline.
  void took_the_plans_limit() {
    calibrated_under_a_deadline_ |= plan_deadline().bounded();
    std::this_thread::sleep_for(std::chrono::duration<double>(calibration_s_));
  }

  // The store's file as `text` alone, its folder made first.
  void write_store(const std::string &text) {
    ASSERT_EQ(mkdir((dir_ + "/sub").c_str(), 0700), 0);
    std::ofstream(path_) << text;
  }

  std::string file() const {
    std::ifstream in(path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  const TempDir temp_{"dispatch"};
  const std::string dir_ = temp_.path();
  std::string path_ = dir_ + "/sub/dispatch.txt";  // the directory is made on first save
  int gpu_calibrations_ = 0, cpu_calibrations_ = 0, cpu_checks_ = 0, gpu_checks_ = 0, machine_asked_ = 0;
  double cpu_ns_ = 0.5;         // what a CPU calibration reads
  double gpu_slower_ = 1;       // what a GPU calibration reads, against gpu_rates()
  double faster_now_ = 0;       // what a CPU check says (0: no check)
  double gpu_faster_now_ = 0;   // what a GPU check says (0: no check; below 0: it says 0, cannot tell)
  double calibration_s_ = 0;    // how long each calibration takes
  bool calibrated_under_a_deadline_ = false;
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
  EXPECT_NEAR(next.gpu_rates()->seconds[1][0][2], gpu_rates().seconds[1][0][2], 1e-5 * gpu_rates().seconds[1][0][2]);
  EXPECT_NEAR(next.gpu_rates()->link_rate, gpu_rates().link_rate, 1e-5 * gpu_rates().link_rate);
  EXPECT_NEAR(next.gpu_rates()->device_rate, gpu_rates().device_rate, 1e-5 * gpu_rates().device_rate);
  EXPECT_NEAR(next.gpu_rates()->peer_rate, gpu_rates().peer_rate, 1e-5 * gpu_rates().peer_rate);
  EXPECT_EQ(next.cpu_rates(Precision::F64, 16).precision, Precision::F64);
  EXPECT_EQ(gpu_calibrations_, 1);
  EXPECT_EQ(cpu_calibrations_, 2);
  next.cpu_rates(Precision::F32, 1);  // a new thread count is calibrated
  EXPECT_EQ(cpu_calibrations_, 3);
}

// Several processes calibrating and remembering choices into one store at
// once: every save reads the file, merges and replaces it, so
// without a lock around that the last writer drops what another wrote
// between its read and its rename. Nothing may be lost, the file must
// parse, and no temporary may be left behind.
// The first plan on a machine calibrates, for seconds; under a program's
// time limit that calibration must not use up the plan's limit (its real
// FFTW planner would then get nothing and plan as FFTW_ESTIMATE does),
// nor be cut short by it (the tables are kept for every later plan).
TEST_F(Store, CalibrationIsOutsideThePlansTimeLimit) {
  calibration_s_ = 0.6;  // twice: past the plan's limit, with half a second to spare for a loaded host
  DispatchStore s = make();
  const PlanDeadline plan(Deadline(1));
  ASSERT_TRUE(s.gpu_rates());
  EXPECT_TRUE(s.cpu_rates(Precision::F32, 1).valid());
  EXPECT_EQ(gpu_calibrations_, 1);
  EXPECT_EQ(cpu_calibrations_, 1);
  EXPECT_FALSE(calibrated_under_a_deadline_) << "a calibration kept to the plan's limit";
  EXPECT_FALSE(plan_deadline().passed()) << "1.2 s of calibration used up the plan's 1 s";
  EXPECT_GT(plan_deadline().left(), 0.5);
}

TEST_F(Store, ProcessesSavingAtOnceLoseNothing) {
  constexpr int kProcesses = 4, kEach = 40;
  int gate[2];
  ASSERT_EQ(pipe(gate), 0);
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(gate[1]);
      char c;
      if (read(gate[0], &c, 1) != 0) _exit(3);  // all start together, at the close
      DispatchStore s = make();
      s.cpu_rates(Precision::F64, 100 + p);  // a table only this process calibrates
      for (int i = 0; i < kEach; ++i) {
        Choice choice;
        choice.gpu = i % 2 == 1;
        choice.gpu_s = p + 1;
        choice.cpu_s = i + 1;
        s.remember("p" + std::to_string(p) + "-" + std::to_string(i), choice);
        if (i % 8 == 0) s.remember_kernel("k" + std::to_string(p) + "-" + std::to_string(i), {"cufft", 1, 2});
      }
      _exit(0);
    }
    children.push_back(pid);
  }
  close(gate[0]);
  close(gate[1]);
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  DispatchStore s = make();
  int lost = 0;
  for (int p = 0; p < kProcesses; ++p) {
    for (int i = 0; i < kEach; ++i) {
      Choice c;
      if (!s.recall("p" + std::to_string(p) + "-" + std::to_string(i), &c)) {
        ++lost;
        continue;
      }
      EXPECT_EQ(c.gpu, i % 2 == 1);
      EXPECT_EQ(c.gpu_s, p + 1);
      EXPECT_EQ(c.cpu_s, i + 1);
    }
    for (int i = 0; i < kEach; i += 8) {
      KernelPick k;
      if (!s.recall_kernel("k" + std::to_string(p) + "-" + std::to_string(i), &k)) ++lost;
    }
    EXPECT_EQ(s.cpu_rates(Precision::F64, 100 + p).threads, 100 + p);
  }
  EXPECT_EQ(lost, 0) << file();
  EXPECT_EQ(cpu_calibrations_, 0) << "a process's table was lost";
  for (const auto &entry : std::filesystem::directory_iterator(dir_ + "/sub")) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "dispatch.txt" || name == "dispatch.txt.lock") << name;
  }
}

// A choice's place in the file: where it runs (where_name's text, or
// cpu-estimated), then the GPU placement or the CPU thread count timing
// chose; any other word makes the file corrupt.
TEST_F(Store, AChoicesPlaceRoundTripsAndNoOtherWordReads) {
  const auto choice = [](bool gpu, Spread spread, int threads, bool estimated) {
    Choice c;
    c.gpu = gpu, c.spread = spread, c.threads = threads, c.estimated = estimated;
    c.gpu_s = 1e-3, c.cpu_s = 2e-3;
    return c;
  };
  const std::vector<std::pair<std::string, Choice>> kept = {
      {"gpu", choice(true, Spread::Auto, 0, false)},       {"gpu@one", choice(true, Spread::One, 0, false)},
      {"gpu@set", choice(true, Spread::Set, 0, false)},    {"cpu", choice(false, Spread::Auto, 0, false)},
      {"cpu@3", choice(false, Spread::Auto, 3, false)},    {"cpu-estimated", choice(false, Spread::Auto, 0, true)},
      {"cpu-estimated@2", choice(false, Spread::Auto, 2, true)}};
  for (const auto &[word, c] : kept) make().remember("key." + word, c);
  DispatchStore s = make();
  for (const auto &[word, c] : kept) {
    Choice got;
    ASSERT_TRUE(s.recall("key." + word, &got)) << word;
    EXPECT_EQ(got.gpu, c.gpu) << word;
    EXPECT_EQ(got.spread, c.spread) << word;
    EXPECT_EQ(got.threads, c.threads) << word;
    EXPECT_EQ(got.estimated, c.estimated) << word;
    EXPECT_NE(file().find("choice key." + word + " " + word + " "), std::string::npos) << word << ": " << file();
  }
  const std::string good = file();
  for (const char *bad : {"gpu@3", "cpu@one", "none", "gpu@", "cpu@0", "GPU", "cpu@4294967297", "cpu@-1"}) {
    std::ofstream(path_) << good << "choice key.bad " << bad << " 0.001 0.002\n";
    Choice got;
    EXPECT_FALSE(make().recall("key.gpu", &got)) << bad << " read as a choice's place";
  }
}

// A time no run reads (negative): the file is corrupt, not read into a
// choice or a kernel's pick.
TEST_F(Store, ATimeNoRunReadsMakesTheFileCorrupt) {
  make().remember("key.good", Choice{true, 1e-3, 2e-3});
  const std::string good = file();
  for (const char *bad : {"choice key.bad gpu -0.001 0.002\n", "choice key.bad cpu 0.001 -inf\n",
                          "kernel key.bad v1 -0.001 0.002\n", "kernel key.bad v1 0.001 -1e-9\n"}) {
    std::ofstream(path_) << good << bad;
    Choice got;
    EXPECT_FALSE(make().recall("key.good", &got)) << bad << "read";
  }
}

// Another machine's process of the same id, saving into the same folder
// (a cluster's shared HOME, a container's own process ids), writes a
// temporary of its own: one left in the folder by the same id elsewhere
// does not stop this save.
TEST_F(Store, AnotherHostsTemporaryOfTheSameProcessIdLeavesTheSaveAlone) {
  make().gpu_rates();
  const std::string theirs = path_ + ".tmp." + std::to_string(getpid());
  ASSERT_EQ(mkdir(theirs.c_str(), 0700), 0);
  make().remember("key.saved", Choice{true, 1e-3, 2e-3});
  Choice got;
  EXPECT_TRUE(make().recall("key.saved", &got));
  rmdir(theirs.c_str());
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

// Processes of several machines share one file: an MPI job's ranks each
// given a GPU of their own (CUDA_VISIBLE_DEVICES), login and compute nodes
// under one home. Each reads its own section and each save keeps the
// others', so no machine calibrates again or loses its choices to another's
// saves.
TEST_F(Store, MachinesSavingInTurnEachKeepTheirOwnSection) {
  const std::vector<std::string> machines = {"test machine; CUDA_VISIBLE_DEVICES=0",
                                             "test machine; CUDA_VISIBLE_DEVICES=1"};
  const auto key = [](int run) { return "c2c.f32.n64:1:1,.h.fwd.oop.t" + std::to_string(run + 1) + ".pageable"; };
  for (int run = 0; run < 3; ++run)
    for (size_t m = 0; m < machines.size(); ++m) {
      DispatchStore s = make(machines[m]);
      ASSERT_TRUE(s.gpu_rates());
      s.cpu_rates(Precision::F32, 1);
      for (int before = 0; before < run; ++before) {
        Choice got;
        ASSERT_TRUE(s.recall(key(before), &got)) << machines[m] << ", run " << run << ": " << file();
        EXPECT_EQ(got.gpu, m == 0) << "another machine's choice";
      }
      s.remember(key(run), Choice{m == 0, 1, 2});
      s.remember_kernel("k." + std::to_string(run), {m == 0 ? "ours" : "cufft", 1, 2});
    }
  EXPECT_EQ(gpu_calibrations_, 2) << file();
  EXPECT_EQ(cpu_calibrations_, 2) << file();
  KernelPick pick;
  ASSERT_TRUE(make(machines[1]).recall_kernel("k.0", &pick)) << file();
  EXPECT_EQ(pick.variant, "cufft");
}

// How many times `what` is in `text`.
size_t count_of(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The part of the file that is `machine`'s section, its machine line first.
std::string section(const std::string &text, const std::string &machine) {
  const size_t at = text.find("\nmachine " + machine + "\n");
  if (at == std::string::npos) return "";
  const size_t end = text.find("\nmachine ", at + 1);
  return text.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// Another machine's saves, its forgetting included, leave a third one's
// section as it was, line for line, though both hold the same keys.
TEST_F(Store, OtherMachinesSavesLeaveAThirdsSectionAsItWas) {
  const std::string key = "c2c.f64.n256:1:1,.h.fwd.oop.t1.pageable";
  {
    DispatchStore third = make("machine C");
    ASSERT_TRUE(third.gpu_rates());
    third.cpu_rates(Precision::F64, 2);
    third.remember(key, Choice{true, 1, 2});
    third.remember_kernel("k", {"ours", 1, 2});
  }
  const std::string before = section(file(), "machine C");
  ASSERT_NE(before, "") << file();
  for (const char *machine : {"machine A", "machine B", "machine A"}) {
    DispatchStore s = make(machine);
    s.gpu_rates();
    s.remember(key, Choice{false, 2, 1});
    s.remember_kernel("k", {"cufft", 2, 1});
    s.forget([](const std::string &) { return true; });
    s.remember("c2c.f64.n512:1:1,.h.fwd.oop.t1.pageable", Choice{false, 2, 1});
  }
  EXPECT_EQ(section(file(), "machine C"), before) << file();
  DispatchStore third = make("machine C");
  Choice got;
  ASSERT_TRUE(third.recall(key, &got)) << file();
  EXPECT_TRUE(got.gpu);
  third.gpu_rates();
  third.cpu_rates(Precision::F64, 2);
  EXPECT_EQ(gpu_calibrations_, 3);
  EXPECT_EQ(cpu_calibrations_, 1);
}

// The file keeps the sections of the kMachinesKept machines that saved
// last; the one that saved longest ago is dropped.
TEST_F(Store, TheFileKeepsTheMachinesThatSavedLast) {
  const auto name = [](size_t m) { return "machine " + std::to_string(m); };
  const std::string key = "c2c.f32.n64:1:1,.h.fwd.oop.t1.pageable";
  for (size_t m = 0; m < DispatchStore::kMachinesKept; ++m) make(name(m)).remember(key, Choice{true, 1, 2});
  make(name(0)).remember(key, Choice{true, 1, 2});  // machine 1 now the one saved longest ago
  make(name(DispatchStore::kMachinesKept)).remember(key, Choice{true, 1, 2});
  const std::string text = file();
  EXPECT_EQ(count_of(text, "\nmachine "), DispatchStore::kMachinesKept) << text;
  Choice got;
  EXPECT_FALSE(make(name(1)).recall(key, &got)) << text;
  for (size_t m : {size_t{0}, size_t{2}, DispatchStore::kMachinesKept - 1, DispatchStore::kMachinesKept})
    EXPECT_TRUE(make(name(m)).recall(key, &got)) << name(m) << ": " << text;
}

TEST_F(Store, AnotherProcessesCpuTableIsCheckedOnceAndKeptWhereItAgrees) {
  faster_now_ = 1.1;
  make().cpu_rates(Precision::F32, 16);
  EXPECT_EQ(cpu_checks_, 0);  // not this process's own reading
  {
    DispatchStore s = make();
    EXPECT_EQ(s.cpu_rates(Precision::F32, 16).readings, 2);
    s.cpu_rates(Precision::F32, 16);
  }
  EXPECT_EQ(cpu_checks_, 1);
  EXPECT_EQ(cpu_calibrations_, 1);
  EXPECT_EQ(make().cpu_rates(Precision::F32, 16).readings, 2);  // from the file
  EXPECT_EQ(cpu_checks_, 1);
}

TEST_F(Store, ATableReadInASlowSpellIsReadAgainAndTheFasterCellsKept) {
  cpu_ns_ = 1.5;  // the first reading 3x slow
  make().cpu_rates(Precision::F64, 16);
  cpu_ns_ = 0.5;
  faster_now_ = 3;
  const CpuRates r = make().cpu_rates(Precision::F64, 16);
  EXPECT_EQ(cpu_calibrations_, 2);
  EXPECT_EQ(r.readings, 2);
  EXPECT_DOUBLE_EQ(r.one_d[2][2], cpu_rates(0.5).one_d[2][2]);
  EXPECT_DOUBLE_EQ(r.multi_d_r2c[1][4], cpu_rates(0.5).multi_d_r2c[1][4]);
  EXPECT_EQ(r.precision, Precision::F64);
  EXPECT_EQ(r.threads, 16);
  // A third reading, slower again, would not raise a cell: none is taken.
  cpu_ns_ = 1.5;
  EXPECT_DOUBLE_EQ(make().cpu_rates(Precision::F64, 16).one_d[2][2], cpu_rates(0.5).one_d[2][2]);
  EXPECT_EQ(cpu_calibrations_, 2);
  EXPECT_EQ(cpu_checks_, 1);
}

TEST_F(Store, ACheckInASlowSpellChangesNothingAndTheNextProcessChecks) {
  make().cpu_rates(Precision::F32, 1);
  faster_now_ = 0.5;
  {
    DispatchStore s = make();
    EXPECT_EQ(s.cpu_rates(Precision::F32, 1).readings, 1);
    s.cpu_rates(Precision::F32, 1);
  }
  EXPECT_EQ(cpu_checks_, 1);
  faster_now_ = 1.0;
  EXPECT_EQ(make().cpu_rates(Precision::F32, 1).readings, 2);
  EXPECT_EQ(cpu_checks_, 2);
  EXPECT_EQ(cpu_calibrations_, 1);
}

TEST_F(Store, TheGpuTableIsCheckedByTheNextProcessAndReadAgainWhereItWasSlow) {
  gpu_slower_ = 2.5;  // the pinned rows as a slow spell reads them
  gpu_faster_now_ = 2.5;
  make().gpu_rates();
  EXPECT_EQ(gpu_checks_, 0);  // not this process's own reading
  gpu_slower_ = 1;
  {
    DispatchStore s = make();
    const GpuRates r = *s.gpu_rates();
    EXPECT_EQ(r.readings, 2);
    EXPECT_DOUBLE_EQ(r.seconds[1][1][3], gpu_rates().seconds[1][1][3]);
    s.gpu_rates();
  }
  EXPECT_EQ(gpu_checks_, 1);
  EXPECT_EQ(gpu_calibrations_, 2);
  // Two readings: never checked again, and a slower third would raise nothing.
  gpu_slower_ = 3;
  const double kept = gpu_rates().seconds[0][0][2];
  EXPECT_NEAR(make().gpu_rates()->seconds[0][0][2], kept, 1e-5 * kept);  // from the file, 6 digits
  EXPECT_EQ(gpu_checks_, 1);
  EXPECT_EQ(gpu_calibrations_, 2);
}

TEST_F(Store, AGpuTableThatAgreesIsKeptAndOneCheckedInASpellIsCheckedAgain) {
  gpu_faster_now_ = 0.5;  // this process is the slow one
  make().gpu_rates();
  EXPECT_EQ(make().gpu_rates()->readings, 1);
  EXPECT_EQ(gpu_checks_, 1);
  gpu_faster_now_ = 1.1;
  EXPECT_EQ(make().gpu_rates()->readings, 2);
  EXPECT_EQ(make().gpu_rates()->readings, 2);  // from the file
  EXPECT_EQ(gpu_checks_, 2);
  EXPECT_EQ(gpu_calibrations_, 1);
}

TEST_F(Store, TheGpuTableWaitsForAProcessThatStartedCuda) {
  gpu_faster_now_ = -1;  // a check that cannot tell yet (0: no check at all)
  make().gpu_rates();
  DispatchStore s = make();
  EXPECT_EQ(s.gpu_rates()->readings, 1);
  EXPECT_EQ(s.gpu_rates()->readings, 1);
  EXPECT_EQ(gpu_checks_, 2);  // asked again at each ask
  gpu_faster_now_ = 1.0;  // CUDA started: the check tells
  EXPECT_EQ(s.gpu_rates()->readings, 2);
  s.gpu_rates();
  EXPECT_EQ(gpu_checks_, 3);
}

TEST_F(Store, ChoicesRoundTripAcrossRunsAndAreForgotten) {
  Choice c;
  c.gpu = true;
  c.gpu_s = 0.001;
  c.cpu_s = 0.004;
  make().remember("c2c.f32.n1024:1:1,.h64:1024:1024,.fwd.oop.t16.pinned", c);
  make().remember("c2c.f64.n4096:1:1,.h.fwd.oop.t1.pageable", Choice{false, 0.002, 0.001});
  make().remember("c2c.f64.n256:1:1,.h256:256:256,.fwd.oop.t16.pageable", Choice{false, 0.073e-3, 0.025e-3, true});
  DispatchStore s = make();
  Choice got;
  ASSERT_TRUE(s.recall("c2c.f32.n1024:1:1,.h64:1024:1024,.fwd.oop.t16.pinned", &got));
  EXPECT_TRUE(got.gpu);
  EXPECT_FALSE(got.estimated);
  EXPECT_DOUBLE_EQ(got.cpu_s, 0.004);
  ASSERT_TRUE(s.recall("c2c.f64.n256:1:1,.h256:256:256,.fwd.oop.t16.pageable", &got));
  EXPECT_FALSE(got.gpu);
  EXPECT_TRUE(got.estimated);
  EXPECT_DOUBLE_EQ(got.cpu_s, 0.025e-3);
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

// A reading of a plan that gave none reads as never ending (the MPI
// layer's rival where some rank has no plan): it is saved as inf and read
// back, and the file stays good for every other choice.
TEST_F(Store, AReadingThatNeverEndsRoundTrips) {
  make().remember("mpi.plan_many_dft_c2r.f64.n64,64,.h1.b0,0.t00.r2@1.bwd.oop.measure", Choice{true, 0.003, HUGE_VAL});
  make().remember("c2c.f64.n1024:1:1,.h.fwd.oop.t1.pageable", Choice{true, 0.001, 0.002});
  make().remember_kernel("gpuway.pageable.c2c.f32.n64:1:1,.h.fwd.oop.t1.pageable", KernelPick{"fp32", 1e-3, HUGE_VAL});
  DispatchStore s = make();
  Choice got;
  ASSERT_TRUE(s.recall("c2c.f64.n1024:1:1,.h.fwd.oop.t1.pageable", &got)) << file();
  ASSERT_TRUE(s.recall("mpi.plan_many_dft_c2r.f64.n64,64,.h1.b0,0.t00.r2@1.bwd.oop.measure", &got)) << file();
  EXPECT_TRUE(std::isinf(got.cpu_s));
  KernelPick pick;
  ASSERT_TRUE(s.recall_kernel("gpuway.pageable.c2c.f32.n64:1:1,.h.fwd.oop.t1.pageable", &pick)) << file();
  EXPECT_TRUE(std::isinf(pick.cufft_s));
  std::ofstream(path_, std::ios::app) << "choice key.nan gpu nan 0.002\n";
  EXPECT_FALSE(make().recall("c2c.f64.n1024:1:1,.h.fwd.oop.t1.pageable", &got)) << "nan read as a reading";
}

// Forgetting takes from the file, at this process's next write, the lines
// it held then; what another process saves after it is kept, and so are
// the MPI layer's keys of the other precision.
TEST_F(Store, ForgettingKeepsWhatOthersSaveLater) {
  DispatchStore a = make();
  a.remember("c2c.f64.n64:1:1,.h.fwd.oop.t1.pageable", Choice{true, 1, 2});
  a.remember("mpi.plan_dft.f64.n64,64,.h1.b0,0.t00.r2@1.fwd.oop.measure", Choice{true, 1, 2});
  a.remember("mpi.plan_dft.f32.n64,64,.h1.b0,0.t00.r2@1.fwd.oop.measure", Choice{true, 1, 2});
  a.forget([](const std::string &k) { return k.find(".f64.") != std::string::npos; });
  make().remember("c2c.f64.n128:1:1,.h.fwd.oop.t1.pageable", Choice{false, 2, 1});
  make().remember("mpi.plan_dft.f64.n64,64,.h1.b0,0.t00.r2@1.fwd.oop.measure", Choice{false, 3, 1});
  a.remember("c2c.f32.n64:1:1,.h.fwd.oop.t1.pageable", Choice{true, 1, 2});
  DispatchStore later = make();
  Choice got;
  EXPECT_TRUE(later.recall("c2c.f64.n128:1:1,.h.fwd.oop.t1.pageable", &got)) << file();
  EXPECT_TRUE(later.recall("c2c.f32.n64:1:1,.h.fwd.oop.t1.pageable", &got)) << file();
  EXPECT_TRUE(later.recall("mpi.plan_dft.f32.n64,64,.h1.b0,0.t00.r2@1.fwd.oop.measure", &got)) << file();
  EXPECT_FALSE(later.recall("c2c.f64.n64:1:1,.h.fwd.oop.t1.pageable", &got)) << file();
  // Saved again by another process after the forgetting: theirs.
  ASSERT_TRUE(later.recall("mpi.plan_dft.f64.n64,64,.h1.b0,0.t00.r2@1.fwd.oop.measure", &got)) << file();
  EXPECT_FALSE(got.gpu);
}

// FFTW_MEASURE's choice of one thread over the program's count is kept
// with the choice, so that later processes plan at one thread too.
TEST_F(Store, AChoicesThreadCountRoundTrips) {
  make().remember("c2c.f32.n256:1:1,.h.fwd.oop.t16.pageable", Choice{false, 0.03e-3, 0.3e-6, false, 1});
  make().remember("c2c.f32.n512:1:1,.h.fwd.oop.t16.pageable", Choice{false, 0.03e-3, 0.3e-6, true, 1});
  make().remember("c2c.f32.n1024:1:1,.h.fwd.oop.t16.pageable", Choice{false, 0.03e-3, 0.3e-6});
  DispatchStore s = make();
  Choice got;
  ASSERT_TRUE(s.recall("c2c.f32.n256:1:1,.h.fwd.oop.t16.pageable", &got));
  EXPECT_EQ(got.threads, 1);
  EXPECT_FALSE(got.estimated);
  ASSERT_TRUE(s.recall("c2c.f32.n512:1:1,.h.fwd.oop.t16.pageable", &got));
  EXPECT_EQ(got.threads, 1);
  EXPECT_TRUE(got.estimated);
  ASSERT_TRUE(s.recall("c2c.f32.n1024:1:1,.h.fwd.oop.t16.pageable", &got));
  EXPECT_EQ(got.threads, 0);
}

TEST_F(Store, AChoiceNotToLastServesThisProcessOnlyUntilOneLasts) {
  const std::string key = "c2c.f64.n64:1:1,.h16384:64:64,.fwd.oop.t16.pageable";
  DispatchStore s = make();
  s.remember("r2c.f32.n64:1:1,.h.oop.t1.pageable", Choice{false, 2, 1});  // so that the file exists
  s.remember(key, Choice{true, 0.478e-3, 0.576e-3}, false);
  Choice got;
  ASSERT_TRUE(s.recall(key, &got));
  EXPECT_TRUE(got.gpu);
  s.remember("r2c.f64.n64:1:1,.h.oop.t1.pageable", Choice{false, 2, 1});  // a later save leaves it out too
  EXPECT_EQ(file().find(key), std::string::npos);
  EXPECT_FALSE(make().recall(key, &got));
  s.remember(key, Choice{false, 0.36e-3, 0.25e-3});
  ASSERT_TRUE(make().recall(key, &got));
  EXPECT_FALSE(got.gpu);
  // A later process's passing choice leaves the stored one in the file, and
  // forgetting forgets it.
  DispatchStore later = make();
  later.remember(key, Choice{true, 0.478e-3, 0.576e-3}, false);
  later.forget([](const std::string &) { return true; });
  EXPECT_FALSE(later.recall(key, &got));
  ASSERT_TRUE(make().recall(key, &got));
  EXPECT_FALSE(got.gpu);
}

TEST_F(Store, UnwritableDirectoryKeepsChoicesInTheProcess) {
  path_ = "/proc/gpufftw-cannot/dispatch.txt";
  DispatchStore s = make();
  s.remember("k", Choice{true, 1, 2});
  Choice got;
  EXPECT_TRUE(s.recall("k", &got));
  EXPECT_TRUE(s.gpu_rates());
}

// The store as untrusted input: only this user's own file in a
// folder no one else can write is read; anything else is measured again.
TEST_F(Store, FoldersItMakesArePrivateAndTheFileItsOwnersAlone) {
  make().gpu_rates();
  struct stat st;
  ASSERT_EQ(stat((dir_ + "/sub").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(lstat(path_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(Store, ALinkInThePlaceOfTheFileIsNeitherTrustedNorFollowed) {
  make().gpu_rates();
  const std::string target = dir_ + "/elsewhere.txt";
  ASSERT_EQ(rename(path_.c_str(), target.c_str()), 0);
  ASSERT_EQ(symlink(target.c_str(), path_.c_str()), 0);
  const std::string before = file();  // through the link: the good file
  testing::internal::CaptureStderr();
  DispatchStore s = make();
  ASSERT_TRUE(s.gpu_rates());
  s.remember("k", Choice{true, 1, 2});
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(gpu_calibrations_, 2) << "a linked file was trusted";
  EXPECT_EQ(count_of(said, "symbolic link"), 1u) << said;
  struct stat st;
  ASSERT_EQ(lstat(path_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode)) << "the save went through the link";
  std::ifstream in(target);
  std::stringstream t;
  t << in.rdbuf();
  EXPECT_EQ(t.str(), before) << "the link's target was written";
}

TEST_F(Store, AFileOthersCanWriteIsNotTrusted) {
  make().gpu_rates();
  ASSERT_EQ(chmod(path_.c_str(), 0666), 0);
  testing::internal::CaptureStderr();
  make().gpu_rates();
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(gpu_calibrations_, 2);
  EXPECT_EQ(count_of(said, "writable by others"), 1u) << said;
  struct stat st;
  ASSERT_EQ(stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u) << "replaced by a file of the store's own";
}

TEST_F(Store, AnotherUsersFileIsNotTrusted) {
  if (geteuid() != 0) GTEST_SKIP() << "giving a file to another user needs root";
  make().gpu_rates();
  ASSERT_EQ(chown(path_.c_str(), 65534, 65534), 0);
  testing::internal::CaptureStderr();
  make().gpu_rates();
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(gpu_calibrations_, 2);
  EXPECT_EQ(count_of(said, "owned by another user"), 1u) << said;
}

TEST_F(Store, AFifoInThePlaceOfTheFileIsIgnoredWithoutWaiting) {
  ASSERT_EQ(mkdir((dir_ + "/sub").c_str(), 0700), 0);
  ASSERT_EQ(mkfifo(path_.c_str(), 0600), 0);
  testing::internal::CaptureStderr();
  ASSERT_TRUE(make().gpu_rates());
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(said, "not a regular file"), 1u) << said;
}

TEST_F(Store, AFolderOthersCanWriteIsNeitherReadNorWritten) {
  make().gpu_rates();
  const std::string before = file();
  ASSERT_EQ(chmod((dir_ + "/sub").c_str(), 0777), 0);
  testing::internal::CaptureStderr();
  DispatchStore s = make();
  ASSERT_TRUE(s.gpu_rates());
  s.remember("k", Choice{true, 1, 2});
  s.remember("k2", Choice{false, 2, 1});
  Choice got;
  EXPECT_TRUE(s.recall("k", &got)) << "choices last for the process";
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(gpu_calibrations_, 2);
  EXPECT_EQ(count_of(said, "writable by others"), 1u) << said;
  EXPECT_EQ(file(), before) << "written into a folder others can write";
}

// The folder's warning reads as a sentence whatever is wrong with it: a
// file where a folder above it should be, or the folder itself a file.
TEST_F(Store, AFolderThatIsNoFolderIsToldInASentence) {
  std::ofstream(dir_ + "/a-file") << "not a folder\n";
  for (const auto &[dir, why] : std::vector<std::pair<std::string, std::string>>{
           {dir_ + "/a-file/sub", "unreadable (stat: Not a directory)"}, {dir_ + "/a-file", "not a directory"}}) {
    path_ = dir + "/dispatch.txt";
    testing::internal::CaptureStderr();
    DispatchStore s = make();
    ASSERT_TRUE(s.gpu_rates());
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_EQ(said, "gpufftw: the folder " + dir + " of the dispatch store is " + why +
                        ", so it is neither read nor written: dispatch choices are measured again and kept in this "
                        "process\n");
  }
}

TEST_F(Store, ACorruptFileGetsOneWarning) {
  make().gpu_rates();
  {
    std::ofstream out(path_, std::ios::app);
    out << "choice broken\n";
  }
  testing::internal::CaptureStderr();
  DispatchStore s = make();
  s.gpu_rates();
  s.remember("k", Choice{true, 1, 2});
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(said, "is corrupt"), 1u) << said;
  EXPECT_EQ(gpu_calibrations_, 2);
}

TEST_F(Store, AFileThatIsNoStoreIsToldAtTheCheckWithoutNamingTheMachine) {
  ASSERT_NO_FATAL_FAILURE(write_store("junk\nmore junk\n"));
  testing::internal::CaptureStderr();
  DispatchStore s = make();
  s.check();
  s.check();
  const std::string checked = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(checked, path_ + " is not a gpufftw dispatch store (its first line: \"junk\"), so it is ignored and replaced"), 1u)
      << checked;
  EXPECT_EQ(machine_asked_, 0) << "naming the machine may start CUDA";
  testing::internal::CaptureStderr();
  ASSERT_TRUE(s.gpu_rates());
  const std::string later = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(later, "not a gpufftw dispatch store"), 0u) << "told twice: " << later;
  EXPECT_EQ(gpu_calibrations_, 1);
  EXPECT_EQ(file().find("gpufftw dispatch store "), 0u) << "not rewritten: " << file();
}

TEST_F(Store, AnotherVersionsFileIsCalibratedAgainWithoutAWarning) {
  ASSERT_NO_FATAL_FAILURE(write_store("gpufftw dispatch store 1\nmachine an older one\na line of its own kind\n"));
  testing::internal::CaptureStderr();
  DispatchStore s = make();
  s.check();
  ASSERT_TRUE(s.gpu_rates());
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(said, "");
  EXPECT_EQ(gpu_calibrations_, 1);
}

// A store of version 11, whose GPU table has no rates for the engine, is
// calibrated again, and rewritten at this version.
TEST_F(Store, AVersion11FileIsCalibratedAgain) {
  std::istringstream words(format(gpu_rates()));
  std::vector<std::string> line{std::istream_iterator<std::string>(words), {}};
  line.erase(line.begin() + 2, line.begin() + 5);  // after "gpu" and the readings, the rates
  std::string v11;
  for (const std::string &w : line) v11 += (v11.empty() ? "" : " ") + w;
  ASSERT_NO_FATAL_FAILURE(write_store("gpufftw dispatch store 11\nmachine test machine\n" + v11 + "\n"));
  DispatchStore s = make();
  ASSERT_TRUE(s.gpu_rates());
  EXPECT_EQ(gpu_calibrations_, 1);
  EXPECT_EQ(file().find("gpufftw dispatch store 13\n"), 0u) << file();
}

// A store of version 12 held one machine's lines: read as another
// version's, calibrated again, and rewritten in sections.
TEST_F(Store, AVersion12FileIsCalibratedAgainAndRewritten) {
  const std::string key = "c2c.f32.n64:1:1,.h.fwd.oop.t1.pageable";
  ASSERT_NO_FATAL_FAILURE(write_store("gpufftw dispatch store 12\nmachine test machine\n" + format(gpu_rates()) +
                                      "\nchoice " + key + " gpu 1 2\n"));
  DispatchStore s = make();
  Choice got;
  EXPECT_FALSE(s.recall(key, &got)) << "a version 12 file read";
  ASSERT_TRUE(s.gpu_rates());
  EXPECT_EQ(gpu_calibrations_, 1);
  EXPECT_EQ(file().find("gpufftw dispatch store 13\nmachine test machine\n"), 0u) << file();
  make("another machine").remember(key, Choice{false, 2, 1});
  EXPECT_NE(section(file(), "test machine"), "") << file();
}

TEST_F(Store, ANoticeTellsOnceThatCalibrationStartsAndOnceThatItEnded) {
  DispatchStore s = make();
  testing::internal::CaptureStderr();
  {
    const CalibrationNotice plan;
    s.gpu_rates();
    {
      const CalibrationNotice inner;
      s.cpu_rates(Precision::F32, 4);
    }
    s.cpu_rates(Precision::F32, 1);
  }
  {
    const CalibrationNotice next_plan;  // everything calibrated: nothing to tell
    s.gpu_rates();
    s.cpu_rates(Precision::F32, 4);
  }
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(gpu_calibrations_, 1);
  EXPECT_EQ(cpu_calibrations_, 2);
  EXPECT_EQ(count_of(said, "\n"), 2u) << said;
  EXPECT_EQ(said.find("gpufftw: calibrating the cost model for this machine (once per machine, for seconds; kept in " +
                      path_ + ")\ngpufftw: calibrated in "),
            0u)
      << said;
  EXPECT_NE(said.find(" s; later runs on this machine read it from " + path_ + "\n"), std::string::npos) << said;
}

// A save that failed where no plan's notice was held (a calibration
// outside a plan) is not told by the next plan's notice as its own.
TEST_F(Store, ASaveThatFailedOutsideANoticeLeavesTheNextNoticeAlone) {
  const std::string good = path_;
  path_ = "/proc/gpufftw-cannot/dispatch.txt";
  make().gpu_rates();
  path_ = good;
  DispatchStore s = make();
  testing::internal::CaptureStderr();
  {
    const CalibrationNotice plan;
    s.gpu_rates();
  }
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find(" s; later runs on this machine read it from " + path_ + "\n"), std::string::npos) << said;
  EXPECT_EQ(said.find("could not be saved"), std::string::npos) << said;
}

TEST_F(Store, ANoticeOfACalibrationThatFailedSaysSo) {
  DispatchStore::Calibrators failing;
  failing.gpu = [](GpuRates *, std::string *why) {
    *why = "no GPU in this test";
    return false;
  };
  DispatchStore s(path_, [] { return std::string("test machine"); }, failing);
  testing::internal::CaptureStderr();
  {
    const CalibrationNotice plan;
    EXPECT_FALSE(s.gpu_rates());
  }
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(said, "gpufftw: calibrating the cost model"), 1u) << said;
  EXPECT_EQ(count_of(said, "the GPU could not be calibrated (no GPU in this test)"), 1u) << said;
  EXPECT_EQ(count_of(said, "calibrated in"), 0u) << said;
  EXPECT_EQ(count_of(said, "with nothing to keep (the warning above says why)"), 1u) << said;
}

// A calibration the store cannot save (a full disk, a quota, here a
// folder in the file's place) is taken again by every later process: the
// notice must not say that later runs read it, and why it was not saved is
// a warning, once.
TEST_F(Store, ACalibrationThatCannotBeSavedIsNotSaidToBeKept) {
  ASSERT_EQ(mkdir((dir_ + "/sub").c_str(), 0700), 0);
  ASSERT_EQ(mkdir(path_.c_str(), 0700), 0);
  DispatchStore s = make();
  testing::internal::CaptureStderr();
  {
    const CalibrationNotice plan;
    ASSERT_TRUE(s.gpu_rates());
    s.cpu_rates(Precision::F32, 1);
    s.remember("k", Choice{true, 1, 2});
  }
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(said, "later runs on this machine read it from"), 0u) << said;
  EXPECT_EQ(count_of(said, "gpufftw: cannot replace " + path_ + " (Is a directory): dispatch choices and calibration "
                           "stay in this process\n"),
            1u)
      << said;
  EXPECT_EQ(count_of(said, " s, but it could not be saved (the warning above says why): later runs calibrate again\n"),
            1u)
      << said;
  Choice got;
  EXPECT_TRUE(s.recall("k", &got)) << "kept for the process";
  EXPECT_TRUE(std::filesystem::is_directory(path_));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_ + "/sub"), {}), 2) << "a temporary left behind";
}

TEST(StorePath, ARelativeCacheDirIsWarnedAboutAndTheDefaultUsed) {
  setenv("GPUFFTW_CACHE_DIR", "relative/dir", 1);
  setenv("XDG_CACHE_HOME", "/c", 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(dispatch_store_path(), "/c/gpufftw/dispatch.txt");
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("GPUFFTW_CACHE_DIR=relative/dir is not an absolute path; using the default"), std::string::npos)
      << said;
  unsetenv("GPUFFTW_CACHE_DIR");
  unsetenv("XDG_CACHE_HOME");
}

// A folder named in GPUFFTW_CACHE_DIR that cannot be made, or is no
// folder, is told at once (the store is otherwise first written by a GPU's
// plan: never, on a machine without one).
TEST(StorePath, ACacheDirThatCannotBeMadeOrWrittenIsWarnedAboutAndTheDefaultUsed) {
  const TempDir temp("cache");
  const std::string file = temp.path() + "/a-file";
  std::ofstream(file) << "not a folder\n";
  setenv("XDG_CACHE_HOME", "/c", 1);
  for (const auto &[dir, why] : std::vector<std::pair<std::string, std::string>>{
           {"/proc/gpufftw-cannot-be-made", "mkdir /proc/gpufftw-cannot-be-made: "}, {file, "not a directory"}}) {
    setenv("GPUFFTW_CACHE_DIR", dir.c_str(), 1);
    testing::internal::CaptureStderr();
    EXPECT_EQ(dispatch_store_path(), "/c/gpufftw/dispatch.txt") << dir;
    const std::string said = testing::internal::GetCapturedStderr();
    EXPECT_NE(said.find("gpufftw: GPUFFTW_CACHE_DIR=" + dir + " is not a folder gpufftw can write (" + why), std::string::npos)
        << said;
    EXPECT_NE(said.find("; using the default ($XDG_CACHE_HOME/gpufftw or ~/.cache/gpufftw)\n"), std::string::npos) << said;
  }
  unsetenv("GPUFFTW_CACHE_DIR");
  unsetenv("XDG_CACHE_HOME");
}

// A default folder that cannot be made (an unwritable HOME, or the default
// a bad GPUFFTW_CACHE_DIR falls back to) is said once, with the reason,
// and nothing is made where it can be.
TEST(StorePath, ADefaultThatCannotBeMadeIsSaidOnce) {
  const TempDir temp("cache");
  const std::string file = temp.path() + "/a-file";
  std::ofstream(file) << "not a folder\n";
  unsetenv("GPUFFTW_CACHE_DIR");
  unsetenv("XDG_CACHE_HOME");
  const char *home = std::getenv("HOME");
  const std::string kept_home = home ? home : "";
  setenv("HOME", file.c_str(), 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(dispatch_store_path(), file + "/.cache/gpufftw/dispatch.txt");
  EXPECT_EQ(dispatch_store_path(), file + "/.cache/gpufftw/dispatch.txt");
  std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(said, "gpufftw: the cache folder " + file + "/.cache/gpufftw cannot be made (" + file +
                               ": Not a directory); measured choices stay in this process\n"),
            1u)
      << said;
  setenv("GPUFFTW_CACHE_DIR", "relative/too", 1);
  setenv("XDG_CACHE_HOME", (file + "/xdg").c_str(), 1);
  testing::internal::CaptureStderr();
  dispatch_store_path();
  said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(said, "GPUFFTW_CACHE_DIR=relative/too is not an absolute path"), 1u) << said;
  EXPECT_EQ(count_of(said, "gpufftw: the cache folder " + file + "/xdg/gpufftw cannot be made"), 1u) << said;
  const std::string fine = temp.path() + "/home";
  setenv("XDG_CACHE_HOME", fine.c_str(), 1);
  unsetenv("GPUFFTW_CACHE_DIR");
  testing::internal::CaptureStderr();
  EXPECT_EQ(dispatch_store_path(), fine + "/gpufftw/dispatch.txt");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_FALSE(std::filesystem::exists(fine)) << "only the store's first save makes the default folder";
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", kept_home.c_str(), 1);
}

// A relative XDG_CACHE_HOME (which the XDG specification has ignored) or
// HOME names no one folder: each working directory would have a store of
// its own, and a program that changes directory would lose its choices.
TEST(StorePath, ARelativeXdgCacheHomeOrHomeIsIgnored) {
  const TempDir temp("cache");
  const char *home = std::getenv("HOME");
  const std::string kept_home = home ? home : "";
  unsetenv("GPUFFTW_CACHE_DIR");
  setenv("HOME", temp.path().c_str(), 1);
  setenv("XDG_CACHE_HOME", "relative/cache", 1);
  EXPECT_EQ(dispatch_store_path(), temp.path() + "/.cache/gpufftw/dispatch.txt");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "relative-home", 1);
  EXPECT_EQ(dispatch_store_path(), "/tmp/gpufftw-" + std::to_string(getuid()) + "/dispatch.txt");
  setenv("HOME", kept_home.c_str(), 1);
}

TEST(StorePath, FollowsTheEnvironment) {
  const TempDir temp("cache");
  const std::string dir = temp.path() + "/x/y";
  setenv("GPUFFTW_CACHE_DIR", dir.c_str(), 1);
  EXPECT_EQ(dispatch_store_path(), dir + "/dispatch.txt");
  struct stat st;
  ASSERT_EQ(stat(dir.c_str(), &st), 0) << "the folder named is made at once";
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  unsetenv("GPUFFTW_CACHE_DIR");
  setenv("XDG_CACHE_HOME", "/c", 1);
  EXPECT_EQ(dispatch_store_path(), "/c/gpufftw/dispatch.txt");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/h", 1);
  EXPECT_EQ(dispatch_store_path(), "/h/.cache/gpufftw/dispatch.txt");
}

}  // namespace
}  // namespace gpufftw
