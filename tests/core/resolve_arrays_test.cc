// resolve_arrays: the arrays of a new-array execute as the plan's own
// transform reads them, in the order FFTW's execute functions take them.
#include <gtest/gtest.h>

#include "core/plan.h"

namespace gpufftw {
namespace {

// A split c2c of 8 points whose parts lie at in_re/in_im and out_re/out_im.
Problem split_c2c(double *in_re, double *in_im, double *out_re, double *out_im) {
  Problem p;
  p.kind = Kind::C2C;
  p.precision = Precision::F64;
  p.split = true;
  p.dims = {{8, 2, 2}};
  p.in[0] = in_re, p.in[1] = in_im, p.out[0] = out_re, p.out[1] = out_im;
  return p;
}

struct Resolved {
  void *in[2], *out[2];
};

Resolved resolve(const Problem &p, Entry entry, void *a, void *b) {
  Arrays x;
  x.entry = entry;
  x.a[0] = a, x.a[1] = b;
  Resolved r;
  EXPECT_TRUE(resolve_arrays(p, x, r.in, r.out));
  return r;
}

TEST(ResolveArrays, ASplitPlanWithImaginaryPartsOneRealOnReadsAnArrayReFirst) {
  double x[16], y[16], x2[16], y2[16];
  const Resolved r = resolve(split_c2c(x, x + 1, y, y + 1), Entry::Dft, x2, y2);
  EXPECT_EQ(r.in[0], x2);
  EXPECT_EQ(r.in[1], x2 + 1);
  EXPECT_EQ(r.out[0], y2);
  EXPECT_EQ(r.out[1], y2 + 1);
}

// FFTW's way to a backward transform from a split plan: its parts
// swapped. fftw_execute_dft then keeps them swapped.
TEST(ResolveArrays, ASplitPlanWithItsPartsSwappedReadsAnArrayImFirst) {
  double x[16], y[16], x2[16], y2[16];
  const Resolved r = resolve(split_c2c(x + 1, x, y + 1, y), Entry::Dft, x2, y2);
  EXPECT_EQ(r.in[0], x2 + 1);
  EXPECT_EQ(r.in[1], x2);
  EXPECT_EQ(r.out[0], y2 + 1);
  EXPECT_EQ(r.out[1], y2);
}

// FFTW keeps re first only where both sides' parts are one real apart.
TEST(ResolveArrays, EitherSideOtherwiseSwapsBoth) {
  double x[16], y[16], x2[16], y2[16];
  const Resolved r = resolve(split_c2c(x, x + 1, y + 1, y), Entry::Dft, x2, y2);
  EXPECT_EQ(r.in[0], x2 + 1);
  EXPECT_EQ(r.out[0], y2 + 1);
}

TEST(ResolveArrays, TheSplitExecuteTakesThePartsAsGiven) {
  double x[16], y[16], a[8], b[8], c[8], d[8];
  Arrays e;
  e.entry = Entry::SplitDft;
  e.a[0] = a, e.a[1] = b, e.a[2] = c, e.a[3] = d;
  void *in[2], *out[2];
  ASSERT_TRUE(resolve_arrays(split_c2c(x + 1, x, y + 1, y), e, in, out));
  EXPECT_EQ(in[0], a);
  EXPECT_EQ(in[1], b);
  EXPECT_EQ(out[0], c);
  EXPECT_EQ(out[1], d);
}

TEST(ResolveArrays, AnInterleavedPlanReadsOnePointerASide) {
  double x[16], y[16], x2[16], y2[16];
  Problem p = split_c2c(x, nullptr, y, nullptr);
  p.split = false;
  const Resolved r = resolve(p, Entry::Dft, x2, y2);
  EXPECT_EQ(r.in[0], x2);
  EXPECT_EQ(r.in[1], nullptr);
  EXPECT_EQ(r.out[0], y2);
  EXPECT_EQ(r.out[1], nullptr);
}

}  // namespace
}  // namespace gpufftw
