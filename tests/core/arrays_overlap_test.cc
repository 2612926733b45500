// arrays_overlap: whether a problem's input and output share bytes, from
// each side's own extent (an r2r's input is real, a c2r's input complex
// with its last dimension n/2+1), so that a plan never takes two arrays
// that meet for apart.
#include <gtest/gtest.h>

#include <vector>

#include "core/problem.h"
#include "problem_maker.h"

namespace gpufftw {
namespace {

TEST(ArraysOverlap, AnR2rsInputSpansAllItsRealsNotHalfOfThem) {
  std::vector<float> a(32);
  Problem p = f32(Kind::R2R, {{8, 1, 1}});
  p.in[0] = &a[0];
  p.out[0] = &a[6];  // the input's last two reals
  EXPECT_TRUE(arrays_overlap(p));
  p.out[0] = &a[8];
  EXPECT_FALSE(arrays_overlap(p));
}

TEST(ArraysOverlap, AC2rsInputIsNOver2Plus1ComplexNumbers) {
  std::vector<float> a(40);
  Problem p = f32(Kind::C2R, {{8, 1, 1}});
  p.in[0] = &a[0];  // 5 complex numbers: floats 0-9
  p.out[0] = &a[9];
  EXPECT_TRUE(arrays_overlap(p));
  p.out[0] = &a[10];
  EXPECT_FALSE(arrays_overlap(p));
}

TEST(ArraysOverlap, AnR2csOutputIsTheComplexSide) {
  std::vector<float> a(40);
  Problem p = f32(Kind::R2C, {{8, 1, 1}});
  p.out[0] = &a[0];  // 5 complex numbers: floats 0-9
  p.in[0] = &a[9];
  EXPECT_TRUE(arrays_overlap(p));
  p.in[0] = &a[10];
  EXPECT_FALSE(arrays_overlap(p));
}

TEST(ArraysOverlap, OneArrayInPlaceIsNotOverlap) {
  std::vector<float> a(16);
  Problem p = f32(Kind::C2C, {{8, 1, 1}});
  p.in[0] = p.out[0] = a.data();
  EXPECT_FALSE(arrays_overlap(p));
}

TEST(ArraysOverlap, ANegativeStrideReachesBelowThePointer) {
  std::vector<float> a(64);
  // 4 complex numbers at stride -2 from float 40: complex 14..20, floats 28-41.
  Problem p = f32(Kind::C2C, {{4, -2, 1}});
  p.in[0] = &a[40];
  p.out[0] = &a[20];  // floats 20-27
  EXPECT_FALSE(arrays_overlap(p));
  p.out[0] = &a[22];  // floats 22-29
  EXPECT_TRUE(arrays_overlap(p));
}

TEST(ArraysOverlap, TheLoopsCountToo) {
  std::vector<float> a(80);
  Problem p = f32(Kind::C2C, {{4, 1, 1}}, {{3, 4, 4}});
  p.in[0] = &a[0];  // 12 complex numbers: floats 0-23
  p.out[0] = &a[23];
  EXPECT_TRUE(arrays_overlap(p));
  p.out[0] = &a[24];
  EXPECT_FALSE(arrays_overlap(p));
}

TEST(ArraysOverlap, SplitArraysAreEachReals) {
  std::vector<float> a(64);
  Problem p = f32(Kind::C2C, {{8, 1, 1}});
  p.split = true;
  p.in[0] = &a[0], p.in[1] = &a[8];
  p.out[0] = &a[16], p.out[1] = &a[24];
  EXPECT_FALSE(arrays_overlap(p));
  p.out[1] = &a[15];  // meets the input's imaginary parts
  EXPECT_TRUE(arrays_overlap(p));
}

TEST(ArraysOverlap, ASpanPast64BitsCountsAsSharing) {
  std::vector<float> a(32);
  Problem p = f32(Kind::C2C, {{1 << 20, int64_t{1} << 50, 1}});
  p.in[0] = &a[0];
  p.out[0] = &a[16];
  EXPECT_TRUE(arrays_overlap(p));
}

}  // namespace
}  // namespace gpufftw
