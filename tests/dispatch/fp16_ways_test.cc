// GPUFFTW_PRECISION=fp16's ways (dispatch/fp16_ways.h) without a GPU:
// which ways take which sizes, and the model's prices on the rates of a
// host whose pinned DMA outruns its conversion of floats to halves. The
// choice between them, as candidates of the planner, is
// fp16_candidates_test.cc's.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dispatch/fp16_ways.h"

namespace gpufftw {
namespace {

Problem problem(Kind kind, std::vector<int64_t> n, int64_t batch) {
  Problem p;
  p.kind = kind;
  p.precision = Precision::F32;
  int64_t stride = 1;
  for (size_t k = n.size(); k-- > 0;) {
    p.dims.insert(p.dims.begin(), Dim{n[k], stride, stride});
    stride *= n[k];
  }
  if (batch > 1) p.howmany.push_back({batch, stride, stride});
  return p;
}

// A host of that kind: the single-precision path end to end faster on
// pinned arrays than the host converts floats, and far slower on pageable
// ones; a device copy two orders faster than either.
HalfRates fast_link_host() {
  HalfRates r;
  r.pinned = 87e9;
  r.pageable = 35e9;
  r.convert = 60e9;
  r.device = 2.7e12;
  return r;
}

// The model's cheapest way offered.
Fp16Way cheapest(const std::vector<WayPrice> &prices) {
  const WayPrice *best = nullptr;
  for (const WayPrice &w : prices)
    if (w.offered && (!best || w.seconds < best->seconds)) best = &w;
  return best ? best->way : Fp16Way::Single;
}

const WayPrice &price_of(const std::vector<WayPrice> &prices, Fp16Way w) {
  for (const WayPrice &p : prices)
    if (p.way == w) return p;
  static const WayPrice none;
  return none;
}

TEST(Fp16Ways, TagsRoundTrip) {
  for (Fp16Way w : kFp16Ways) {
    Fp16Way back = Fp16Way::Single;
    ASSERT_TRUE(parse_way(way_tag(w), &back)) << way_tag(w);
    EXPECT_EQ(back, w);
  }
  Fp16Way w;
  EXPECT_FALSE(parse_way("auto", &w));
  EXPECT_FALSE(parse_way("", &w));
}

TEST(Fp16Ways, EachWayTakesItsSizes) {
  const HalfRates r = fast_link_host();
  auto offered = [&](const Problem &p, Fp16Way w) { return price_of(price_ways(p, ArraysAt::Pageable, r), w).offered; };
  const Problem c2c = problem(Kind::C2C, {1024}, 64), small = problem(Kind::C2C, {128}, 64),
                odd = problem(Kind::C2C, {1000}, 64), r2c = problem(Kind::R2C, {256, 256}, 2),
                c2r = problem(Kind::C2R, {64, 64, 64}, 1), r2c_odd = problem(Kind::R2C, {1000}, 8),
                big = problem(Kind::C2C, {8192}, 4), rank4 = problem(Kind::C2C, {256, 256, 256, 256}, 1);
  EXPECT_TRUE(offered(c2c, Fp16Way::Ours));
  EXPECT_FALSE(offered(small, Fp16Way::Ours));
  EXPECT_FALSE(offered(big, Fp16Way::Ours));
  EXPECT_FALSE(offered(rank4, Fp16Way::Ours));
  EXPECT_TRUE(offered(r2c, Fp16Way::Ours));
  EXPECT_FALSE(offered(problem(Kind::C2R, {256, 256}, 2), Fp16Way::Ours));
  EXPECT_EQ(price_of(price_ways(problem(Kind::C2R, {256, 256}, 2), ArraysAt::Pageable, r), Fp16Way::Ours).why_not,
            "our kernels take c2c and r2c only");
  EXPECT_TRUE(offered(small, Fp16Way::CufftHalf));
  EXPECT_TRUE(offered(r2c, Fp16Way::CufftHalf));
  EXPECT_TRUE(offered(c2r, Fp16Way::CufftHalf));
  EXPECT_FALSE(offered(odd, Fp16Way::CufftHalf));
  EXPECT_FALSE(offered(r2c_odd, Fp16Way::CufftHalf));
  EXPECT_TRUE(offered(odd, Fp16Way::SingleOnHalves));
  for (const Problem *p : {&c2c, &small, &odd, &r2c, &c2r, &r2c_odd, &big, &rank4}) {
    EXPECT_TRUE(offered(*p, Fp16Way::SingleOnHalves));
    EXPECT_TRUE(offered(*p, Fp16Way::Single));
  }
  EXPECT_EQ(price_of(price_ways(r2c_odd, ArraysAt::Pageable, r), Fp16Way::CufftHalf).why_not,
            "cuFFT's FP16 takes powers of two only");
}

// The prices by hand for one problem: 1024 x 16384 c2c, 128 MiB each way.
TEST(Fp16Ways, PricesAreTheModelsArithmetic) {
  const HalfRates r = fast_link_host();
  const Problem p = problem(Kind::C2C, {1024}, 16384);
  const double floats = 2.0 * 1024 * 16384 * 8;
  const DeviceFactors f;
  const std::vector<WayPrice> host = price_ways(p, ArraysAt::Pageable, r);
  EXPECT_DOUBLE_EQ(price_of(host, Fp16Way::Single).seconds, floats / r.device + floats / r.pageable);
  // The conversion (60 GB/s of floats) is slower than the DMA of the
  // halves (87 GB/s of bytes, half of them): it sets the pace.
  EXPECT_DOUBLE_EQ(price_of(host, Fp16Way::CufftHalf).seconds,
                   f.cufft_half[0] * floats / 2 / r.device + floats / r.convert);
  EXPECT_DOUBLE_EQ(price_of(host, Fp16Way::Ours).seconds, f.ours[0] * floats / 2 / r.device + floats / r.convert);
  EXPECT_DOUBLE_EQ(price_of(host, Fp16Way::SingleOnHalves).seconds,
                   (f.single[0] + 1.5) * floats / r.device + floats / r.convert);
  const std::vector<WayPrice> pinned = price_ways(p, ArraysAt::Pinned, r);
  EXPECT_DOUBLE_EQ(price_of(pinned, Fp16Way::Single).seconds, floats / r.device + floats / r.pinned);
  // A host converting faster than the bus carries halves: the bus sets it.
  HalfRates fast = r;
  fast.convert = 400e9;
  EXPECT_DOUBLE_EQ(price_of(price_ways(p, ArraysAt::Pinned, fast), Fp16Way::CufftHalf).seconds,
                   f.cufft_half[0] * floats / 2 / r.device + floats / 2 / r.pinned);
  const std::vector<WayPrice> device = price_ways(p, ArraysAt::Device, r);
  EXPECT_DOUBLE_EQ(price_of(device, Fp16Way::Single).seconds, floats / r.device);
  EXPECT_DOUBLE_EQ(price_of(device, Fp16Way::CufftHalf).seconds,
                   f.cufft_half[0] * floats / 2 / r.device + 1.5 * floats / r.device);
  // r2c: the bytes of a real side and of n/2 + 1 complex numbers.
  const Problem real = problem(Kind::R2C, {256, 256, 256}, 1);
  const double real_floats = 256.0 * 256 * 256 * 4 + 256.0 * 256 * 129 * 8;
  EXPECT_DOUBLE_EQ(price_of(price_ways(real, ArraysAt::Device, r), Fp16Way::Single).seconds,
                   f.single[2] * real_floats / r.device);
  // Our r2c: the same halves over the bus, the passes those of the c2c of
  // the reals (16 bytes a point, both sides) and a copy of its halves.
  const double complex_floats = 16.0 * 256 * 256 * 256;
  EXPECT_DOUBLE_EQ(price_of(price_ways(real, ArraysAt::Pageable, r), Fp16Way::Ours).seconds,
                   (f.ours[2] + 1) * complex_floats / 2 / r.device + real_floats / r.convert);
}

// What the model picks on such a host's rates: halves on pageable host
// arrays (cuFFT's FP16 for 1-D batches, ours for 2-D c2c, single precision
// on halves for a 2-D r2c, whose passes in cuFFT's FP16 cost more than
// the conversions around f32's), single precision
// where the host's conversion is slower than the DMA of floats (pinned)
// and on device arrays (the conversions there cost more than halving the
// passes saves).
TEST(Fp16Ways, TheModelPicksByTheHostsRates) {
  const HalfRates r = fast_link_host();
  EXPECT_EQ(cheapest(price_ways(problem(Kind::C2C, {1024}, 16384), ArraysAt::Pageable, r)), Fp16Way::CufftHalf);
  EXPECT_EQ(cheapest(price_ways(problem(Kind::C2C, {256}, 65536), ArraysAt::Pageable, r)), Fp16Way::CufftHalf);
  EXPECT_EQ(cheapest(price_ways(problem(Kind::C2C, {4096, 4096}, 1), ArraysAt::Pageable, r)), Fp16Way::Ours);
  EXPECT_EQ(cheapest(price_ways(problem(Kind::R2C, {4096, 4096}, 1), ArraysAt::Pageable, r)),
            Fp16Way::SingleOnHalves);
  EXPECT_EQ(cheapest(price_ways(problem(Kind::R2C, {1024}, 16384), ArraysAt::Pageable, r)), Fp16Way::CufftHalf);
  EXPECT_EQ(cheapest(price_ways(problem(Kind::C2C, {1000}, 16384), ArraysAt::Pageable, r)), Fp16Way::SingleOnHalves);
  EXPECT_EQ(cheapest(price_ways(problem(Kind::C2C, {4096}, 4096), ArraysAt::Pinned, r)), Fp16Way::Single);
  EXPECT_EQ(cheapest(price_ways(problem(Kind::C2C, {1024}, 16384), ArraysAt::Device, r)), Fp16Way::Single);
  EXPECT_EQ(cheapest(price_ways(problem(Kind::C2C, {512, 512, 512}, 1), ArraysAt::Device, r)), Fp16Way::Single);
  // A host that converts three times the pinned rate: halves on pinned
  // arrays too.
  HalfRates fast = r;
  fast.convert = 3 * r.pinned;
  EXPECT_EQ(cheapest(price_ways(problem(Kind::C2C, {4096}, 4096), ArraysAt::Pinned, fast)), Fp16Way::CufftHalf);
}

// Over the set: a way that spreads costs one GPU's price over the split's
// gain; a way that computes in half spreads on a batch only, so on one
// transform it is not offered where the plan must spread and costs one
// GPU's price where the engine places it; device arrays stay on their GPU.
TEST(Fp16Ways, OverTheSetTheWaysThatSpreadDivideByTheGain) {
  const HalfRates r = fast_link_host();
  const OverGpus set{1.6, true}, placed{1.6, false};
  const Problem batch = problem(Kind::C2C, {1024}, 16384), single = problem(Kind::C2C, {4096, 4096}, 1);
  for (const OverGpus &over : {set, placed}) {
    const std::vector<WayPrice> one = price_ways(batch, ArraysAt::Pageable, r),
                                spread = price_ways(batch, ArraysAt::Pageable, r, over);
    for (Fp16Way w : kFp16Ways) {
      EXPECT_TRUE(price_of(spread, w).offered) << way_tag(w);
      EXPECT_DOUBLE_EQ(price_of(spread, w).seconds, price_of(one, w).seconds / 1.6) << way_tag(w);
    }
    EXPECT_EQ(cheapest(spread), cheapest(one));
  }
  // One 2-D transform: its slabs spread single precision on halves too;
  // the ways that compute in half stay on one GPU.
  const std::vector<WayPrice> one = price_ways(single, ArraysAt::Pageable, r),
                              must = price_ways(single, ArraysAt::Pageable, r, set),
                              may = price_ways(single, ArraysAt::Pageable, r, placed);
  for (Fp16Way w : {Fp16Way::Ours, Fp16Way::CufftHalf}) {
    EXPECT_FALSE(price_of(must, w).offered) << way_tag(w);
    EXPECT_EQ(price_of(must, w).why_not, "over the GPUs, one transform splits in half as single precision on halves");
    EXPECT_TRUE(price_of(may, w).offered) << way_tag(w);
    EXPECT_DOUBLE_EQ(price_of(may, w).seconds, price_of(one, w).seconds) << way_tag(w);
  }
  for (Fp16Way w : {Fp16Way::Single, Fp16Way::SingleOnHalves}) {
    EXPECT_DOUBLE_EQ(price_of(must, w).seconds, price_of(one, w).seconds / 1.6) << way_tag(w);
    EXPECT_DOUBLE_EQ(price_of(may, w).seconds, price_of(one, w).seconds / 1.6) << way_tag(w);
  }
  // On pageable arrays the halves pay over the set as on one GPU.
  EXPECT_EQ(cheapest(must), Fp16Way::SingleOnHalves);
  // On one GPU, ours; where the split gains, the engine's placement takes
  // the halves over the set.
  EXPECT_EQ(cheapest(one), Fp16Way::Ours);
  EXPECT_EQ(cheapest(may), Fp16Way::SingleOnHalves);
  // The slab split takes an out-of-place r2c, but no c2r and no in-place
  // r2c: there single precision on halves does not spread either.
  float real[1], spectrum[2];
  Problem r2c = problem(Kind::R2C, {4096, 4096}, 1), r2c_in = r2c, c2r = problem(Kind::C2R, {4096, 4096}, 1);
  r2c.in[0] = real, r2c.out[0] = spectrum;
  r2c_in.in[0] = r2c_in.out[0] = real;
  c2r.in[0] = spectrum, c2r.out[0] = real;
  EXPECT_TRUE(price_of(price_ways(r2c, ArraysAt::Pageable, r, set), Fp16Way::SingleOnHalves).offered);
  for (const Problem *q : {&r2c_in, &c2r}) {
    const WayPrice halves = price_of(price_ways(*q, ArraysAt::Pageable, r, set), Fp16Way::SingleOnHalves);
    EXPECT_FALSE(halves.offered);
    EXPECT_EQ(halves.why_not, "over the GPUs, one c2r or in-place r2c transform does not split");
    EXPECT_TRUE(price_of(price_ways(*q, ArraysAt::Pageable, r, placed), Fp16Way::SingleOnHalves).offered);
  }
  // One 1-D transform spreads in f32 alone.
  const Problem line = problem(Kind::C2C, {1 << 24}, 1);
  const std::vector<WayPrice> line_set = price_ways(line, ArraysAt::Pageable, r, set);
  for (Fp16Way w : {Fp16Way::Ours, Fp16Way::CufftHalf, Fp16Way::SingleOnHalves})
    if (price_of(price_ways(line, ArraysAt::Pageable, r), w).offered) {
      EXPECT_EQ(price_of(line_set, w).why_not, "over the GPUs, one 1-D transform's split stages floats") << way_tag(w);
    }
  EXPECT_TRUE(price_of(line_set, Fp16Way::Single).offered);
  // Device arrays: the split transforms them whole on their GPU.
  const std::vector<WayPrice> device = price_ways(batch, ArraysAt::Device, r),
                              device_set = price_ways(batch, ArraysAt::Device, r, set);
  for (Fp16Way w : kFp16Ways)
    EXPECT_DOUBLE_EQ(price_of(device_set, w).seconds, price_of(device, w).seconds) << way_tag(w);
}

// The gain from the tables: one GPU's time over the set's where the set's
// table has a cell as large as the problem.
TEST(Fp16Ways, TheGainIsTheTablesOneGpuOverTheSet) {
  GpuRates g;
  for (int pinned = 0; pinned < 2; ++pinned)
    for (int batched = 0; batched < 2; ++batched)
      for (int k = 0; k < GpuRates::kSizes; ++k) {
        g.seconds[pinned][batched][k] = (pinned ? 1.0 : 2.0) * std::exp2(GpuRates::kLog2[k] - 20);
        // The split takes the three largest cells: 1.5x pinned, 1.25x pageable.
        if (k >= GpuRates::kSizes - 3) g.set_seconds[pinned][batched][k] = g.seconds[pinned][batched][k] / (pinned ? 1.5 : 1.25);
      }
  const Problem big = problem(Kind::C2C, {1024}, 16384), small = problem(Kind::C2C, {1024}, 16);
  EXPECT_NEAR(over_gpus(big, true, Spread::Set, &g).gain, 1.5, 1e-9);
  EXPECT_NEAR(over_gpus(big, false, Spread::Auto, &g).gain, 1.25, 1e-9);
  EXPECT_TRUE(over_gpus(big, true, Spread::Set, &g).only);
  EXPECT_FALSE(over_gpus(big, true, Spread::Auto, &g).only);
  EXPECT_EQ(over_gpus(big, true, Spread::One, &g).gain, 1.0);
  EXPECT_FALSE(over_gpus(big, true, Spread::One, &g).only);
  // Under the set's smallest cell, and without tables: no gain.
  EXPECT_EQ(over_gpus(small, true, Spread::Auto, &g).gain, 1.0);
  EXPECT_EQ(over_gpus(big, true, Spread::Set, nullptr).gain, 1.0);
  EXPECT_TRUE(over_gpus(big, true, Spread::Set, nullptr).only);
}

}  // namespace
}  // namespace gpufftw
