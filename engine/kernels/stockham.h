// The project's own batched 1-D c2c FFT for n = 2 ... 4096, f32 and f64, on
// dense device arrays (transform i at in + i*n, out + i*n; in place
// allowed): one kernel, one pass through device memory. Lengths up to 16
// can run whole in each thread's registers; sizes whose prime factors are
// all <= 13 run as a mixed-radix Stockham FFT in shared memory; the others
// by Bluestein's chirp-z inside the same pass, on a padded length m >=
// 2n - 1 (a power of two), or up to 64 as a direct DFT from a table of
// roots. Several variants of each (shape, block size)
// let a tuner time them and keep the fastest. With Strides, the same
// stages run as one pass of a multi-pass transform (transform_plan.h) on
// strided columns.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/kernels/kernel_params.h"

namespace gpufftw::engine::kernels {

// One way of running a length.
struct Variant {
  Shape shape = Shape::Stages16;
  // Registers and Direct: transforms per block; Stages*: threads per
  // block aimed at (whole transforms per block, at least one).
  int block = 128;
  bool composite = false;  // Stages*: the kernels with composite radices (kRadixOrder)
  bool prefetch = false;   // Stages* and Direct: each block brings a later block's chunk into L2

  // "registers-256", "stages16-128", "stages8-64-c", "stages8-128-c-l2",
  // "direct-32", "direct-64-l2":
  // what the dispatch store keeps; parse takes it back (false for
  // anything else).
  std::string name() const;
  static bool parse(const std::string &s, Variant *v);
  bool operator==(const Variant &o) const {
    return shape == o.shape && block == o.block && composite == o.composite && prefetch == o.prefetch;
  }
};

// A strided pass (the passes of transform_plan.h): the batch is groups of
// `cols` adjacent columns, each side laid out as its SideLayout says, and
// the output twiddled by W_{twiddle_n}^(column*element) where twiddle_n > 0.
struct Strides {
  long long cols = 1;
  SideLayout in{}, out{};
  long long twiddle_n = 0;
};

class StockhamPlan {
 public:
  static bool supports(long long n) { return n >= 2 && n <= 4096; }
  // The variants worth timing for n, distinct in what they launch; the
  // first is the one to use untimed.
  static std::vector<Variant> variants(int n, Real real);
  // Transforms a block of `v` holds at n on dense arrays; 0 where v cannot
  // run n.
  static int transforms_per_block(int n, Real real, const Variant &v);
  // Plans n x batch as `v` and uploads its tables to the current device;
  // nullptr (with `why` naming the CUDA call or the limit) when it cannot.
  // With `strides`, a strided pass (Stages* variants without -c or -l2
  // only; batch a multiple of strides->cols), else dense arrays.
  static std::unique_ptr<StockhamPlan> create(int n, Real real, long long batch, const Variant &v,
                                              std::string *why, const Strides *strides = nullptr);
  ~StockhamPlan();
  StockhamPlan(const StockhamPlan &) = delete;
  StockhamPlan &operator=(const StockhamPlan &) = delete;

  // One execute on `stream`, asynchronous. sign: -1 forward, +1 backward
  // (FFTW's convention, unnormalized). in and out are device arrays of
  // n*batch complex values (interleaved), the same pointer for in place
  // (a strided pass: in place where both sides lie alike).
  bool run(const void *in, void *out, int sign, cudaStream_t stream, std::string *why) const;

  // "stages16-256: 16x16x16, 256 threads x 1 transforms, 119 regs",
  // "stages8-128: bluestein m=2048 8x8x8x4, ..." or "direct-256: direct
  // DFT of 17, 252 threads x 32 transforms, ..." for logs.
  std::string describe() const;
  bool bluestein() const { return bluestein_; }
  const Variant &variant() const { return variant_; }

 private:
  StockhamPlan() = default;
  bool upload(const void *host, size_t bytes, void **dev, const char *what, std::string *why);
  KernelKind kind(int sign) const;

  KernelParams p_{};
  bool strided_ = false;
  StridedParams q_{};
  Real real_ = Real::F32;
  Variant variant_;
  bool bluestein_ = false;
  int threads_ = 0;           // a block's, as its layout says
  size_t shared_ = 0;         // a block's dynamic shared bytes, as its layout says
  int regs_ = 0, spill_ = 0;  // the forward kernel's registers and local bytes per thread
  void *tables_[5] = {};  // twiddles, chirp, kernel FT, four-step twiddles (lo, hi)
};

}  // namespace gpufftw::engine::kernels
