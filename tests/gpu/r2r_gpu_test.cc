// Real-to-real transforms on the GPU: every kind, ranks 1-3 with a kind
// per dimension, the smallest legal sizes, f32 and f64, in and out of
// place, strided and batched layouts, host, pinned and device arrays, and
// the CPU recomputing a failed execute. The reference is the real FFTW in
// double precision, reached through gpufftw's CPU mode. Every test skips,
// saying so, where there is no usable GPU.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../sweep/fftw_traits.h"
#include "gpufftw/gpufftw.h"
#include "print_at_end.h"

namespace {

enum class Mem { Host, Pinned, Device };

// One problem: sizes and kinds per dimension, a batch of `howmany`, and
// the layout. `spread` > 1 puts the input's elements that far apart (and
// its transforms one element apart, FFTW's interleaved batch), so that
// the engine must gather and scatter.
struct Case {
  std::vector<int> n;
  std::vector<fftw_r2r_kind> kinds;
  int howmany = 1;
  bool in_place = false;
  Mem mem = Mem::Host;
  int spread = 1;
};

std::string describe(const Case &c) {
  std::string s;
  for (size_t d = 0; d < c.n.size(); ++d) s += std::to_string(c.n[d]) + ":" + std::to_string(c.kinds[d]) + " ";
  return s + "howmany " + std::to_string(c.howmany) + (c.in_place ? " in place" : " out of place") + " mem " +
         std::to_string(static_cast<int>(c.mem)) + " spread " + std::to_string(c.spread);
}

// FFTW's logical size N of each dimension (its manual, "Real even/odd DFTs").
double logical_size(const Case &c) {
  double total = 1;
  for (size_t d = 0; d < c.n.size(); ++d) {
    const double n = c.n[d];
    switch (c.kinds[d]) {
      case FFTW_REDFT00: total *= 2 * (n - 1); break;
      case FFTW_RODFT00: total *= 2 * (n + 1); break;
      case FFTW_R2HC:
      case FFTW_HC2R:
      case FFTW_DHT: total *= n; break;
      default: total *= 2 * n;
    }
  }
  return total;
}

template <class T>
double tolerance(const Case &c) {
  const double eps = sizeof(T) == 4 ? 1.19e-7 : 2.22e-16;
  return 5 * eps * std::sqrt(std::max(1.0, std::log2(logical_size(c))));
}

double worst[2] = {0, 0};
const auto *kPrintWorst = print_at_end(
    [] { std::printf("largest relative L2 error of r2r on the GPU: f32 %.3g, f64 %.3g\n", worst[0], worst[1]); });

class R2rGpu : public testing::Test {
 protected:
  void SetUp() override {
    if (!gpufftw_gpu_available()) GTEST_SKIP() << "no usable GPU here: r2r GPU tests skipped";
    saved_ = gpufftw_get_mode();
  }
  void TearDown() override {
    if (gpufftw_gpu_available()) gpufftw_set_mode(saved_);
    unsetenv("GPUFFTW_FAULT");
  }
  gpufftw_mode saved_ = GPUFFTW_MODE_AUTO;
};

// The dense row-major r2r of `howmany` transforms of x, by the real FFTW
// in double.
std::vector<double> reference(const Case &c, const std::vector<double> &x) {
  gpufftw_set_mode(GPUFFTW_MODE_CPU);
  std::vector<double> in = x, out(x.size());
  const int rank = static_cast<int>(c.n.size());
  const int points = static_cast<int>(x.size()) / c.howmany;
  fftw_plan p = fftw_plan_many_r2r(rank, c.n.data(), c.howmany, in.data(), nullptr, 1, points, out.data(), nullptr, 1,
                                   points, c.kinds.data(), FFTW_ESTIMATE);
  EXPECT_NE(p, nullptr);
  if (p) {
    EXPECT_STREQ(gpufftw_plan_where(p), "cpu");
    fftw_execute(p);
    fftw_destroy_plan(p);
  }
  gpufftw_set_mode(GPUFFTW_MODE_GPU);
  return out;
}

// Runs the case on the GPU (or, with `fault`, has its execute fail there
// and recomputed on the CPU) and checks every transform of the batch.
template <class T>
void check(const Case &c, const char *fault = nullptr) {
  SCOPED_TRACE(describe(c) + (sizeof(T) == 4 ? " f32" : " f64"));
  using F = sweep::FftwApi<T>;
  const int rank = static_cast<int>(c.n.size());
  long long points = 1;
  for (int v : c.n) points *= v;
  const long long count = points * c.howmany;
  // Dense layout: transform t at t * points. Spread: element e of
  // transform t at e * spread + t on the input side (spread >= howmany).
  std::vector<fftw_iodim64> dims(rank), loops;
  long long stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    dims[d] = {c.n[d], stride * c.spread, c.in_place ? stride * c.spread : stride};
    stride *= c.n[d];
  }
  if (c.howmany > 1) loops.push_back({c.howmany, c.spread > 1 ? 1 : points, c.in_place && c.spread > 1 ? 1 : points});
  const long long in_reals = c.spread > 1 ? points * c.spread : count;
  const long long out_reals = c.in_place ? in_reals : count;

