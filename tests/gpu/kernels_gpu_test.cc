// The project's own FFT kernels (engine/kernels) against FFTW double: every
// size 2..4096 in every variant the tuner may pick, f32 and f64, forward
// and backward, out of place and in place, at batch 3; then offset arrays
// and many blocks; the direct DFT at every length it takes, and in a
// multi-pass plan whose strided passes it does not suit; and the
// variants' names. Every GPU test skips, saying so, where there is no
// usable GPU.
#include <cuda_runtime_api.h>
#include <fftw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/kernels/stockham.h"
#include "engine/kernels/transform_plan.h"
#include "tests/gpu/kernel_tolerance.h"
#include "tests/gpu/usable_gpu.h"

namespace {

using gpufftw::engine::Real;
using gpufftw::engine::kernels::Shape;
using gpufftw::engine::kernels::StockhamPlan;
using gpufftw::engine::kernels::Strides;
using gpufftw::engine::kernels::TransformPlan;
using gpufftw::engine::kernels::Variant;

class Kernels : public UsableGpuTest {};

// Device copies of one problem: input, output, and the reference.
template <class T>
struct Case {
  int n;
  long long batch;
  size_t offset;  // complex values the arrays start past their allocation
  std::vector<T> x;
  std::vector<std::complex<double>> ref;
  T *dev_in = nullptr, *dev_out = nullptr;

  Case(int n_, long long batch_, size_t offset_, std::mt19937 *rng) : n(n_), batch(batch_), offset(offset_) {
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    x.resize(2 * values());
    for (T &v : x) v = static_cast<T>(u(*rng));
  }
  size_t values() const { return static_cast<size_t>(n) * batch; }
  size_t bytes() const { return 2 * sizeof(T) * (values() + offset); }

  void reference(int sign) {
    std::vector<std::complex<double>> in(values());
    ref.resize(values());
    for (size_t i = 0; i < values(); ++i) in[i] = {x[2 * i], x[2 * i + 1]};
    const int b = static_cast<int>(batch);
    auto *fin = reinterpret_cast<fftw_complex *>(in.data()), *fout = reinterpret_cast<fftw_complex *>(ref.data());
    fftw_plan p = fftw_plan_many_dft(1, &n, b, fin, nullptr, 1, n, fout, nullptr, 1, n, sign, FFTW_ESTIMATE);
    fftw_execute(p);
    fftw_destroy_plan(p);
  }

