// Planning for the single-pass kernels: the variants of a length, its
// radices, the launch shape, and the tables (twiddles, Bluestein's chirp and the FFT of
// its conjugate, the direct DFT's roots), computed in double (or long
// double) and uploaded once per plan.
#include "engine/kernels/stockham.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <map>
#include <tuple>
#include <cmath>
#include <complex>
#include <vector>

namespace gpufftw::engine::kernels {
namespace {

using cd = std::complex<double>;

// One way to split a length into stages: their count, how many are
// composite radices, the largest radix (each fewer is better, in turn).
struct Split {
  int stages = 0, composites = 0, largest = 0;
  std::vector<int> radices;
  bool operator<(const Split &o) const {
    return std::tie(stages, composites, largest) < std::tie(o.stages, o.composites, o.largest);
  }
};

// The best split of 2^e[0] 3^e[1] 5^e[2] 7^e[3] into the given radices
// (memoised by exponents).
Split best_split(const std::array<int, 4> &e, const std::vector<int> &allowed,
                 std::map<std::array<int, 4>, Split> *memo) {
  if (e == std::array<int, 4>{0, 0, 0, 0}) return Split{};
  auto it = memo->find(e);
  if (it != memo->end()) return it->second;
  static constexpr int primes[4] = {2, 3, 5, 7};
  Split best;
  best.stages = 1 << 20;
  for (int r : allowed) {
    std::array<int, 4> rest = e;
    int left = r;
    for (int i = 0; i < 4; ++i)
      while (left % primes[i] == 0) left /= primes[i], --rest[i];
    if (left != 1 || *std::min_element(rest.begin(), rest.end()) < 0) continue;
    Split s = best_split(rest, allowed, memo);
    ++s.stages;
    s.composites += (r & (r - 1)) != 0 && r != 3 && r != 5 && r != 7;
    s.largest = std::max(s.largest, r);
    s.radices.push_back(r);
    if (s < best) best = s;
  }
  return (*memo)[e] = best;
}

// Radices of len for a shape, in kRadixOrder: the fewest stages, from
// powers of two up to 16 (Stages8: 8), 3, 5, 7, 11, 13 and where asked the
// composites 6, 9, 10, 12, 14. false when a prime factor is above 13.
bool factor(int len, Shape shape, bool composite, std::vector<int> *radices) {
  std::vector<int> allowed = {8, 4, 2, 7, 5, 3};
  if (shape == Shape::Stages16) allowed.insert(allowed.begin(), 16);
  if (composite) allowed.insert(allowed.end(), {14, 12, 10, 9, 6});
  for (int p : {13, 11})
    for (; len % p == 0; len /= p) radices->push_back(p);
  std::array<int, 4> e{};
  const int primes[4] = {2, 3, 5, 7};
  for (int i = 0; i < 4; ++i)
    for (; len % primes[i] == 0; len /= primes[i]) ++e[i];
  if (len != 1) return false;
  std::map<std::array<int, 4>, Split> memo;
  const Split s = best_split(e, allowed, &memo);
  radices->insert(radices->end(), s.radices.begin(), s.radices.end());
  auto rank = [](int r) { return std::find(std::begin(kRadixOrder), std::end(kRadixOrder), r) - std::begin(kRadixOrder); };
  std::sort(radices->begin(), radices->end(), [&](int a, int b) { return rank(a) < rank(b); });
  return true;
}

// Blocks over 200 KB of shared memory fit no device's SM twice.
constexpr size_t kMaxBlockShared = 200 * 1024;

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

// What a variant launches for n: the stages' length and radices, threads
// per transform, transforms and threads per block, shared bytes.
struct Layout {
  bool bluestein = false;
  int len = 0, tpt = 1, per_block = 1, threads = 1, slot = 0;
  std::vector<int> radices;
  size_t shared = 0;
};

// cols: a strided pass's columns a group (0: dense arrays).
bool layout(int n, Real real, const Variant &v, long long cols, Layout *l, std::string *why) {
  const bool f64 = real == Real::F64;
  l->len = n;
  if (cols && (v.shape == Shape::Registers || v.shape == Shape::Direct || v.composite || v.prefetch)) {
    if (why) *why = "kernels: a strided pass has no " + v.name();
    return false;
  }
  if (v.shape == Shape::Registers) {
    if (n > kMaxRegisterN || v.block < 1 || v.composite || v.prefetch) {
      if (why) *why = "kernels: " + v.name() + " is no registers variant of n <= " + std::to_string(kMaxRegisterN);
      return false;
    }
    l->per_block = v.block;
    l->threads = std::min(v.block, 256);
  } else if (v.shape == Shape::Direct) {
    if (n > kMaxDirectN || v.block < 1 || v.composite) {
      if (why) *why = "kernels: " + v.name() + " is no direct variant of n <= " + std::to_string(kMaxDirectN);
      return false;
    }
    l->tpt = n / 2 + 1;
    l->per_block = v.block;
    l->threads = direct_threads(l->tpt, l->per_block);
  } else {
    l->bluestein = !factor(n, v.shape, v.composite, &l->radices);
    if (l->bluestein) {
      if (v.composite) {
        if (why) *why = "kernels: n=" + std::to_string(n) + " runs Bluestein, which has no " + v.name();
        return false;
      }
      for (l->len = 1; l->len < 2 * n - 1;) l->len *= 2;
      l->radices.clear();
      factor(l->len, v.shape, false, &l->radices);
    }
    for (int r : l->radices) {
      const int butterflies = l->len / r;
      l->tpt = std::max(l->tpt, (butterflies + max_iters(v.shape, r) - 1) / max_iters(v.shape, r));
    }
    const int cap = v.shape == Shape::Stages8 && f64 ? 256 : kMaxThreads;
    if (l->tpt > cap || static_cast<int>(l->radices.size()) > kMaxStages) {
      if (why) *why = "kernels: n=" + std::to_string(n) + " as " + v.name() + " needs " + std::to_string(l->tpt) +
                      " threads a transform, over " + std::to_string(cap);
      return false;
    }
    l->per_block = std::max(1, std::min(v.block, cap) / l->tpt);
    l->threads = l->per_block * l->tpt;
  }
  const int shift = f64 ? 4 : 5;
  l->slot = (l->len - 1) + ((l->len - 1) >> shift) + 1;
  l->slot |= 1;  // odd: transforms of one block start on different banks
  const size_t value = 2 * (f64 ? sizeof(double) : sizeof(float));
  if (cols) {
    // 128 bytes of adjacent columns a row (more threads than the variant
    // aims at where that takes them) while shared memory holds them.
    const int cap = v.shape == Shape::Stages8 && f64 ? 256 : kMaxThreads;
    const long long wanted = std::max<long long>(l->per_block, std::min<long long>(128 / value, cap / l->tpt));
    l->per_block = static_cast<int>(std::max<long long>(1, std::min(wanted, cols)));
    while (l->per_block > 1 && value * l->per_block * l->slot > kMaxBlockShared) l->per_block /= 2;
    l->threads = l->per_block * l->tpt;
  }
  l->shared = block_shared(v.shape, value / 2, l->per_block, l->slot, n);
  return true;
}

// Four-step twiddles W_n^r, r < n, as lo[r % 4096] * hi[r / 4096].
void four_step_twiddles(long long n, std::vector<cd> *lo, std::vector<cd> *hi) {
  const long long b = 1LL << kTwiddleLoBits;
  for (long long r = 0; r < std::min(n, b); ++r) lo->push_back(root(r, n, -1));
  for (long long r = 0; r < (n + b - 1) / b; ++r) hi->push_back(root(r * b, n, -1));
}

const char *shape_name(Shape s) {
  switch (s) {
    case Shape::Registers: return "registers";
    case Shape::Stages16: return "stages16";
    case Shape::Stages8: return "stages8";
    default: return "direct";
  }
}

// cos and sin of 2*pi*m/n for m < n, each rounded once from long double.
std::vector<cd> direct_roots(int n) {
  const long double pi = 3.141592653589793238462643383279502884L;
  std::vector<cd> out;
  for (int m = 0; m < n; ++m) {
    const long double a = 2 * pi * m / n;
    out.emplace_back(static_cast<double>(std::cos(a)), static_cast<double>(std::sin(a)));
  }
  return out;
}

}  // namespace

std::string Variant::name() const {
  return std::string(shape_name(shape)) + "-" + std::to_string(block) + (composite ? "-c" : "") +
         (prefetch ? "-l2" : "");
}

bool Variant::parse(const std::string &s, Variant *v) {
  for (Shape shape : {Shape::Registers, Shape::Stages16, Shape::Stages8, Shape::Direct}) {
    const std::string prefix = std::string(shape_name(shape)) + "-";
    if (s.compare(0, prefix.size(), prefix) != 0) continue;
    int block = 0;
    try {
      block = std::stoi(s.substr(prefix.size()));
    } catch (const std::exception &) {
      return false;
    }
    // What it says, if it is the name of that.
    const Variant parsed{shape, block, s.find("-c", prefix.size()) != std::string::npos,
                         s.find("-l2", prefix.size()) != std::string::npos};
    if (block < 1 || parsed.name() != s || (shape == Shape::Registers && (parsed.composite || parsed.prefetch)) ||
        (shape == Shape::Direct && parsed.composite))
      return false;
    *v = parsed;
    return true;
  }
  return false;
}

std::vector<Variant> StockhamPlan::variants(int n, Real real) {
  std::vector<Variant> out;
  std::vector<std::pair<Variant, Layout>> seen;
  auto add = [&](const Variant &v) {
    Layout l;
    if (!layout(n, real, v, 0, &l, nullptr) || l.shared > kMaxBlockShared) return;
    // Kernels of one shape with the same stages and block launch alike
    // (the composite kernels only hold more registers).
    for (const auto &[w, s] : seen)
      if (w.shape == v.shape && w.prefetch == v.prefetch && s.radices == l.radices && s.per_block == l.per_block &&
          s.tpt == l.tpt)
        return;
    seen.emplace_back(v, l);
    out.push_back(v);
  };
  // First the variant that wins most often in the tuner's runs
  // (docs/kernels.md), since the first is the one used untimed. Up to
  // kMaxRegisterN registers alone: the stages do not beat them there, nor
  // do 512-thread blocks of stages beat the smaller ones.
  if (n <= kMaxRegisterN) {
    for (int block : {256, 128, 512, 1024}) add(Variant{Shape::Registers, block, false, false});
    return out;
  }
  // Where Bluestein would run (two FFTs of m >= 2n - 1 and the chirps),
  // the direct DFT first.
  std::vector<int> radices;
  if (n <= kMaxDirectN && !factor(n, Shape::Stages16, false, &radices))
    for (bool prefetch : {false, true})
      for (int block : {32, 64, 16}) add(Variant{Shape::Direct, block, false, prefetch});
  for (bool prefetch : {false, true})
    for (bool composite : {false, true})
      for (Shape shape : {Shape::Stages8, Shape::Stages16})
        for (int block : {128, 64, 256}) add(Variant{shape, block, composite, prefetch});
  return out;
}

int StockhamPlan::transforms_per_block(int n, Real real, const Variant &v) {
  Layout l;
  return supports(n) && layout(n, real, v, 0, &l, nullptr) ? l.per_block : 0;
}

bool StockhamPlan::upload(const void *host, size_t bytes, void **dev, const char *what, std::string *why) {
  cudaError_t e = cudaMalloc(dev, bytes);
  if (e == cudaSuccess) e = cudaMemcpy(*dev, host, bytes, cudaMemcpyHostToDevice);
  if (e != cudaSuccess && why)
    *why = std::string(*dev ? "cudaMemcpy" : "cudaMalloc") + " of the " + what + " table: " + cudaGetErrorString(e);
  return e == cudaSuccess;
}

KernelKind StockhamPlan::kind(int sign) const {
  const Mode mode = bluestein_ ? Mode::Bluestein : sign < 0 ? Mode::Forward : Mode::Backward;
  return KernelKind{mode, variant_.shape, variant_.composite, strided_};
}

std::unique_ptr<StockhamPlan> StockhamPlan::create(int n, Real real, long long batch, const Variant &v,
                                                   std::string *why, const Strides *strides) {
  if (!supports(n) || batch < 1 || (strides && (strides->cols < 1 || batch % strides->cols))) {
    if (why) *why = "kernels: n=" + std::to_string(n) + " batch=" + std::to_string(batch) + " outside 2..4096, >= 1" +
                    (strides ? ", a multiple of " + std::to_string(strides->cols) + " columns" : "");
    return nullptr;
  }
  Layout l;
  if (!layout(n, real, v, strides ? strides->cols : 0, &l, why)) return nullptr;
  std::unique_ptr<StockhamPlan> plan(new StockhamPlan);
  KernelParams &p = plan->p_;
  if (strides) {
    StridedParams &q = plan->q_;
    plan->strided_ = true;
    q.cols = strides->cols;
    q.blocks_per_group = static_cast<int>((strides->cols + l.per_block - 1) / l.per_block);
    q.per_block_magic = magic(l.per_block);
    q.in = strides->in;
    q.out = strides->out;
    q.twiddle_n = strides->twiddle_n;
  }
  plan->real_ = real;
  plan->variant_ = v;
  plan->bluestein_ = l.bluestein;
  p.n = n;
  p.len = l.len;
  p.batch = batch;
  p.n_magic = magic(n);
  p.stages = static_cast<int>(l.radices.size());
  p.tpt = l.tpt;
  p.per_block = l.per_block;
  p.slot = l.slot;
  plan->threads_ = l.threads;
  plan->shared_ = l.shared;

  std::vector<cd> tw = v.shape == Shape::Direct ? direct_roots(n) : std::vector<cd>{};
  int ns = 1;
  for (int s = 0; s < p.stages; ++s) {
    const int r = l.radices[s];
    p.stage[s] = Stage{r, ns, magic(ns), static_cast<int>(tw.size())};
    for (int j = 1; j < r; ++j)
      for (int k = 0; k < ns; ++k) tw.push_back(root(static_cast<long long>(j) * k, static_cast<long long>(ns) * r, -1));
    ns *= r;
  }

  int device = 0, limit = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  if (e != cudaSuccess) {
    if (why) *why = std::string("cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin): ") + cudaGetErrorString(e);
    return nullptr;
  }
  if (l.shared > static_cast<size_t>(limit)) {
    if (why) *why = "kernels: n=" + std::to_string(n) + " as " + v.name() + " needs " + std::to_string(l.shared) +
                    " bytes of shared memory per block, the device allows " + std::to_string(limit);
    return nullptr;
  }
  // Each kernel is allowed the device's whole limit once, so that plans
  // of different sizes never lower it under one another.
  for (int sign : {-1, 1}) {
    const KernelKind k = plan->kind(sign);
    if (l.shared > 48 * 1024) {
      e = real == Real::F32 ? allow_shared_f32(k, n, limit) : allow_shared_f64(k, n, limit);
      if (e != cudaSuccess) {
        if (why) *why = std::string("cudaFuncSetAttribute(MaxDynamicSharedMemorySize): ") + cudaGetErrorString(e);
        return nullptr;
      }
    }
  }
  cudaFuncAttributes attr{};
  e = real == Real::F32 ? attributes_f32(plan->kind(-1), n, &attr) : attributes_f64(plan->kind(-1), n, &attr);
  if (e != cudaSuccess) {
    if (why) *why = std::string("cudaFuncGetAttributes: ") + cudaGetErrorString(e);
    return nullptr;
  }
  plan->regs_ = attr.numRegs;
  plan->spill_ = static_cast<int>(attr.localSizeBytes);
  if (v.prefetch) {
    // A block prefetches the chunk of the block that starts about when it
    // ends: as many blocks on as are resident at once.
    int per_sm = 0, sms = 0;
    e = real == Real::F32 ? resident_blocks_f32(plan->kind(-1), n, l.threads, l.shared, &per_sm)
                          : resident_blocks_f64(plan->kind(-1), n, l.threads, l.shared, &per_sm);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess) {
      if (why) *why = std::string("cudaOccupancyMaxActiveBlocksPerMultiprocessor: ") + cudaGetErrorString(e);
      return nullptr;
    }
    p.ahead = std::max(1, per_sm) * sms;
  }

