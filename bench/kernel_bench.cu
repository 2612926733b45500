// The project's single-pass kernels against cuFFT on device-resident data,
// in one process: batched 1-D c2c, forward, out of place, a batch large
// enough that every execute moves at least --mb megabytes (in + out).
// Each of our variants of a size is timed (--variants all, the default), or
// only the untimed default (--variants default), or one by name; a VARIANT
// line each. Then one RESULT line per (size, precision): medians of --reps
// timed executes (cudaEvent), cuFFT's time over our best's (throughput
// ratio), our default's, a device copy of the same bytes for scale, and
// the relative L2 error of our best, cuFFT and the real FFTW against a
// reference in higher precision (FFTW double for f32; a long-double direct
// DFT of transform 0 for f64).
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench/device_timing.cuh"
#include "engine/kernels/stockham.h"

namespace {

using gpufftw::engine::Real;
using gpufftw::engine::kernels::StockhamPlan;
using gpufftw::engine::kernels::Variant;

template <class C>
double rel_l2(const C *x, const std::complex<long double> *ref, size_t count) {
  long double e = 0, r = 0;
  for (size_t i = 0; i < count; ++i) {
    const long double dr = static_cast<long double>(x[i].real()) - ref[i].real();
    const long double di = static_cast<long double>(x[i].imag()) - ref[i].imag();
    e += dr * dr + di * di;
    r += std::norm(ref[i]);
  }
  return static_cast<double>(std::sqrt(e / r));
}

// Forward DFT of one transform in long double, directly.
std::vector<std::complex<long double>> direct_dft(const std::complex<double> *x, int n) {
  std::vector<std::complex<long double>> w(n), out(n);
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int k = 0; k < n; ++k) w[k] = std::polar(1.0L, -2 * pi * k / n);
  for (int k = 0; k < n; ++k) {
    std::complex<long double> s = 0;
    for (long long j = 0, jk = 0; j < n; ++j, jk = (jk + k) % n)
      s += std::complex<long double>(x[j].real(), x[j].imag()) * w[jk];
    out[k] = s;
  }
  return out;
}

struct Buffers {
  void *in = nullptr, *out = nullptr;
  size_t bytes = 0;
};

struct Errors {
  double ours, cufft, fftw;
};

