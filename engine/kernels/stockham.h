// The project's own batched 1-D c2c FFT for n = 2 ... 4096, f32 and f64, on
// dense device arrays (transform i at in + i*n, out + i*n; in place
// allowed): one kernel, one pass through device memory. Sizes whose prime
// factors are all <= 13 run as a mixed-radix Stockham FFT in shared memory;
// the others by Bluestein's chirp-z inside the same pass, on a power of two
// m >= 2n - 1.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "engine/engine.h"
#include "engine/kernels/kernel_params.h"

namespace gpufftw::engine::kernels {

class StockhamPlan {
 public:
  static bool supports(long long n) { return n >= 2 && n <= 4096; }
  // Plans n x batch and uploads its tables to the current device; nullptr
  // (with `why` naming the CUDA call or the limit) when it cannot.
  static std::unique_ptr<StockhamPlan> create(int n, Real real, long long batch, std::string *why);
  ~StockhamPlan();
  StockhamPlan(const StockhamPlan &) = delete;
  StockhamPlan &operator=(const StockhamPlan &) = delete;

  // One execute on `stream`, asynchronous. sign: -1 forward, +1 backward
  // (FFTW's convention, unnormalized). in and out are device arrays of
  // n*batch complex values (interleaved), the same pointer for in place.
  bool run(const void *in, void *out, int sign, cudaStream_t stream, std::string *why) const;

  // "16x16x16, 256 threads x 1" or "bluestein m=2048: 16x8x16, ..." for logs.
  std::string describe() const;
  bool bluestein() const { return bluestein_; }

 private:
  StockhamPlan() = default;
  bool upload(const void *host, size_t bytes, void **dev, const char *what, std::string *why);

  KernelParams p_{};
  Real real_ = Real::F32;
  bool bluestein_ = false;
  void *tables_[3] = {nullptr, nullptr, nullptr};  // twiddles, chirp, kernel FT
};

}  // namespace gpufftw::engine::kernels
