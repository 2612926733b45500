// The split's three shapes over the device set (engine/multi/split_shapes.h),
// on the CPU: which geometries each takes and why not the others, that no
// geometry suits two, their prices against each other, and the planner's
// choice among them, their suits and prices real and their makes stand-ins
// for the CUDA jobs.
#include "engine/multi/split_shapes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/plan/planner.h"
#include "fake_job.h"

namespace gpufftw::engine {
namespace {

// A dense row-major transform of `dims`, `count` of them where count > 0.
Geometry dense(std::vector<long long> dims, long long count = 0, Type type = Type::C2C) {
  Geometry g;
  g.type = type;
  long long stride = 1;
  for (size_t i = dims.size(); i-- > 0; stride *= dims[i]) g.dims.insert(g.dims.begin(), Axis{dims[i], stride, stride});
  if (type == Type::R2C || type == Type::C2R) {
    // r2c's output (c2r's input) holds n/2 + 1 of the last dim; its other
    // strides follow.
    const long long half = dims.back() / 2 + 1;
    long long cstride = 1;
    for (size_t i = dims.size(); i-- > 0; cstride *= i + 1 == dims.size() ? half : dims[i])
      (type == Type::R2C ? g.dims[i].os : g.dims[i].is) = cstride;
  }
  if (count > 0) g.loops = {{count, g.dims[0].n * g.dims[0].is, g.dims[0].n * g.dims[0].os}};
  return g;
}

const Geometry kBatch1d = dense({1024}, 4096);        // 64 MiB in and out
const Geometry kSingle3d = dense({256, 256, 256});    // 256 MiB
const Geometry kSingle2d = dense({4096, 4096});       // 256 MiB
const Geometry kHuge1d = dense({1LL << 24});          // 256 MiB
const std::vector<int> kTwo = {0, 1};

struct Shape {
  const char *name;
  bool (*suits)(const Geometry &, const std::vector<int> &, Reason *);
  Price (*cost)(const Geometry &, const std::vector<int> &);
};
const Shape kShapes[] = {{"batch split", batch_split_suits, batch_split_cost},
                         {"slab split", slab_split_suits, slab_split_cost},
                         {"line split", line_split_suits, line_split_cost}};

// Each shape's answer: its name where it takes g, else its reason.
std::vector<std::string> answers(const Geometry &g, const std::vector<int> &set = kTwo) {
  std::vector<std::string> said;
  for (const Shape &s : kShapes) {
    Reason why;
    const bool takes = s.suits(g, set, &why);
    if (!takes) {
      EXPECT_EQ(why.code, Reason::Code::NotItsKind) << why.text;
    }
    said.push_back(takes ? s.name : why.text);
  }
  return said;
}

using Said = std::vector<std::string>;

TEST(SplitShapes, EachTypicalGeometryIsOneShapes) {
  EXPECT_EQ(answers(kBatch1d), (Said{"batch split", "slabs: a batch", "1-D: a batch"}));
  EXPECT_EQ(answers(kSingle3d), (Said{"batch: no loop", "slab split", "1-D: rank 3"}));
  EXPECT_EQ(answers(kSingle2d), (Said{"batch: no loop", "slab split", "1-D: rank 2"}));
  EXPECT_EQ(answers(kHuge1d), (Said{"batch: no loop", "slabs: rank 1", "line split"}));
  EXPECT_EQ(answers(dense({4096}, 0, Type::R2C)), (Said{"batch: no loop", "slabs: rank 1", "1-D: c2c only"}));
}

TEST(SplitShapes, NoneOnOneGpu) {
  for (const Geometry &g : {kBatch1d, kSingle3d, kHuge1d})
    EXPECT_EQ(answers(g, {3}), (Said(3, "one GPU in the set")));
}

// Each GPU's share of a batch is a half job; one 2-D or 3-D c2c or
// out-of-place r2c splits in half as single precision on halves (the
// slabs carry halves and compute in floats), no other way in half; the 1-D
// split stages floats.
TEST(SplitShapes, HalfPrecisionSplitsBatchesAndSlabsOfSingleOnHalves) {
  Geometry batch = kBatch1d, plane = kSingle2d, line = kHuge1d, real = dense({4096, 4096}, 0, Type::R2C);
  for (Geometry *g : {&batch, &plane, &line, &real}) g->half = true;
  for (HalfWay way : {HalfWay::Ours, HalfWay::CufftHalf}) {
    batch.half_way = plane.half_way = real.half_way = way;
    EXPECT_EQ(answers(batch)[0], "batch split");
    EXPECT_EQ(answers(plane), (Said{"batch: no loop", "slabs in half: single precision on halves only",
                                    "1-D: rank 2"}));
    EXPECT_EQ(answers(real)[1], "slabs in half: single precision on halves only");
  }
  plane.half_way = line.half_way = real.half_way = HalfWay::SingleOnHalves;
  EXPECT_EQ(answers(plane), (Said{"batch: no loop", "slab split", "1-D: rank 2"}));
  EXPECT_EQ(answers(real)[1], "slab split");
  EXPECT_EQ(answers(line), (Said{"batch: no loop", "slabs: rank 1", "1-D in half: its split stages floats"}));
}

// plan_many's howmany = 1 leaves a single transform single.
TEST(SplitShapes, ALoopOfOneIsNoBatch) {
  Geometry g = kSingle3d;
  g.loops = {{1, 1 << 24, 1 << 24}};
  EXPECT_EQ(answers(g), (Said{"batch: no loop", "slab split", "1-D: rank 3"}));
  Geometry b = kBatch1d;
  b.loops.push_back({1, 0, 0});
  EXPECT_EQ(answers(b)[0], "batch split");
}

TEST(SplitShapes, TheBatchsOwnConditions) {
  EXPECT_EQ(answers(dense({1024}, 256))[0], "batch: under 8 MiB");
  // Iteration j at j, its elements 4096 apart: the shares interleave.
  Geometry strided = kBatch1d;
  strided.dims = {{1024, 4096, 4096}};
  strided.loops = {{4096, 1, 1}};
  EXPECT_EQ(answers(strided)[0], "batch: the loop's iterations interleave in memory");
  Geometry in_place = dense({1024}, 4096, Type::R2C);
  in_place.in_place = true;
  EXPECT_EQ(answers(in_place)[0], "batch: in place with different input and output loop strides");
  in_place.loops[0].is = 2 * in_place.loops[0].os;  // as many bytes apart on both sides
  EXPECT_EQ(answers(in_place)[0], "batch split");
  // The largest loop is the one shared out, wherever it lies: here each
  // of its iterations holds both of the other's.
  Geometry two_loops = kBatch1d;
  two_loops.loops = {{2, 1024, 1024}, {4096, 2048, 2048}};
  EXPECT_EQ(split_loop(two_loops), 1u);
  EXPECT_EQ(answers(two_loops)[0], "batch split");
}

TEST(SplitShapes, TheSlabsOwnConditions) {
  EXPECT_EQ(answers(dense({1024, 1024}))[1], "slabs: under 32 MiB");
  EXPECT_EQ(answers(dense({64, 64, 64, 64}))[1], "slabs: rank 4");
  EXPECT_EQ(answers(dense({4096, 4096}, 0, Type::C2R))[1], "slabs: c2c and out-of-place r2c only");
  Geometry r2c = dense({4096, 4096}, 0, Type::R2C);
  EXPECT_EQ(answers(r2c)[1], "slab split");
  r2c.in_place = true;
  EXPECT_EQ(answers(r2c)[1], "slabs: c2c and out-of-place r2c only");
  Geometry split = kSingle2d;
  split.split_in = true;
  EXPECT_EQ(answers(split)[1], "slabs: split arrays");
  Geometry padded = kSingle2d;
  padded.dims[0].is = padded.dims[0].os = 4100;
  EXPECT_EQ(answers(padded)[1], "slabs: not dense row-major");
  EXPECT_EQ(answers(dense({1 << 22, 1}))[1], "slabs: dims 0 and 1 need 2 or more");
}

TEST(SplitShapes, TheLinesOwnConditions) {
  EXPECT_EQ(answers(dense({1 << 20}))[2], "1-D: under 32 MiB");
  Geometry strided = kHuge1d;
  strided.dims[0].is = 2;
  EXPECT_EQ(answers(strided)[2], "1-D: not unit stride");
  Geometry split = kHuge1d;
  split.split_out = true;
  EXPECT_EQ(answers(split)[2], "1-D: split arrays");
  EXPECT_EQ(answers(dense({4194319}))[2], "1-D: 4194319 has no factors both 2 or more");
  // 2 x 2097169 (a prime): two GPUs, not four.
  EXPECT_EQ(answers(dense({2 * 2097169}))[2], "line split");
  EXPECT_EQ(answers(dense({2 * 2097169}), {0, 1, 2, 3})[2], "1-D: 4194338 has no factors both 4 or more");
}

// Whatever its type, rank, loops, size, layout or precision, a geometry
// suits one shape at most: the chain the shapes replace (batch, then
// slabs, then the 1-D split) chose among none that suited together, and
// its order was no preference for the prices to keep.
TEST(SplitShapes, NoGeometrySuitsTwo) {
  int taken = 0;
  for (const Type type : {Type::C2C, Type::R2C, Type::C2R, Type::R2R})
    for (const std::vector<long long> &dims :
         std::vector<std::vector<long long>>{{1 << 24}, {4096, 4096}, {256, 256, 256}, {1024}, {64, 64}})
      for (const long long count : {0LL, 1LL, 4096LL})
        for (const int half : {0, 1, 2})  // single, half computed in half, single precision on halves
          for (const bool in_place : {false, true}) {
            Geometry g = dense(dims, count, type);
            g.half = half > 0;
            g.half_way = half == 2 ? HalfWay::SingleOnHalves : HalfWay::Ours;
            g.in_place = in_place;
            int suits = 0;
            for (const Shape &s : kShapes) {
              Reason why;
              suits += s.suits(g, kTwo, &why);
            }
            EXPECT_LE(suits, 1) << "type " << static_cast<int>(type) << ", rank " << dims.size() << ", count " << count;
            taken += suits;
          }
  EXPECT_GT(taken, 10);
}

// Each GPU's share over its own link; the slabs and the 1-D split pull
// the output side's share from the others, and pass over it twice and
// three times.
TEST(SplitShapes, PricesCountEachGpusShare) {
  const double bytes = array_bytes(kSingle3d), out = side_bytes(kSingle3d, true);
  const Price batch = batch_split_cost(kBatch1d, kTwo), slabs = slab_split_cost(kSingle3d, kTwo),
              line = line_split_cost(kHuge1d, kTwo);
  EXPECT_EQ(batch.link_bytes, array_bytes(kBatch1d) / 2);
  EXPECT_EQ(batch.device_bytes, array_bytes(kBatch1d) / 2);
  EXPECT_EQ(batch.peer_bytes, 0);
  EXPECT_EQ(slabs.link_bytes, bytes / 2);
  EXPECT_EQ(slabs.device_bytes, bytes);
  EXPECT_EQ(slabs.peer_bytes, out / 4);
  EXPECT_EQ(line.device_bytes, 1.5 * bytes);
  EXPECT_EQ(line.peer_bytes, out / 4);
  // Four GPUs: each moves half as much over its link, and pulls 3/16 of
  // the output side.
  const Price four = slab_split_cost(kSingle3d, {0, 1, 2, 3});
  EXPECT_EQ(four.link_bytes, bytes / 4);
  EXPECT_EQ(four.peer_bytes, out * 3 / 16);
  const Rates nominal;
  EXPECT_DOUBLE_EQ(batch_split_cost(kBatch1d, kTwo).seconds(nominal),
                   2 * batch_split_cost(kBatch1d, {0, 1, 2, 3}).seconds(nominal));
}

// Of the same bytes, a batch's share costs least, then a slab's, then a
// line's: the chain's order, were a shape ever widened to another's
// geometries. The exchange over the peer links costs less than a share's
// time on the host link it saves.
TEST(SplitShapes, PricesRankBatchSlabsLine) {
  const Geometry batch = dense({1024}, 16384);
  ASSERT_EQ(array_bytes(batch), array_bytes(kSingle3d));
  ASSERT_EQ(array_bytes(kHuge1d), array_bytes(kSingle3d));
  const Rates nominal;
  const double b = batch_split_cost(batch, kTwo).seconds(nominal), s = slab_split_cost(kSingle3d, kTwo).seconds(nominal),
               l = line_split_cost(kHuge1d, kTwo).seconds(nominal);
  EXPECT_LT(b, s);
  EXPECT_LT(s, l);
  const Price slabs = slab_split_cost(kSingle3d, kTwo);
  EXPECT_LT(slabs.peer_bytes / nominal.peer, slabs.link_bytes / nominal.link);
}

std::vector<std::string> made;  // the stand-ins' makes, in the order asked
bool batch_fails = false;

template <const char *kName>
std::unique_ptr<FftJob> stand_in(const Geometry &, const Ask &, Reason *why) {
  made.push_back(kName);
  if (batch_fails && std::string(kName) == "batch split")
    return *why = {Reason::Code::NoJob, "batch: GPU 1: cannot plan"}, nullptr;
  return std::make_unique<FakeJob>(kName);
}
constexpr char kBatchName[] = "batch split", kSlabName[] = "slab split", kLineName[] = "line split",
               kOneName[] = "one GPU";

bool one_gpu_suits(const Geometry &, const std::vector<int> &, Reason *) { return true; }
Price one_gpu_cost(const Geometry &g, const std::vector<int> &) { return {array_bytes(g), array_bytes(g), 0}; }

class SplitPlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    made.clear();
    batch_fails = false;
  }
  // The job made for g over the set, by path; its why where none.
  std::string planned(const Geometry &g, Spread spread = Spread::Auto, const std::vector<int> &set = kTwo) {
    Geometry h = g;
    h.spread = spread;
    std::unique_ptr<FftJob> job = planner.make(h, set, set[0], &why);
    if (!job) return "none: " + why;
    placement = job->placement;
    return job->path();
  }
  Planner planner{{{kBatchName, true, Gives::Transform, batch_split_suits, batch_split_cost, stand_in<kBatchName>},
                   {kSlabName, true, Gives::Transform, slab_split_suits, slab_split_cost, stand_in<kSlabName>},
                   {kLineName, true, Gives::Transform, line_split_suits, line_split_cost, stand_in<kLineName>},
                   {kOneName, false, Gives::Transform, one_gpu_suits, one_gpu_cost, stand_in<kOneName>}},
                  [](std::string *) { return true; }, [] { return Rates{}; }};
  std::string why, placement;
};

