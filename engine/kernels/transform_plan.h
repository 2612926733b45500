// A whole batched c2c transform from our kernels, in as few passes through
// device memory as they allow: one (1-D, n <= 4096), two (1-D four-step
// for n = n1*n2 up to 4096^2: n2 columns of length n1, twiddled on store,
// into scratch, then n1 rows of length n2 stored transposed), or one per
// axis (2-D and 3-D, each axis up to 4096: rows dense, the other axes as
// coalesced columns in place in the output).
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/kernels/stockham.h"

namespace gpufftw::engine::kernels {

class TransformPlan {
 public:
  // dims row-major ({n}, {n0, n1} or {n0, n1, n2}); the batch's
  // transforms dense, one after another.
  static bool supports(const std::vector<long long> &dims);
  // The variants worth timing; the first is the one to use untimed. Past
  // one pass, one variant names every pass's kernel (a pass it does not
  // suit takes the single-pass default, or stages8-128 or stages16-128).
  static std::vector<Variant> variants(const std::vector<long long> &dims, Real real);
  // nullptr (with `why`) where it cannot be planned. The four-step plan
  // holds device scratch of the whole batch (n*batch complex values).
  static std::unique_ptr<TransformPlan> create(const std::vector<long long> &dims, Real real, long long batch,
                                               const Variant &v, std::string *why);
  ~TransformPlan();
  TransformPlan(const TransformPlan &) = delete;
  TransformPlan &operator=(const TransformPlan &) = delete;

  // As StockhamPlan::run, on the whole batch; in place allowed.
  bool run(const void *in, void *out, int sign, cudaStream_t stream, std::string *why) const;
  // Each pass's StockhamPlan::describe, "; " between; four-step says its split.
  std::string describe() const;

 private:
  TransformPlan() = default;
  bool add_pass(int n, Real real, long long batch, const Variant &v, const Strides *strides, std::string *why);

  std::vector<std::unique_ptr<StockhamPlan>> passes_;
  std::string split_;        // "four-step 1024x2048: " or ""
  void *scratch_ = nullptr;  // four-step: between its passes
};

}  // namespace gpufftw::engine::kernels