  static std::mt19937_64 rng{std::random_device{}()};
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<T> in_host(in_reals);
  for (T &v : in_host) v = static_cast<T>(u(rng));
  std::vector<double> x(count);  // dense, for the reference
  for (int t = 0; t < c.howmany; ++t)
    for (long long e = 0; e < points; ++e)
      x[t * points + e] = in_host[c.spread > 1 ? e * c.spread + t : t * points + e];
  const std::vector<double> want = reference(c, x);

  const size_t in_bytes = in_reals * sizeof(T), out_bytes = out_reals * sizeof(T);
  T *in = nullptr, *out = nullptr;
  switch (c.mem) {
    case Mem::Host:
      in = static_cast<T *>(std::malloc(in_bytes));
      out = c.in_place ? in : static_cast<T *>(std::malloc(out_bytes));
      break;
    case Mem::Pinned:  // fftw_malloc: pinned from GPUFFTW_PINNED_MIN (1 MiB) up
      in = static_cast<T *>(fftw_malloc(in_bytes));
      out = c.in_place ? in : static_cast<T *>(fftw_malloc(out_bytes));
      break;
    case Mem::Device:
      ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&in), in_bytes), cudaSuccess);
      if (c.in_place)
        out = in;
      else
        ASSERT_EQ(cudaMalloc(reinterpret_cast<void **>(&out), out_bytes), cudaSuccess);
      break;
  }
  ASSERT_TRUE(in && out);
  typename F::plan p = F::plan_guru64_r2r(rank, dims.data(), static_cast<int>(loops.size()), loops.data(), in, out,
                                          c.kinds.data(), FFTW_ESTIMATE);
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(gpufftw_plan_where(p), "gpu") << gpufftw_plan_why(p);
  // Poisoned output: an element the GPU leaves unwritten shows.
  std::vector<T> poison(out_reals, static_cast<T>(1e30));
  if (c.mem == Mem::Device) {
    if (!c.in_place) {
      ASSERT_EQ(cudaMemcpy(out, poison.data(), out_bytes, cudaMemcpyHostToDevice), cudaSuccess);
    }
    ASSERT_EQ(cudaMemcpy(in, in_host.data(), in_bytes, cudaMemcpyHostToDevice), cudaSuccess);
  } else {
    if (!c.in_place) std::memcpy(out, poison.data(), out_bytes);
    std::memcpy(in, in_host.data(), in_bytes);
  }
  if (fault) setenv("GPUFFTW_FAULT", fault, 1);
  F::execute(p);
  unsetenv("GPUFFTW_FAULT");
  std::vector<T> got(out_reals), in_after(in_reals);
  if (c.mem == Mem::Device) {
    ASSERT_EQ(cudaMemcpy(got.data(), out, out_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(in_after.data(), in, in_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  } else {
    std::memcpy(got.data(), out, out_bytes);
    std::memcpy(in_after.data(), in, in_bytes);
  }
  if (!c.in_place) {
    EXPECT_EQ(std::memcmp(in_after.data(), in_host.data(), in_bytes), 0) << "input modified";
  }
  const double tol = tolerance<T>(c);
  for (int t = 0; t < c.howmany; ++t) {
    long double num = 0, den = 0;
    for (long long e = 0; e < points; ++e) {
      const bool spread_out = c.in_place && c.spread > 1;
      const long double g = got[spread_out ? e * c.spread + t : t * points + e], w = want[t * points + e];
      num += (g - w) * (g - w);
      den += w * w;
    }
    const double err = den > 0 ? static_cast<double>(std::sqrt(num / den)) : static_cast<double>(std::sqrt(num));
    double &w = worst[sizeof(T) == 4 ? 0 : 1];
    if (err > w) w = err;
    EXPECT_LT(err, tol) << "transform " << t;
  }
  F::destroy_plan(p);
  switch (c.mem) {
    case Mem::Host:
      if (!c.in_place) std::free(out);
      std::free(in);
      break;
    case Mem::Pinned:
      if (!c.in_place) fftw_free(out);
      fftw_free(in);
      break;
    case Mem::Device:
      if (!c.in_place) cudaFree(out);
      cudaFree(in);
      break;
  }
}

template <class T>
void check_both_places(Case c) {
  c.in_place = false;
  check<T>(c);
  c.in_place = true;
  check<T>(c);
}

const fftw_r2r_kind kKinds[] = {FFTW_R2HC,    FFTW_HC2R,    FFTW_DHT,     FFTW_REDFT00, FFTW_REDFT01, FFTW_REDFT10,
                                FFTW_REDFT11, FFTW_RODFT00, FFTW_RODFT01, FFTW_RODFT10, FFTW_RODFT11};

// The smallest legal size of each kind (REDFT00: 2), then odd and even
// sizes, prime and composite, up to 2^16.
template <class T>
void every_kind_1d() {
  for (fftw_r2r_kind k : kKinds)
    for (int n : {1, 2, 3, 4, 5, 8, 17, 30, 64, 97, 1000, 4096, 65536}) {
      if (k == FFTW_REDFT00 && n < 2) continue;
      check_both_places<T>({{n}, {k}});
    }
}
TEST_F(R2rGpu, EveryKind1dF32) { every_kind_1d<float>(); }
TEST_F(R2rGpu, EveryKind1dF64) { every_kind_1d<double>(); }

// Every pair of kinds over a 2-D array, odd by even, and the smallest.
template <class T>
void every_pair_2d() {
  for (fftw_r2r_kind a : kKinds)
    for (fftw_r2r_kind b : kKinds) {
      check<T>({{7, 6}, {a, b}});
      check<T>({{a == FFTW_REDFT00 ? 2 : 1, b == FFTW_REDFT00 ? 2 : 1}, {a, b}, 1, true});
    }
}
TEST_F(R2rGpu, EveryPairOfKinds2dF32) { every_pair_2d<float>(); }
TEST_F(R2rGpu, EveryPairOfKinds2dF64) { every_pair_2d<double>(); }

template <class T>
void mixed_3d() {
  check_both_places<T>({{4, 5, 6}, {FFTW_REDFT10, FFTW_RODFT00, FFTW_DHT}});
  check_both_places<T>({{9, 2, 8}, {FFTW_HC2R, FFTW_REDFT00, FFTW_RODFT11}});
  check_both_places<T>({{3, 1, 7}, {FFTW_REDFT01, FFTW_R2HC, FFTW_RODFT01}});
  check_both_places<T>({{16, 17, 15}, {FFTW_REDFT11, FFTW_RODFT10, FFTW_REDFT10}});
  check<T>({{32, 32, 32}, {FFTW_REDFT10, FFTW_REDFT10, FFTW_REDFT10}});
}
TEST_F(R2rGpu, MixedKinds3dF32) { mixed_3d<float>(); }
TEST_F(R2rGpu, MixedKinds3dF64) { mixed_3d<double>(); }

// Batches, dense and interleaved (elements `spread` apart, transforms one
// apart), in and out of place, in every kind of memory.
template <class T>
void batches() {
  for (Mem m : {Mem::Host, Mem::Pinned, Mem::Device}) {
    check_both_places<T>({{33}, {FFTW_REDFT10}, 7, false, m});
    check_both_places<T>({{33}, {FFTW_RODFT01}, 7, false, m, 7});
    check_both_places<T>({{12, 10}, {FFTW_RODFT00, FFTW_REDFT11}, 3, false, m, 4});
    check_both_places<T>({{256, 256}, {FFTW_REDFT10, FFTW_REDFT01}, 2, false, m});
  }
}
TEST_F(R2rGpu, BatchesAndStridesF32) { batches<float>(); }
TEST_F(R2rGpu, BatchesAndStridesF64) { batches<double>(); }

// A failed GPU execute is recomputed by the real FFTW.
TEST_F(R2rGpu, FailedExecuteRunsOnTheCpu) {
  check<float>({{64, 48}, {FFTW_REDFT10, FFTW_RODFT10}}, "execute");
  check<double>({{100}, {FFTW_REDFT00}, 4, true}, "execute");
}

}  // namespace