TEST_F(SplitPlannerTest, EachGeometryGetsItsShape) {
  EXPECT_EQ(planned(kBatch1d), "batch split");
  EXPECT_EQ(planned(kSingle3d), "slab split");
  EXPECT_EQ(planned(kSingle2d), "slab split");
  EXPECT_EQ(planned(kHuge1d), "line split");
  EXPECT_EQ(planned(kHuge1d, Spread::Set), "line split");
  EXPECT_EQ(made, (std::vector<std::string>{"batch split", "slab split", "slab split", "line split", "line split"}));
}

// Where no shape takes the geometry, each says why, once.
TEST_F(SplitPlannerTest, NoneTakesASmallOne) {
  EXPECT_EQ(planned(dense({1024}), Spread::Set), "none: batch: no loop; slabs: rank 1; 1-D: under 32 MiB");
  EXPECT_EQ(planned(kHuge1d, Spread::Set, {2}), "none: one GPU in the set");
  EXPECT_TRUE(made.empty());
  EXPECT_EQ(planned(dense({1024})), "one GPU");
  EXPECT_EQ(placement, "GPU 0 of 0,1 (not split: batch: no loop; slabs: rank 1; 1-D: under 32 MiB)");
}

TEST_F(SplitPlannerTest, HalfPrecisionKeepsAPlaneOnOneGpuButSingleOnHalves) {
  Geometry plane = kSingle2d;
  plane.half = true;
  plane.half_way = HalfWay::Ours;
  EXPECT_EQ(planned(plane), "one GPU");
  EXPECT_EQ(placement,
            "GPU 0 of 0,1 (not split: batch: no loop; slabs in half: single precision on halves only; 1-D: rank 2)");
  plane.half_way = HalfWay::SingleOnHalves;
  EXPECT_EQ(planned(plane), "slab split");
}

// A shape that takes the geometry and makes no job: its words first, then
// why the others do not take it.
TEST_F(SplitPlannerTest, AFailedMakeSaysWhyTheOthersDidNotHelp) {
  batch_fails = true;
  EXPECT_EQ(planned(kBatch1d, Spread::Set), "none: batch: GPU 1: cannot plan; slabs: a batch; 1-D: a batch");
  EXPECT_EQ(made, (std::vector<std::string>{"batch split"}));
}

}  // namespace
}  // namespace gpufftw::engine
