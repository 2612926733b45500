// zero_input writes zero into every element a problem reads, as FFTW's
// planner does before it times a plan, and leaves every other byte of
// the program's arrays as it was.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "../core/problem_maker.h"
#include "dispatch/reading_input.h"

namespace gpufftw {
namespace {

constexpr unsigned char kMark = 0x5a;

// Float slots of `bytes`, every byte marked; zeroed: which floats are zero now.
struct Marked {
  explicit Marked(size_t floats) : f(floats) { std::memset(f.data(), kMark, floats * sizeof(float)); }
  std::vector<bool> zeroed() const {
    std::vector<bool> z(f.size());
    for (size_t i = 0; i < f.size(); ++i) {
      unsigned char b[sizeof(float)];
      std::memcpy(b, &f[i], sizeof b);
      bool all_zero = true, all_mark = true;
      for (unsigned char c : b) all_zero &= c == 0, all_mark &= c == kMark;
      EXPECT_TRUE(all_zero || all_mark) << "float " << i << " was partly written";
      z[i] = all_zero;
    }
    return z;
  }
  std::vector<float> f;
};

TEST(ZeroInput, ABatchOfContiguousComplexIsZeroedUpToItsEnd) {
  Marked a(2 * 8 * 3 + 4);
  Problem p = f32(Kind::C2C, {{8, 1, 1}}, {{3, 8, 8}});
  p.in[0] = a.f.data();
  zero_input(p);
  const std::vector<bool> z = a.zeroed();
  for (size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], i < 48) << i;
}

TEST(ZeroInput, AStridesGapsAreLeftAsTheProgramHadThem) {
  // 4 complex numbers at a stride of 3, a batch of 2 a distance 13 apart.
  Marked a(2 * 30);
  Problem p = f32(Kind::C2C, {{4, 3, 1}}, {{2, 13, 4}});
  p.in[0] = a.f.data();
  zero_input(p);
  const std::vector<bool> z = a.zeroed();
  std::vector<bool> want(z.size());
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 4; ++i) want[2 * (b * 13 + i * 3)] = want[2 * (b * 13 + i * 3) + 1] = true;
  EXPECT_EQ(z, want);
}

TEST(ZeroInput, AnInterleavedBatchIsZeroedWhateverTheLoopsOrder) {
  // 3 transforms of 4 points, interleaved (the batch's stride 1, the
  // transform's 3), in an array of 16 complex numbers.
  Marked a(2 * 16);
  Problem p = f32(Kind::C2C, {{4, 3, 3}}, {{3, 1, 1}});
  p.in[0] = a.f.data();
  zero_input(p);
  const std::vector<bool> z = a.zeroed();
  for (size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], i < 24) << i;
}

TEST(ZeroInput, AC2rReadsHalfItsLastDimensionPlusOne) {
  // 3 x 8 real out, its input 3 rows of 5 complex numbers in rows of 6
  // (the padding of an in-place r2c's array).
  Marked a(2 * 18);
  Problem p = f32(Kind::C2R, {{3, 6, 16}, {8, 1, 1}});
  p.in[0] = a.f.data();
  zero_input(p);
  const std::vector<bool> z = a.zeroed();
  for (size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], (i / 2) % 6 < 5) << i;
}

TEST(ZeroInput, AnR2cReadsRealsAndASplitProblemBothArrays) {
  Marked r(10);
  Problem p = f32(Kind::R2C, {{8, 1, 1}});
  p.in[0] = r.f.data();
  zero_input(p);
  std::vector<bool> z = r.zeroed();
  for (size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], i < 8) << i;

  Marked re(6), im(6);
  Problem s = f32(Kind::C2C, {{5, 1, 1}});
  s.split = true;
  s.in[0] = re.f.data();
  s.in[1] = im.f.data();
  zero_input(s);
  for (const Marked *m : {&re, &im}) {
    z = m->zeroed();
    for (size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], i < 5) << i;
  }
}

TEST(ZeroInput, ANegativeStrideZeroesBackFromThePointer) {
  Marked a(2 * 10);
  Problem p = f32(Kind::C2C, {{4, -1, 1}});
  p.in[0] = a.f.data() + 2 * 6;  // elements 6, 5, 4, 3
  zero_input(p);
  const std::vector<bool> z = a.zeroed();
  for (size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], i >= 6 && i < 14) << i;
}

TEST(ZeroInput, NegativeStridesOfAnOuterLoop) {
  Marked a(2 * 12);
  Problem p = f32(Kind::C2C, {{2, 1, 1}}, {{3, -4, 2}});
  p.in[0] = a.f.data() + 2 * 8;  // rows at 8, 4, 0
  zero_input(p);
  const std::vector<bool> z = a.zeroed();
  for (size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], (i / 2) % 4 < 2) << i;
}

}  // namespace
}  // namespace gpufftw
