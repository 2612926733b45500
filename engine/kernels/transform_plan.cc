#include "engine/kernels/transform_plan.h"

#include <algorithm>

#include "engine/kernels/four_step_split.h"

namespace gpufftw::engine::kernels {
namespace {

bool one_pass(const std::vector<long long> &dims) { return dims.size() == 1 && StockhamPlan::supports(dims[0]); }

}  // namespace

bool TransformPlan::supports(const std::vector<long long> &dims) {
  if (dims.size() == 1) {
    int n1 = 0, n2 = 0;
    return StockhamPlan::supports(dims[0]) ||
           (dims[0] <= kMaxPassLength * kMaxPassLength && four_step_split(dims[0], &n1, &n2));
  }
  if (dims.size() != 2 && dims.size() != 3) return false;
  return std::all_of(dims.begin(), dims.end(), [](long long n) { return StockhamPlan::supports(n); });
}

std::vector<Variant> TransformPlan::variants(const std::vector<long long> &dims, Real real) {
  if (!supports(dims)) return {};
  if (one_pass(dims)) return StockhamPlan::variants(static_cast<int>(dims[0]), real);
  std::vector<Variant> out;
  for (Shape shape : {Shape::Stages16, Shape::Stages8})
    for (int block : {128, 256, 64}) out.push_back(Variant{shape, block, false, false});
  return out;
}

bool TransformPlan::add_pass(int n, Real real, long long batch, const Variant &v, const Strides *strides,
                             std::string *why) {
  // v first, then the pass's own choice where v does not suit it
  // (columns: the stages at 128 threads); rows of n <= 16 take theirs
  // first, in registers. Each variant is tried once.
  const Variant own = StockhamPlan::variants(n, real)[0];
  const std::vector<Variant> order =
      strides ? std::vector<Variant>{v, Variant{Shape::Stages8, 128, false, false},
                                     Variant{Shape::Stages16, 128, false, false}}
      : n <= kMaxRegisterN ? std::vector<Variant>{own, v}
                           : std::vector<Variant>{v, own};
  std::vector<Variant> tries;
  for (const Variant &t : order)
    if (std::find(tries.begin(), tries.end(), t) == tries.end()) tries.push_back(t);
  for (const Variant &t : tries) {
    auto pass = StockhamPlan::create(n, real, batch, t, why, strides);
    if (pass) {
      passes_.push_back(std::move(pass));
      return true;
    }
  }
  return false;
}

std::unique_ptr<TransformPlan> TransformPlan::create(const std::vector<long long> &dims, Real real, long long batch,
                                                     const Variant &v, std::string *why) {
  if (!supports(dims) || batch < 1) {
    if (why) *why = "kernels: a shape our kernels do not take (each axis 2..4096, or 1-D n1*n2 up to 4096^2)";
    return nullptr;
  }
  std::unique_ptr<TransformPlan> plan(new TransformPlan);
  if (one_pass(dims)) {
    auto pass = StockhamPlan::create(static_cast<int>(dims[0]), real, batch, v, why);
    if (!pass) return nullptr;
    plan->passes_.push_back(std::move(pass));
    return plan;
  }
  long long total = 1;
  for (long long n : dims) total *= n;
  if (dims.size() == 1) {
    int n1 = 0, n2 = 0;
    four_step_split(total, &n1, &n2);
    plan->split_ = "four-step " + std::to_string(n1) + "x" + std::to_string(n2) + ": ";
    // x[j1*n2 + j2] -> columns j2 over j1, times W_n^(j2*k1), into
    // scratch[k1*n2 + j2]; rows k1 over j2 -> X[k1 + n1*k2].
    Strides columns{n2, {n2, 1, total}, {n2, 1, total}, total};
    Strides rows{n1, {1, n2, total}, {n1, 1, total}, 0};
    if (!plan->add_pass(n1, real, n2 * batch, v, &columns, why) ||
        !plan->add_pass(n2, real, n1 * batch, v, &rows, why))
      return nullptr;
    const size_t bytes = static_cast<size_t>(total) * batch * 2 * (real == Real::F32 ? sizeof(float) : sizeof(double));
    const cudaError_t e = cudaMalloc(&plan->scratch_, bytes);
    if (e != cudaSuccess) {
      if (why) *why = std::string("cudaMalloc of the four-step scratch: ") + cudaGetErrorString(e);
      return nullptr;
    }
    return plan;
  }
  // Rows dense into the output, then each earlier axis in place as columns:
  // axis a has `inner` (the product of the axes after it) adjacent columns.
  const int last = static_cast<int>(dims.size()) - 1;
  if (!plan->add_pass(static_cast<int>(dims[last]), real, total / dims[last] * batch, v, nullptr, why)) return nullptr;
  long long inner = dims[last];
  for (int a = last - 1; a >= 0; --a) {
    const SideLayout side{inner, 1, inner * dims[a]};
    const Strides columns{inner, side, side, 0};
    if (!plan->add_pass(static_cast<int>(dims[a]), real, total / dims[a] * batch, v, &columns, why)) return nullptr;
    inner *= dims[a];
  }
  return plan;
}

TransformPlan::~TransformPlan() { cudaFree(scratch_); }

bool TransformPlan::run(const void *in, void *out, int sign, cudaStream_t stream, std::string *why) const {
  if (scratch_)
    return passes_[0]->run(in, scratch_, sign, stream, why) && passes_[1]->run(scratch_, out, sign, stream, why);
  if (!passes_[0]->run(in, out, sign, stream, why)) return false;
  for (size_t i = 1; i < passes_.size(); ++i)
    if (!passes_[i]->run(out, out, sign, stream, why)) return false;
  return true;
}

std::string TransformPlan::describe() const {
  std::string s = split_;
  for (size_t i = 0; i < passes_.size(); ++i) s += (i ? "; " : "") + passes_[i]->describe();
  return s;
}

}  // namespace gpufftw::engine::kernels
