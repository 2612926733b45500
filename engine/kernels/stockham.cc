// Planning for the single-pass kernels: the radices of a length, the
// launch shape, and the tables (twiddles, Bluestein's chirp and the FFT of
// its conjugate), computed in double and uploaded once per plan.
#include "engine/kernels/stockham.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace gpufftw::engine::kernels {
namespace {

using cd = std::complex<double>;

// Radices of len: its powers of two spread evenly over the fewest stages of
// at most 16, then one stage per odd prime factor. false when a prime
// factor is above 13.
bool factor(int len, std::vector<int> *radices) {
  int e = 0;
  for (; len % 2 == 0; len /= 2) ++e;
  const int stages = (e + 3) / 4;
  for (int i = 0; i < stages; ++i) radices->push_back(1 << (e / stages + (i < e % stages ? 1 : 0)));
  for (int p : {13, 11, 7, 5, 3})
    for (; len % p == 0; len /= p) radices->push_back(p);
  return len == 1;
}

// For x / d as __umulhi(x, magic), exact while x < 2^32 / d.
unsigned magic(int d) { return d == 1 ? 0u : static_cast<unsigned>((1ull << 32) / d + 1); }

// exp(sign * 2*pi*i * k / n), k reduced first so the angle stays small.
cd root(long long k, long long n, int sign) {
  k %= n;
  const double a = sign * 2 * M_PI * static_cast<double>(k) / static_cast<double>(n);
  return {std::cos(a), std::sin(a)};
}

// In-place forward FFT of a power-of-two length, in double, for the
// Bluestein kernel's transform (computed once per plan).
void host_fft(std::vector<cd> *v) {
  const size_t m = v->size();
  for (size_t i = 1, j = 0; i < m; ++i) {
    size_t bit = m >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) std::swap((*v)[i], (*v)[j]);
  }
  for (size_t len = 2; len <= m; len <<= 1)
    for (size_t i = 0; i < m; i += len)
      for (size_t k = 0; k < len / 2; ++k) {
        const cd t = root(static_cast<long long>(k), static_cast<long long>(len), -1) * (*v)[i + k + len / 2];
        (*v)[i + k + len / 2] = (*v)[i + k] - t;
        (*v)[i + k] += t;
      }
}

template <class T>
std::vector<T> narrow(const std::vector<cd> &v) {
  std::vector<T> out(2 * v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    out[2 * i] = static_cast<T>(v[i].real());
    out[2 * i + 1] = static_cast<T>(v[i].imag());
  }
  return out;
}

}  // namespace

bool StockhamPlan::upload(const void *host, size_t bytes, void **dev, const char *what, std::string *why) {
  cudaError_t e = cudaMalloc(dev, bytes);
  if (e == cudaSuccess) e = cudaMemcpy(*dev, host, bytes, cudaMemcpyHostToDevice);
  if (e != cudaSuccess && why)
    *why = std::string(*dev ? "cudaMemcpy" : "cudaMalloc") + " of the " + what + " table: " + cudaGetErrorString(e);
  return e == cudaSuccess;
}

