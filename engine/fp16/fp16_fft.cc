// Planning for the FP16 tensor-core FFT: one pass per axis (the contiguous
// axis as rows, the others as strided columns), the DFT matrix's fragments
// for both signs on the device.
#include "engine/fp16/fp16_fft.h"

#include <cstddef>
#include <cstdint>

#include "engine/fp16/dft_fragments.h"
#include "engine/fp16/fp16_kernels.h"
#include "engine/fp16/tile_map.h"

namespace gpufftw::engine::fp16 {

struct Fp16Plan::Impl {
  std::vector<int> n;
  long long batch = 0;
  std::vector<Pass> passes;
  unsigned *fragments = nullptr;  // forward, then backward: 32 lanes x kFragmentRegs each
  ~Impl() { cudaFree(fragments); }
};

Fp16Plan::Fp16Plan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Fp16Plan::~Fp16Plan() = default;

namespace {

// Sets `why` (when asked for); nullptr for the planner to return.
std::nullptr_t fail(std::string *why, const std::string &what) {
  if (why) *why = "fp16 kernels: " + what;
  return nullptr;
}
std::nullptr_t fail(std::string *why, const std::string &call, cudaError_t e) {
  return fail(why, call + ": " + cudaGetErrorString(e));
}

bool supported_length(int n) { return n == 256 || n == 512 || n == 1024 || n == 2048 || n == 4096; }

}  // namespace

std::unique_ptr<Fp16Plan> Fp16Plan::create(const std::vector<int> &n, long long batch, std::string *why) {
  if (n.empty() || n.size() > 3) return fail(why, "rank " + std::to_string(n.size()) + " (takes 1 to 3)");
  for (int len : n)
    if (!supported_length(len))
      return fail(why, "length " + std::to_string(len) + " (takes 256, 512, 1024, 2048, 4096)");
  if (batch < 1) return fail(why, "batch " + std::to_string(batch));

  int device = 0, major = 0, minor = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e != cudaSuccess) return fail(why, "cudaGetDevice", e);
  e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  if (e != cudaSuccess) return fail(why, "cudaDeviceGetAttribute", e);
  if (major < 8)
    return fail(why, "needs compute capability 8.0 (mma.sync m16n8k16); the device has " + std::to_string(major) + "." +
                         std::to_string(minor));

  auto impl = std::make_unique<Impl>();
  impl->n = n;
  impl->batch = batch;
  // The contiguous axis first, over every transform of every row; then each
  // other axis as columns, its stride the product of the axes after it.
  long long inner = 1, outer = batch;
  for (size_t d = 0; d + 1 < n.size(); ++d) outer *= n[d];
  for (size_t d = n.size(); d-- > 0;) {
    Pass p{n[d], d + 1 < n.size(), outer, inner};
    if (!p.cols) p.stride = 0;
    impl->passes.push_back(p);
    inner *= n[d];
    if (d > 0) outer /= n[d - 1];
  }
  for (const Pass &p : impl->passes) {
    e = allow_shared(p);
    if (e != cudaSuccess) return fail(why, "cudaFuncSetAttribute (dynamic shared memory)", e);
  }

  const size_t words = 32 * kFragmentRegs;
  e = cudaMalloc(reinterpret_cast<void **>(&impl->fragments), 2 * words * sizeof(unsigned));
  if (e != cudaSuccess) return fail(why, "cudaMalloc of the DFT fragments", e);
  for (int i = 0; i < 2; ++i) {
    const std::vector<uint32_t> host = dft_fragments(i == 0 ? -1 : 1);
    e = cudaMemcpy(impl->fragments + i * words, host.data(), words * sizeof(unsigned), cudaMemcpyHostToDevice);
    if (e != cudaSuccess) return fail(why, "cudaMemcpy of the DFT fragments", e);
  }
  return std::unique_ptr<Fp16Plan>(new Fp16Plan(std::move(impl)));
}

bool Fp16Plan::run(const void *in, void *out, int sign, cudaStream_t stream, std::string *why) const {
  if (sign != -1 && sign != 1) {
    fail(why, "sign " + std::to_string(sign));
    return false;
  }
  const unsigned *fragments = impl_->fragments + (sign < 0 ? 0 : 32 * kFragmentRegs);
  const void *from = in;
  for (const Pass &p : impl_->passes) {
    const cudaError_t e = launch(p, sign, from, out, fragments, stream);
    if (e != cudaSuccess) {
      fail(why, std::string("kernel launch (n=") + std::to_string(p.n) + (p.cols ? ", columns)" : ", rows)"), e);
      return false;
    }
    from = out;
  }
  return true;
}

std::string Fp16Plan::describe() const {
  std::string dims, passes;
  for (size_t d = 0; d < impl_->n.size(); ++d) dims += (d ? "x" : "") + std::to_string(impl_->n[d]);
  for (const Pass &p : impl_->passes) {
    const int r = first_radix(p.n);
    std::string steps = r > 1 ? std::to_string(r) : "";
    for (int l = p.n / r; l > 1; l /= 16) steps += (steps.empty() ? "" : "x") + std::string("16");
    passes += std::string(passes.empty() ? "" : ", ") + (p.cols ? "columns " : "rows ") + steps + " (" +
              std::to_string(per_block(p)) + " a block)";
  }
  return "fp16 tensor cores " + dims + " batch " + std::to_string(impl_->batch) + ": " + passes;
}

}  // namespace gpufftw::engine::fp16
