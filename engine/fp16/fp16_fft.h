// The FP16 tensor-core FFT (after tcFFT): batched c2c transforms of
// rank 1 to 3 in half precision on dense device arrays, the DFT steps as
// mma.sync matrix products with the 16-point DFT matrix. Needs compute
// capability 8.0 or later; create() says so, and returns nullptr, below it.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

namespace gpufftw::engine::fp16 {

class Fp16Plan {
 public:
  // n: the transform's sizes, rank 1 to 3, row-major (n.back() contiguous),
  // each a power of two the kernels take (256 ... 4096). Plans n x batch on
  // the current device. nullptr (with `why`: the size, the device or the
  // CUDA call that failed) when it cannot.
  static std::unique_ptr<Fp16Plan> create(const std::vector<int> &n, long long batch, std::string *why);
  ~Fp16Plan();
  Fp16Plan(const Fp16Plan &) = delete;
  Fp16Plan &operator=(const Fp16Plan &) = delete;

  // One execute on `stream`, asynchronous. in and out: device arrays of
  // __half2 (re, im), transform i at i * prod(n); the same pointer for in
  // place. sign: -1 forward, +1 backward (FFTW's convention, unnormalised).
  // The plan may use a scratch array of its own, so one plan runs on one
  // stream at a time.
  bool run(const void *in, void *out, int sign, cudaStream_t stream, std::string *why) const;

  // For logs: "fp16 tensor cores 1024x1024: rows 16x16x4, cols 16x16x4".
  std::string describe() const;

 private:
  struct Impl;
  explicit Fp16Plan(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpufftw::engine::fp16