std::unique_ptr<StockhamPlan> StockhamPlan::create(int n, Real real, long long batch, std::string *why) {
  if (!supports(n) || batch < 1) {
    if (why) *why = "kernels: n=" + std::to_string(n) + " batch=" + std::to_string(batch) + " outside 2..4096, >= 1";
    return nullptr;
  }
  std::unique_ptr<StockhamPlan> plan(new StockhamPlan);
  KernelParams &p = plan->p_;
  plan->real_ = real;
  std::vector<int> radices;
  plan->bluestein_ = !factor(n, &radices);
  p.n = n;
  p.len = n;
  if (plan->bluestein_) {
    for (p.len = 1; p.len < 2 * n - 1;) p.len *= 2;
    radices.clear();
    factor(p.len, &radices);
  }
  p.batch = batch;
  p.n_magic = magic(n);
  p.stages = static_cast<int>(radices.size());

  std::vector<cd> tw;
  int ns = 1;
  p.tpt = 1;
  for (int s = 0; s < p.stages; ++s) {
    const int r = radices[s];
    p.stage[s] = Stage{r, ns, magic(ns), static_cast<int>(tw.size())};
    for (int j = 1; j < r; ++j)
      for (int k = 0; k < ns; ++k) tw.push_back(root(static_cast<long long>(j) * k, static_cast<long long>(ns) * r, -1));
    const int butterflies = p.len / r;
    p.tpt = std::max(p.tpt, (butterflies + max_iters(r) - 1) / max_iters(r));
    ns *= r;
  }
  // About 256 threads a block. (More data per block would hide latency
  // better for tiny n, but a loop over transforms around the stages makes
  // the compiler hoist the butterflies' constants and spill.)
  const size_t value = real == Real::F32 ? sizeof(float) : sizeof(double);
  p.per_block = std::max(1, 256 / p.tpt);
  const int shift = real == Real::F32 ? 5 : 4;
  p.slot = (p.len - 1) + ((p.len - 1) >> shift) + 1;
  p.slot |= 1;  // odd: transforms of one block start on different banks
  const int shared = static_cast<int>(2 * value * p.per_block * p.slot);

  int device = 0, limit = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (e != cudaSuccess) {
    if (why) *why = std::string("cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin): ") + cudaGetErrorString(e);
    return nullptr;
  }
  if (shared > limit) {
    if (why) *why = "kernels: n=" + std::to_string(n) + " needs " + std::to_string(shared) +
                    " bytes of shared memory per block, the device allows " + std::to_string(limit);
    return nullptr;
  }
  if (shared > 48 * 1024) {
    const Mode modes[] = {Mode::Forward, Mode::Backward, Mode::Bluestein};
    for (Mode m : modes) {
      e = real == Real::F32 ? allow_shared_f32(m, shared) : allow_shared_f64(m, shared);
      if (e != cudaSuccess) {
        if (why) *why = std::string("cudaFuncSetAttribute(MaxDynamicSharedMemorySize): ") + cudaGetErrorString(e);
        return nullptr;
      }
    }
  }

  std::vector<cd> chirp, kernel_ft;
  if (plan->bluestein_) {
    // c[j] = exp(-i*pi*j^2/n) (j^2 reduced mod 2n, exactly); the product
    // with the FFT of conj(c) wrapped to m is the convolution X = c * (x*c
    // (*) conj(c)). Backward: the conjugates throughout.
    const long long two_n = 2LL * n;
    for (int sign : {-1, 1}) {
      for (long long j = 0; j < n; ++j) chirp.push_back(root(j * j % two_n, two_n, sign));
      std::vector<cd> b(p.len);
      for (int j = 0; j < n; ++j) b[j] = b[(p.len - j) % p.len] = std::conj(chirp[chirp.size() - n + j]);
      host_fft(&b);
      for (cd &v : b) kernel_ft.push_back(v / static_cast<double>(p.len));
    }
  }
  const std::vector<cd> *tables[3] = {&tw, &chirp, &kernel_ft};
  const char *names[3] = {"twiddle", "chirp", "chirp FFT"};
  for (int i = 0; i < 3; ++i) {
    if (tables[i]->empty()) continue;
    const bool ok = real == Real::F32
                        ? plan->upload(narrow<float>(*tables[i]).data(), tables[i]->size() * 2 * sizeof(float),
                                       &plan->tables_[i], names[i], why)
                        : plan->upload(narrow<double>(*tables[i]).data(), tables[i]->size() * 2 * sizeof(double),
                                       &plan->tables_[i], names[i], why);
    if (!ok) return nullptr;
  }
  p.tw = plan->tables_[0];
  p.chirp = plan->tables_[1];
  p.kernel_ft = plan->tables_[2];
  return plan;
}

StockhamPlan::~StockhamPlan() {
  for (void *t : tables_) cudaFree(t);
}

bool StockhamPlan::run(const void *in, void *out, int sign, cudaStream_t stream, std::string *why) const {
  KernelParams p = p_;
  const uintptr_t align = real_ == Real::F32 ? 8 : 16;
  p.vec = (reinterpret_cast<uintptr_t>(in) % align == 0 && reinterpret_cast<uintptr_t>(out) % align == 0) ? 1 : 0;
  p.dir = sign > 0 ? 1 : 0;
  if ((p.batch + p.per_block - 1) / p.per_block > 0x7fffffffLL) {
    if (why) *why = "kernels: batch " + std::to_string(p.batch) + " needs more blocks than a grid holds";
    return false;
  }
  const Mode mode = bluestein_ ? Mode::Bluestein : sign < 0 ? Mode::Forward : Mode::Backward;
  const cudaError_t e =
      real_ == Real::F32 ? launch_f32(mode, p, in, out, stream) : launch_f64(mode, p, in, out, stream);
  if (e != cudaSuccess && why) *why = std::string("kernel launch (fft_kernel): ") + cudaGetErrorString(e);
  return e == cudaSuccess;
}

std::string StockhamPlan::describe() const {
  std::string s = bluestein_ ? "bluestein m=" + std::to_string(p_.len) + ": " : "";
  for (int i = 0; i < p_.stages; ++i) s += (i ? "x" : "") + std::to_string(p_.stage[i].radix);
  return s + ", " + std::to_string(p_.tpt) + " threads x " + std::to_string(p_.per_block);
}

}  // namespace gpufftw::engine::kernels
