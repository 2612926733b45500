// The 1-D split's arithmetic (engine/multi/line_layout.h), on the CPU: the
// whole four-step method run with its blocks, each GPU's FFTs as direct
// DFTs and its transposes as engine/staging/twiddle_transpose.h states
// them, against the DFT of the whole line.
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

// twiddle_transpose.h's transposes: from element `from` of src, its
// `rows` x `cols`, into element `to` of dst, `ld` apart; each element
// twiddled by W_n^((row0 + r) * (col0 + c)) where n is not 0.
void transpose(const std::vector<C> &src, long long from, long long rows, long long cols, std::vector<C> *dst,
               long long to, long long ld, long long row0 = 0, long long col0 = 0, long long n = 0, int sign = 0) {
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c)
      (*dst)[to + c * ld + r] = src[from + r * cols + c] * (n ? root((row0 + r) * (col0 + c), n, sign) : C(1));
}

// The steps of engine/multi/line_split.cc, GPU by GPU: the second pass in
// `parts` parts of each GPU's rows, written out joined into runs of at
// least `least` rows.
std::vector<C> split_dft(const std::vector<C> &x, const LineSplit &s, int sign, int parts, long long least) {
  const long long n = s.n1 * s.n2;
  const int gpus = static_cast<int>(s.columns.size());
  const C nan(std::numeric_limits<double>::quiet_NaN(), 0);
  std::vector<std::vector<C>> twiddled(gpus);
  for (int k = 0; k < gpus; ++k) {
    const long long cols = s.columns[k].size();
    std::vector<C> a(s.n1 * cols, nan), t(cols * s.n1, nan);
    copy(line_in(s, k), x, &a);
    transpose(a, 0, s.n1, cols, &t, 0, s.n1);
    dfts(&t, 0, s.n1, 1, s.n1, cols, sign);
    twiddled[k].assign(s.n1 * cols, nan);
    transpose(t, 0, cols, s.n1, &twiddled[k], 0, cols, s.columns[k].begin, 0, n, sign);
  }
  std::vector<C> out(n, nan);
  for (int k = 0; k < gpus; ++k) {
    const long long rows = s.rows[k].size();
    std::vector<C> b(rows * s.n2, nan), o(s.n2 * rows, nan);
    const std::vector<Share> chunks = split_evenly(rows, parts);
    for (const Share &part : chunks) {
      for (int from = 0; from < gpus; ++from) copy(line_exchange(s, from, k, part), twiddled[from], &b);
      dfts(&b, part.begin * s.n2, s.n2, 1, s.n2, part.size(), sign);
    }
    for (const Share &part : chunks) transpose(b, part.begin * s.n2, part.size(), s.n2, &o, part.begin, rows);
    for (const Share &run : join_until(chunks, least)) copy(line_out(s, k, run), o, &out);
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
