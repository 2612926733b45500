// The 1-D split's arithmetic (engine/multi/line_layout.h), on the CPU: the
// whole four-step method run with its blocks, each GPU's FFTs as direct
// DFTs and its twiddle as engine/staging/twiddle_transpose.h states it,
// against the DFT of the whole line.
#include "engine/multi/line_layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <vector>

namespace gpufftw::engine {
namespace {

using C = std::complex<double>;

C root(long long e, long long n, int sign) {
  const double a = sign * 2 * M_PI * static_cast<double>(e % n) / static_cast<double>(n);
  return {std::cos(a), std::sin(a)};
}

// `count` DFTs of length n, element i of transform j at at + j * dist + i * stride, in place.
void dfts(std::vector<C> *v, long long at, long long n, long long stride, long long dist, long long count, int sign) {
  std::vector<C> line(n);
  for (long long j = 0; j < count; ++j) {
    for (long long k = 0; k < n; ++k) {
      line[k] = 0;
      for (long long i = 0; i < n; ++i) line[k] += (*v)[at + j * dist + i * stride] * root(i * k, n, sign);
    }
    for (long long k = 0; k < n; ++k) (*v)[at + j * dist + k * stride] = line[k];
  }
}

void copy(const Block &b, const std::vector<C> &src, std::vector<C> *dst) {
  for (long long r = 0; r < b.rows; ++r)
    for (long long w = 0; w < b.width; ++w) (*dst)[b.dst + r * b.dpitch + w] = src[b.src + r * b.spitch + w];
}

// The steps of engine/multi/line_split.cc, GPU by GPU: the second pass in
// `parts` parts of each GPU's rows, written out joined into runs of at
// least `least` rows.
std::vector<C> split_dft(const std::vector<C> &x, const LineSplit &s, int sign, int parts, long long least) {
  const long long n = s.n1 * s.n2;
  const int gpus = static_cast<int>(s.columns.size());
  std::vector<std::vector<C>> twiddled(gpus);
  for (int k = 0; k < gpus; ++k) {
    const long long cols = s.columns[k].size();
    std::vector<C> a(s.n1 * cols);
    copy(line_in(s, k), x, &a);
    dfts(&a, 0, s.n1, cols, 1, cols, sign);
    twiddled[k].resize(cols * s.n1);
    for (long long r = 0; r < s.n1; ++r)
      for (long long c = 0; c < cols; ++c)
        twiddled[k][c * s.n1 + r] = a[r * cols + c] * root((s.columns[k].begin + c) * r, n, sign);
  }
  std::vector<C> out(n, C(std::numeric_limits<double>::quiet_NaN(), 0));
  for (int k = 0; k < gpus; ++k) {
    const long long rows = s.rows[k].size();
    std::vector<C> b(s.n2 * rows, C(std::numeric_limits<double>::quiet_NaN(), 0));
    const std::vector<Share> chunks = split_evenly(rows, parts);
    for (const Share &part : chunks) {
      for (int from = 0; from < gpus; ++from) copy(line_exchange(s, from, k, part), twiddled[from], &b);
      dfts(&b, part.begin, s.n2, rows, 1, part.size(), sign);
    }
    for (const Share &run : join_until(chunks, least)) copy(line_out(s, k, run), b, &out);
  }
  return out;
}

TEST(LineSplit, TheBlocksComputeTheDft) {
  struct Shape {
    long long n;
    int gpus;
  };
  for (const Shape &shape : {Shape{240, 2}, Shape{240, 3}, Shape{1024, 2}, Shape{1024, 4}, Shape{77, 2},
                             Shape{30, 5}, Shape{12, 3}, Shape{4096, 8}})
    for (int sign : {-1, 1}) {
      const std::optional<LineSplit> s = line_split(shape.n, shape.gpus);
      ASSERT_TRUE(s) << shape.n << " over " << shape.gpus;
      ASSERT_EQ(s->n1 * s->n2, shape.n);
      std::mt19937 rng(7);
      std::uniform_real_distribution<double> u(-1, 1);
      std::vector<C> x(shape.n);
      for (C &v : x) v = {u(rng), u(rng)};
      std::vector<C> want(x);
      dfts(&want, 0, shape.n, 1, shape.n, 1, sign);
      for (int parts : {1, 3})
        for (long long least : {1, 2}) {
          const std::vector<C> got = split_dft(x, *s, sign, parts, least);
          double err = 0, norm = 0;
          for (long long i = 0; i < shape.n; ++i) err += std::norm(got[i] - want[i]), norm += std::norm(want[i]);
          EXPECT_LT(std::sqrt(err / norm), 1e-12)
              << shape.n << " over " << shape.gpus << ", sign " << sign << ", " << parts << " parts, runs of " << least;
        }
    }
}

TEST(LineSplit, FactorsAsSquareAsTheLengthAllows) {
  EXPECT_EQ(line_split(1LL << 28, 2)->n1, 1LL << 14);
  EXPECT_EQ(line_split(1LL << 27, 2)->n1, 1LL << 13);
  EXPECT_EQ(line_split(240, 2)->n1, 15);
  const std::optional<LineSplit> s = line_split(1LL << 28, 3);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->columns.size(), 3u);
  EXPECT_EQ(s->rows.size(), 3u);
  EXPECT_EQ(s->columns.back().end, s->n2);
  EXPECT_EQ(s->rows.back().end, s->n1);
}

TEST(LineSplit, NoneWhereAFactorIsUnderTheGpus) {
  EXPECT_FALSE(line_split(97, 2));        // prime
  EXPECT_FALSE(line_split(2 * 101, 3));   // n1 = 2
  EXPECT_FALSE(line_split(12, 4));        // n1 = 3
  EXPECT_FALSE(line_split(6, 0));        // no GPUs
  EXPECT_TRUE(line_split(4, 2));
}

}  // namespace
}  // namespace gpufftw::engine