  std::vector<cd> chirp, kernel_ft, twiddle_lo, twiddle_hi;
  if (strides && strides->twiddle_n) four_step_twiddles(strides->twiddle_n, &twiddle_lo, &twiddle_hi);
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
      for (cd &x : b) kernel_ft.push_back(x / static_cast<double>(p.len));
    }
  }
  const std::vector<cd> *tables[5] = {&tw, &chirp, &kernel_ft, &twiddle_lo, &twiddle_hi};
  const char *names[5] = {"twiddle", "chirp", "chirp FFT", "four-step twiddle", "four-step twiddle"};
  for (int i = 0; i < 5; ++i) {
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
  plan->q_.twiddle_lo = plan->tables_[3];
  plan->q_.twiddle_hi = plan->tables_[4];
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
  const long long blocks =
      strided_ ? p.batch / q_.cols * q_.blocks_per_group : (p.batch + p.per_block - 1) / p.per_block;
  if (blocks > 0x7fffffffLL) {
    if (why) *why = "kernels: batch " + std::to_string(p.batch) + " needs more blocks than a grid holds";
    return false;
  }
  const KernelKind k = kind(sign);
  const Grid g{static_cast<unsigned>(blocks), threads_, shared_};
  cudaError_t e;
  if (strided_)
    e = real_ == Real::F32 ? launch_strided_f32(k, g, p, q_, in, out, stream)
                           : launch_strided_f64(k, g, p, q_, in, out, stream);
  else
    e = real_ == Real::F32 ? launch_f32(k, g, p, in, out, stream) : launch_f64(k, g, p, in, out, stream);
  if (e != cudaSuccess && why)
    *why = std::string("kernel launch (") + (strided_ ? "strided_kernel " : "fft_kernel ") + variant_.name() +
           "): " + cudaGetErrorString(e);
  return e == cudaSuccess;
}

std::string StockhamPlan::describe() const {
  std::string s = variant_.name() + ": " + (bluestein_ ? "bluestein m=" + std::to_string(p_.len) + " " : "");
  if (variant_.shape == Shape::Direct) s += "direct DFT of " + std::to_string(p_.n);
  else if (p_.stages == 0) s += std::to_string(p_.n) + " in registers";
  for (int i = 0; i < p_.stages; ++i) s += (i ? "x" : "") + std::to_string(p_.stage[i].radix);
  s += ", " + std::to_string(threads_) + " threads x " + std::to_string(p_.per_block) + " transforms" +
       (strided_ ? std::string(q_.twiddle_n ? " (strided, twiddled)" : " (strided)") : std::string()) +
       ", " + std::to_string(regs_) + " regs";
  if (p_.ahead) s += ", L2 prefetch " + std::to_string(p_.ahead) + " blocks ahead";
  return spill_ ? s + ", " + std::to_string(spill_) + " B local" : s;
}

}  // namespace gpufftw::engine::kernels