  // Relative L2 error of one run of `plan` (in place when asked), or -1
  // with `why` when the run failed. The output starts as NaN, so an
  // element never written fails.
  double run(const StockhamPlan &plan, int sign, bool in_place, std::string *why) {
    if (!dev_in) {
      if (cudaMalloc(reinterpret_cast<void **>(&dev_in), bytes()) != cudaSuccess ||
          cudaMalloc(reinterpret_cast<void **>(&dev_out), bytes()) != cudaSuccess) {
        *why = "cudaMalloc";
        return -1;
      }
    }
    T *in = dev_in + 2 * offset, *out = in_place ? in : dev_out + 2 * offset;
    if (cudaMemset(dev_out, 0xff, bytes()) != cudaSuccess ||
        cudaMemcpy(in, x.data(), 2 * sizeof(T) * values(), cudaMemcpyHostToDevice) != cudaSuccess) {
      *why = "cudaMemset/cudaMemcpy to the device";
      return -1;
    }
    if (!plan.run(in, out, sign, nullptr, why)) return -1;
    std::vector<T> y(2 * values());
    const cudaError_t e = cudaMemcpy(y.data(), out, 2 * sizeof(T) * values(), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
      *why = std::string("cudaMemcpy from the device: ") + cudaGetErrorString(e);
      return -1;
    }
    double err = 0, norm = 0;
    for (size_t i = 0; i < values(); ++i) {
      err += std::norm(std::complex<double>(y[2 * i], y[2 * i + 1]) - ref[i]);
      norm += std::norm(ref[i]);
    }
    const double rel = std::sqrt(err / norm);
    return std::isnan(rel) ? 1e300 : rel;
  }
  ~Case() {
    cudaFree(dev_in);
    cudaFree(dev_out);
  }
};

// Whether n is checked in every variant: the variants share their code
// across lengths (radices, block shapes), so all n up to 300 and every
// 13th above, with the benchmark's sizes, cover them; the default variant
// is checked at every n.
bool every_variant_at(int n) {
  for (int s : {1000, 1001, 1009, 2039, 2187, 3000, 3125, 4000, 4093, 4095, 4096})
    if (n == s) return true;
  return n <= 300 || n % 13 == 0;
}

// The variants the sweep runs at n: every one where every_variant_at(n),
// else the default.
std::vector<Variant> swept_variants(int n, Real real) {
  std::vector<Variant> v = StockhamPlan::variants(n, real);
  if (!every_variant_at(n) && !v.empty()) v.resize(1);
  return v;
}

// The positive number the environment variable `name` holds, else
// `fallback`.
long long env_count(const char *name, long long fallback) {
  const char *e = std::getenv(name);
  const long long k = e ? std::atoll(e) : 0;
  return k > 0 ? k : fallback;
}

// GPUFFTW_TEST_SIZE_STRIDE=k: the sweeps visit every k-th length past
// those of the register kernels (each length code of its own) and of the
// direct DFT (which takes only the lengths Bluestein would). For racecheck
// (tools/gpu-sanitize.py), under which the whole sweep runs past a device
// call: a hazard is a barrier missing in a variant's code, which its every
// length runs, and every 17th length still runs every variant the tuner
// has (KernelsEverySizeRanges.EverySeventeenthLengthRunsEveryVariant).
int size_stride() { return static_cast<int>(env_count("GPUFFTW_TEST_SIZE_STRIDE", 1)); }

// The lengths lo..hi a sweep visits at `stride`.
std::vector<int> lengths(int lo, int hi, int stride) {
  std::vector<int> out;
  for (int n = lo; n <= hi; n += n < gpufftw::engine::kernels::kMaxDirectN ? 1 : stride) out.push_back(n);
  return out;
}

// Each n of lengths(lo, hi, size_stride()) at `batch`, in each variant
// where every_variant_at(n) (or the default alone; or those of `only`
// where given), each direction out of place and in place.
template <class T>
void check_sizes(int lo, int hi, long long batch, size_t offset, bool every_variant = true,
                 const std::vector<Variant> &only = {}) {
  std::mt19937 rng(std::random_device{}());
  const Real real = sizeof(T) == 4 ? Real::F32 : Real::F64;
  double worst = 0;
  int worst_n = 0, failures = 0, runs = 0;
  for (int n : lengths(lo, hi, size_stride())) {
    std::vector<Variant> variants = !only.empty()   ? only
                                    : every_variant ? swept_variants(n, real)
                                                    : StockhamPlan::variants(n, real);
    ASSERT_FALSE(variants.empty()) << "n=" << n;
    if (only.empty() && !every_variant) variants.resize(1);
    std::vector<std::unique_ptr<StockhamPlan>> plans;
    for (const Variant &v : variants) {
      std::string why;
      plans.push_back(StockhamPlan::create(n, real, batch, v, &why));
      ASSERT_TRUE(plans.back()) << "n=" << n << " " << v.name() << ": " << why;
    }
    Case<T> c(n, batch, offset, &rng);
    for (int sign : {-1, 1}) {
      c.reference(sign);
      for (const auto &plan : plans)
        for (bool in_place : {false, true}) {
          std::string why;
          const double err = c.run(*plan, sign, in_place, &why);
          ASSERT_GE(err, 0) << "n=" << n << " " << plan->describe() << ": " << why;
          ++runs;
          const double ratio = err / kernel_tolerance<T>(n);
          if (ratio > worst) worst = ratio, worst_n = n;
          if (ratio > 1 && ++failures <= 20)
            ADD_FAILURE() << "n=" << n << " sign=" << sign << (in_place ? " in place" : " out of place")
                          << " error " << err << " > " << kernel_tolerance<T>(n) << " (" << plan->describe() << ")";
        }
    }
  }
  EXPECT_EQ(failures, 0);
  std::printf("n=%d..%d batch %lld: %d runs, largest error/tolerance %.3f at n=%d\n", lo, hi, batch, runs, worst,
              worst_n);
}

// Every size 2..4096 in ranges, each a test of its own, so that they run
// side by side: under compute-sanitizer one process for all would take
// hours. Up to 300 every length runs every variant, so those ranges are
// shorter.
struct SizeRange {
  int lo, hi;
};
constexpr SizeRange kEverySize[] = {{2, 150},     {151, 300},   {301, 1300},  {1301, 1830},
                                    {1831, 2240}, {2241, 2590}, {2591, 2900}, {2901, 3170},
                                    {3171, 3430}, {3431, 3660}, {3661, 3890}, {3891, 4096}};

// The ranges are what the comment above says: 2..4096, each n once.
TEST(KernelsEverySizeRanges, TileTwoTo4096) {
  int next = 2;
  for (const SizeRange &r : kEverySize) {
    EXPECT_EQ(r.lo, next);
    EXPECT_LE(r.lo, r.hi);
    next = r.hi + 1;
  }
  EXPECT_EQ(next, 4097);
}

// What racecheck's stride leaves out of the sweep: lengths, not variants.
TEST(KernelsEverySizeRanges, EverySeventeenthLengthRunsEveryVariant) {
  for (Real real : {Real::F32, Real::F64}) {
    std::set<std::string> all, visited;
    for (int n = 2; n <= 4096; ++n)
      for (const Variant &v : swept_variants(n, real)) all.insert(v.name());
    for (const SizeRange &r : kEverySize)
      for (int n : lengths(r.lo, r.hi, 17))
        for (const Variant &v : swept_variants(n, real)) visited.insert(v.name());
    EXPECT_EQ(visited, all) << (real == Real::F32 ? "f32" : "f64");
  }
}

class EverySize : public Kernels, public testing::WithParamInterface<SizeRange> {};
TEST_P(EverySize, F32) { check_sizes<float>(GetParam().lo, GetParam().hi, 3, 0); }
TEST_P(EverySize, F64) { check_sizes<double>(GetParam().lo, GetParam().hi, 3, 0); }
INSTANTIATE_TEST_SUITE_P(Kernels, EverySize, testing::ValuesIn(kEverySize),
                         [](const testing::TestParamInfo<SizeRange> &i) {
                           return "n" + std::to_string(i.param.lo) + "to" + std::to_string(i.param.hi);
                         });

// The lengths of OffsetArraysAndManyBlocks, and the points of its batches
// of many blocks: about 10^6, or GPUFFTW_TEST_MANY_POINTS, its aligned
// batches shrinking alike. For racecheck (tools/gpu-sanitize.py sets
// 40009), under which 10^6 points in every variant run past a device
// call: a hazard is a barrier missing inside a block, which every block
// runs alike, and 40009 points still give every variant blocks enough,
// with a partial last one (KernelsManyBlocks.RacecheckPointsStillFillBlocks).
constexpr int kManyBlockLengths[] = {2, 3, 5, 16, 17, 63, 64, 127, 1000, 1009, 4093, 4096};
constexpr long long kManyPoints = 1000003;

long long many_points() { return env_count("GPUFFTW_TEST_MANY_POINTS", kManyPoints); }

// The first prime past points / n: whatever a block holds (more than one
// transform, fewer than the batch), the last block is partial.
long long many_blocks_batch(int n, long long points) {
  auto prime = [](long long b) {
    for (long long d = 2; d * d <= b; ++d)
      if (b % d == 0) return false;
    return true;
  };
  long long b = points / n + 1;
  while (!prime(b)) ++b;
  return b;
}

// Arrays one complex value past an aligned start (f32: the 16-byte loads'
// head and tail; f64: the 8-byte path), and batches of many blocks with a
// partial last one; then aligned arrays, 777 transforms at 10^6 points.
TEST_F(Kernels, OffsetArraysAndManyBlocks) {
  const long long points = many_points();
  for (int n : kManyBlockLengths) {
    SCOPED_TRACE(n);
    const long long batch = many_blocks_batch(n, points);
    check_sizes<float>(n, n, batch, 1);
    check_sizes<double>(n, n, batch, 1);
    check_sizes<float>(n, n, std::max(3LL, 777 * points / kManyPoints), 0);
  }
}

// What racecheck's points leave of the many blocks: in every variant of
// every length, at least three blocks, and a partial last one wherever a
// block holds several transforms.
TEST(KernelsManyBlocks, RacecheckPointsStillFillBlocks) {
  for (long long points : {kManyPoints, 40009LL})
    for (Real real : {Real::F32, Real::F64})
      for (int n : kManyBlockLengths) {
        const long long batch = many_blocks_batch(n, points);
        for (const Variant &v : StockhamPlan::variants(n, real)) {
          const int per = StockhamPlan::transforms_per_block(n, real, v);
          ASSERT_GT(per, 0) << n << " " << v.name();
          EXPECT_GE(batch, 2LL * per + 1) << points << " points, n=" << n << " " << v.name() << ": " << per;
          if (per > 1) {
            EXPECT_NE(batch % per, 0) << points << " points, n=" << n << " " << v.name() << ": " << per;
          }
        }
      }
}

// Lengths up to 64 with a prime factor above 13 (which Bluestein would
// take) have the direct DFT's variants first.
bool direct_by_default(int n) {
  int p = n;
  for (int f : {2, 3, 5, 7, 11, 13})
    while (p % f == 0) p /= f;
  return n <= 64 && p > 1;
}

// The direct DFT at every length it takes, the smooth ones too, in each
// block size, at batch 3 and over many blocks (a partial last one) on
// arrays one value past an aligned start (f32: the vector loads' head
// and tail).
TEST_F(Kernels, DirectEveryLength) {
  std::vector<Variant> direct;
  for (int block : {32, 64, 16, 1}) direct.push_back(Variant{Shape::Direct, block, false, false});
  check_sizes<float>(2, 64, 3, 0, true, direct);
  check_sizes<double>(2, 64, 3, 0, true, direct);
  for (int n : {2, 17, 31, 61, 62, 64}) {
    SCOPED_TRACE(n);
    check_sizes<float>(n, n, 100003 / n + 1, 1, true, direct);
    check_sizes<double>(n, n, 100003 / n + 1, 1, true, direct);
  }
}

// The direct DFT in a 2-D plan: its strided pass takes the stages instead.
TEST_F(Kernels, DirectInMultiPass) {
  const std::vector<long long> dims = {31, 17};
  const int n0 = 31, n1 = 17, batch = 2, total = n0 * n1 * batch;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<std::complex<double>> x(total), ref(total), y(total);
  for (auto &v : x) v = {u(rng), u(rng)};
  const int rank_n[2] = {n0, n1};
  fftw_plan p = fftw_plan_many_dft(2, rank_n, batch, reinterpret_cast<fftw_complex *>(x.data()), nullptr, 1,
                                   n0 * n1, reinterpret_cast<fftw_complex *>(ref.data()), nullptr, 1, n0 * n1,
                                   FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  std::string why;
  auto plan = TransformPlan::create(dims, Real::F64, batch, Variant{Shape::Direct, 32, false, false}, &why);
  ASSERT_TRUE(plan) << why;
  EXPECT_NE(plan->describe().find("direct-32"), std::string::npos) << plan->describe();
  EXPECT_NE(plan->describe().find("stages8-128"), std::string::npos) << plan->describe();
  void *dev = nullptr;
  const size_t bytes = sizeof(x[0]) * total;
  ASSERT_EQ(cudaMalloc(&dev, bytes), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(dev, x.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_TRUE(plan->run(dev, dev, -1, nullptr, &why)) << why;
  EXPECT_EQ(cudaMemcpy(y.data(), dev, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(dev);
  double err = 0, norm = 0;
  for (int i = 0; i < total; ++i) err += std::norm(y[i] - ref[i]), norm += std::norm(ref[i]);
  EXPECT_LT(std::sqrt(err / norm), kernel_tolerance<double>(n0 * n1)) << plan->describe();
}

// Which lengths list the direct DFT, and what it refuses (no GPU needed:
// planning turns these down before any CUDA call).
TEST(KernelVariants, DirectWhereBluesteinWouldRun) {
  for (int n = 2; n <= 4096; ++n)
    for (Real real : {Real::F32, Real::F64}) {
      const std::vector<Variant> v = StockhamPlan::variants(n, real);
      ASSERT_FALSE(v.empty()) << n;
      EXPECT_EQ(v[0].shape == Shape::Direct, direct_by_default(n)) << n << ": " << v[0].name();
      EXPECT_EQ(std::count_if(v.begin(), v.end(), [](const Variant &w) { return w.shape == Shape::Direct; }),
                direct_by_default(n) ? 6 : 0)
          << n;
    }
  std::string why;
  const Variant direct{Shape::Direct, 32, false, false};
  EXPECT_EQ(StockhamPlan::create(65, Real::F32, 1, direct, &why), nullptr);
  EXPECT_NE(why.find("n <= 64"), std::string::npos) << why;
  const Strides columns{17, {17, 1, 17 * 17}, {17, 1, 17 * 17}, 0};
  EXPECT_EQ(StockhamPlan::create(17, Real::F32, 17, direct, &why, &columns), nullptr);
  EXPECT_NE(why.find("strided pass has no direct-32"), std::string::npos) << why;
}

// Every variant's name parses back to it; the store keeps these names.
TEST(KernelVariants, NamesRoundTrip) {
  for (int n : {2, 7, 16, 17, 62, 1009, 4096})
    for (Real real : {Real::F32, Real::F64})
      for (const Variant &v : StockhamPlan::variants(n, real)) {
        Variant back;
        EXPECT_TRUE(Variant::parse(v.name(), &back)) << v.name();
        EXPECT_TRUE(back == v) << v.name() << " came back as " << back.name();
      }
  Variant v;
  for (const char *bad : {"", "stages16", "stages16-", "stages16-x", "stages16-256-m3", "registers-0", "cufft",
                          "stages8-0256", "registers-256-c", "stages8-128-cc", "registers-128-l2", "stages8-128-l2-c",
                          "direct", "direct-0", "direct-256-c", "direct-128-l2-c"})
    EXPECT_FALSE(Variant::parse(bad, &v)) << bad;
}

}  // namespace