// The first `count` transforms of ours and cuFFT's output checked.
Errors check_f32(int n, long long count, const void *in, const void *ours, const void *theirs) {
  using cf = std::complex<float>;
  using cd = std::complex<double>;
  const size_t total = static_cast<size_t>(n) * count;
  std::vector<cf> x(total), a(total), b(total), f(total);
  std::vector<cd> xd(total), refd(total);
  CHECK_CUDA(cudaMemcpy(x.data(), in, total * sizeof(cf), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(a.data(), ours, total * sizeof(cf), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(b.data(), theirs, total * sizeof(cf), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < total; ++i) xd[i] = x[i];
  const int c = static_cast<int>(count);
  fftw_plan pd = fftw_plan_many_dft(1, &n, c, reinterpret_cast<fftw_complex *>(xd.data()), nullptr, 1, n,
                                    reinterpret_cast<fftw_complex *>(refd.data()), nullptr, 1, n, FFTW_FORWARD,
                                    FFTW_ESTIMATE);
  fftwf_plan pf = fftwf_plan_many_dft(1, &n, c, reinterpret_cast<fftwf_complex *>(x.data()), nullptr, 1, n,
                                      reinterpret_cast<fftwf_complex *>(f.data()), nullptr, 1, n, FFTW_FORWARD,
                                      FFTW_ESTIMATE);
  fftw_execute(pd);
  fftwf_execute(pf);
  fftw_destroy_plan(pd);
  fftwf_destroy_plan(pf);
  std::vector<std::complex<long double>> ref(refd.begin(), refd.end());
  return {rel_l2(a.data(), ref.data(), total), rel_l2(b.data(), ref.data(), total), rel_l2(f.data(), ref.data(), total)};
}

Errors check_f64(int n, const void *in, const void *ours, const void *theirs) {
  using cd = std::complex<double>;
  std::vector<cd> x(n), a(n), b(n), f(n);
  CHECK_CUDA(cudaMemcpy(x.data(), in, n * sizeof(cd), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(a.data(), ours, n * sizeof(cd), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(b.data(), theirs, n * sizeof(cd), cudaMemcpyDeviceToHost));
  fftw_plan p = fftw_plan_dft_1d(n, reinterpret_cast<fftw_complex *>(x.data()), reinterpret_cast<fftw_complex *>(f.data()),
                                 FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(p);
  fftw_destroy_plan(p);
  const auto ref = direct_dft(x.data(), n);
  return {rel_l2(a.data(), ref.data(), n), rel_l2(b.data(), ref.data(), n), rel_l2(f.data(), ref.data(), n)};
}

void bench(int n, Real real, double mb, int reps, const std::string &only, const Buffers &buf) {
  const size_t value = real == Real::F32 ? 8 : 16;
  const long long batch =
      std::max(1LL, static_cast<long long>(std::ceil(mb * 1e6 / (2.0 * static_cast<double>(n) * value))));
  const size_t bytes = static_cast<size_t>(batch) * n * value;
  const char *prec = real == Real::F32 ? "f32" : "f64";
  if (bytes > buf.bytes) {
    std::printf("SKIP n=%d prec=%s: %zu bytes over the buffers\n", n, prec, bytes);
    return;
  }
  const size_t reals = bytes / (value / 2);
  fill_reals(buf.in, reals, real == Real::F32, 0x1234u + n);

  std::vector<Variant> variants = StockhamPlan::variants(n, real);
  if (only == "default") {
    variants.resize(1);
  } else if (only != "all") {
    Variant v;
    if (!Variant::parse(only, &v)) {
      std::printf("FAIL n=%d prec=%s: no variant %s\n", n, prec, only.c_str());
      return;
    }
    variants = {v};
  }
  std::unique_ptr<StockhamPlan> plan;
  double ours = 0, dflt = 0;
  for (size_t i = 0; i < variants.size(); ++i) {
    std::string why;
    auto candidate = StockhamPlan::create(n, real, batch, variants[i], &why);
    bool ok = candidate != nullptr;
    const double ms = ok ? median_ms(reps, [&] { ok = ok && candidate->run(buf.in, buf.out, -1, nullptr, &why); }) : 0;
    if (!ok) {
      std::printf("VARIANT n=%d prec=%s %s failed: %s\n", n, prec, variants[i].name().c_str(), why.c_str());
      continue;
    }
    std::printf("VARIANT n=%d prec=%s ms=%.4f plan=\"%s\"\n", n, prec, ms, candidate->describe().c_str());
    if (i == 0) dflt = ms;
    if (!plan || ms < ours) ours = ms, plan = std::move(candidate);
  }
  if (!plan) {
    std::printf("FAIL n=%d prec=%s: no variant ran\n", n, prec);
    return;
  }
  std::string why;
  bool ok = plan->run(buf.in, buf.out, -1, nullptr, &why) && cudaDeviceSynchronize() == cudaSuccess;
  if (!ok) {
    std::printf("FAIL n=%d prec=%s: %s\n", n, prec, why.c_str());
    return;
  }
  const long long check_count = std::max(1LL, std::min(batch, 65536LL / n));
  std::vector<char> ours_out(bytes / batch * check_count);
  CHECK_CUDA(cudaMemcpy(ours_out.data(), buf.out, ours_out.size(), cudaMemcpyDeviceToHost));

  const double copy =
      median_ms(reps, [&] { CHECK_CUDA(cudaMemcpyAsync(buf.out, buf.in, bytes, cudaMemcpyDeviceToDevice)); });
  cufftHandle h;
  int nn = n;
  CHECK_CUFFT(cufftPlanMany(&h, 1, &nn, nullptr, 1, n, nullptr, 1, n, real == Real::F32 ? CUFFT_C2C : CUFFT_Z2Z,
                            static_cast<int>(batch)));
  const double theirs = median_ms(reps, [&] {
    if (real == Real::F32)
      CHECK_CUFFT(cufftExecC2C(h, static_cast<cufftComplex *>(buf.in), static_cast<cufftComplex *>(buf.out),
                               CUFFT_FORWARD));
    else
      CHECK_CUFFT(cufftExecZ2Z(h, static_cast<cufftDoubleComplex *>(buf.in),
                               static_cast<cufftDoubleComplex *>(buf.out), CUFFT_FORWARD));
  });
  CHECK_CUFFT(cufftDestroy(h));
  CHECK_CUDA(cudaDeviceSynchronize());

  void *ours_dev = nullptr;
  CHECK_CUDA(cudaMalloc(&ours_dev, ours_out.size()));
  CHECK_CUDA(cudaMemcpy(ours_dev, ours_out.data(), ours_out.size(), cudaMemcpyHostToDevice));
  const Errors err = real == Real::F32 ? check_f32(n, check_count, buf.in, ours_dev, buf.out)
                                       : check_f64(n, buf.in, ours_dev, buf.out);
  CHECK_CUDA(cudaFree(ours_dev));
  std::printf(
      "RESULT n=%d prec=%s batch=%lld ours_ms=%.4f cufft_ms=%.4f ratio=%.2f default_ms=%.4f copy_ms=%.4f "
      "ours_GBs=%.0f err_ours=%.2e err_cufft=%.2e err_fftw=%.2e plan=\"%s\"\n",
      n, prec, batch, ours, theirs, theirs / ours, dflt, copy, 2.0 * bytes / ours / 1e6, err.ours, err.cufft,
      err.fftw, plan->describe().c_str());
  std::fflush(stdout);
}

std::vector<int> default_sizes() {
  std::vector<int> s;
  for (int base : {1, 3, 5, 7})
    for (int n = base; n <= 4096; n *= 2)
      if (n >= 2) s.push_back(n);
  for (int n : {9, 11, 13, 15, 21, 25, 27, 49, 77, 121, 143, 169, 243, 343, 625, 1331, 2187, 2197, 3125, 17, 31,
                61, 127, 257, 1000, 1001, 1009, 2039, 3000, 4000, 4093, 4095})
    s.push_back(n);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<int> sizes = default_sizes();
  std::vector<Real> reals = {Real::F32, Real::F64};
  double mb = 256;
  int reps = 25;
  std::string only = "all";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--sizes" && std::strcmp(v, "all") == 0) {
      sizes.clear();
      for (int n = 2; n <= 4096; ++n) sizes.push_back(n);
      ++i;
    } else if (a == "--sizes") {
      sizes.clear();
      for (const char *p = v; *p;) {
        char *end = nullptr;
        sizes.push_back(static_cast<int>(std::strtol(p, &end, 10)));
        p = *end ? end + 1 : end;
      }
      ++i;
    } else if (a == "--prec") {
      reals = std::strcmp(v, "f32") == 0 ? std::vector<Real>{Real::F32}
              : std::strcmp(v, "f64") == 0 ? std::vector<Real>{Real::F64}
                                            : reals;
      ++i;
    } else if (a == "--mb") {
      mb = std::atof(v);
      ++i;
    } else if (a == "--variants") {
      only = v;
      ++i;
    } else if (a == "--reps") {
      reps = std::max(1, std::atoi(v));
      ++i;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--sizes default|all|N,N,...] [--prec f32|f64|both] [--mb 256] [--reps 25] "
                   "[--variants all|default|NAME]\n", argv[0]);
      return 2;
    }
  }
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs; >= %.0f MB moved per execute, median of %d\n", prop.name,
              prop.multiProcessorCount, mb, reps);
  Buffers buf;
  buf.bytes = static_cast<size_t>(mb * 1e6 / 2) + 4096 * 16;
  CHECK_CUDA(cudaMalloc(&buf.in, buf.bytes));
  CHECK_CUDA(cudaMalloc(&buf.out, buf.bytes));
  for (Real r : reals)
    for (int n : sizes) bench(n, r, mb, reps, only, buf);
  CHECK_CUDA(cudaFree(buf.in));
  CHECK_CUDA(cudaFree(buf.out));
  return 0;
}
