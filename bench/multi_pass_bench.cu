// The project's multi-pass transforms (1-D four-step past 4096 points, 2-D
// and 3-D) against cuFFT on device-resident data, in one process: c2c,
// forward, out of place, a batch large enough that every execute moves at
// least --mb megabytes (in + out; one transform where it alone is more).
// Each variant is timed (a VARIANT line each), then one RESULT line per
// (shape, precision): medians of --reps executes (cudaEvent), cuFFT's time
// over our best's (throughput ratio), a device copy of the same bytes for
// scale, and the relative L2 difference of our output from cuFFT's.
#include <cuda_runtime_api.h>
#include <cufft.h>

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
#include "engine/kernels/transform_plan.h"

namespace {

using gpufftw::engine::Real;
using gpufftw::engine::kernels::TransformPlan;
using gpufftw::engine::kernels::Variant;

// Relative L2 difference of the first `count` complex values of two device arrays.
template <class T>
double difference(const void *a, const void *b, size_t count) {
  std::vector<std::complex<T>> x(count), y(count);
  CHECK_CUDA(cudaMemcpy(x.data(), a, count * sizeof(x[0]), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(y.data(), b, count * sizeof(y[0]), cudaMemcpyDeviceToHost));
  double e = 0, r = 0;
  for (size_t i = 0; i < count; ++i) {
    e += std::norm(std::complex<double>(x[i]) - std::complex<double>(y[i]));
    r += std::norm(std::complex<double>(y[i]));
  }
  return std::sqrt(e / r);
}

std::string shape_name(const std::vector<long long> &dims) {
  std::string s;
  for (long long d : dims) s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

void bench(const std::vector<long long> &dims, Real real, double mb, int reps) {
  const char *prec = real == Real::F32 ? "f32" : "f64";
  const std::string name = shape_name(dims);
  long long n = 1;
  for (long long d : dims) n *= d;
  const size_t value = real == Real::F32 ? 8 : 16;
  const long long batch =
      std::max(1LL, static_cast<long long>(std::ceil(mb * 1e6 / (2.0 * static_cast<double>(n) * value))));
  const size_t bytes = static_cast<size_t>(batch) * n * value;
  size_t free_bytes = 0, total = 0;
  CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total));
  // in, out, our scratch and cuFFT's work area.
  if (4 * bytes > free_bytes) {
    std::printf("SKIP shape=%s prec=%s: %zu bytes a buffer, %zu free\n", name.c_str(), prec, bytes, free_bytes);
    return;
  }
  void *in = nullptr, *out = nullptr, *ref = nullptr;
  CHECK_CUDA(cudaMalloc(&in, bytes));
  CHECK_CUDA(cudaMalloc(&out, bytes));
  fill_reals(in, bytes / (value / 2), real == Real::F32, 0x1234u + static_cast<unsigned>(n));

  std::unique_ptr<TransformPlan> plan;
  double ours = 0;
  for (const Variant &v : TransformPlan::variants(dims, real)) {
    std::string why;
    auto candidate = TransformPlan::create(dims, real, batch, v, &why);
    bool ok = candidate != nullptr;
    const double ms = ok ? median_ms(reps, [&] { ok = ok && candidate->run(in, out, -1, nullptr, &why); }) : 0;
    if (!ok) {
      std::printf("VARIANT shape=%s prec=%s %s failed: %s\n", name.c_str(), prec, v.name().c_str(), why.c_str());
      continue;
    }
    std::printf("VARIANT shape=%s prec=%s %s ms=%.4f plan=\"%s\"\n", name.c_str(), prec, v.name().c_str(), ms,
                candidate->describe().c_str());
    std::fflush(stdout);
    if (!plan || ms < ours) ours = ms, plan = std::move(candidate);
  }
  if (!plan) {
    std::printf("FAIL shape=%s prec=%s: no variant ran\n", name.c_str(), prec);
    CHECK_CUDA(cudaFree(in));
    CHECK_CUDA(cudaFree(out));
    return;
  }
  std::string why;
  if (!plan->run(in, out, -1, nullptr, &why))
    std::printf("FAIL shape=%s prec=%s: %s\n", name.c_str(), prec, why.c_str());
  CHECK_CUDA(cudaDeviceSynchronize());
  const size_t checked = std::min<size_t>(static_cast<size_t>(batch) * n, 1 << 22);
  CHECK_CUDA(cudaMalloc(&ref, checked * value));
  CHECK_CUDA(cudaMemcpy(ref, out, checked * value, cudaMemcpyDeviceToDevice));
  plan.reset();  // its scratch back before cuFFT's work area

  const double copy = median_ms(reps, [&] { CHECK_CUDA(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice)); });
  cufftHandle h;
  std::vector<int> nn(dims.begin(), dims.end());
  CHECK_CUFFT(cufftPlanMany(&h, static_cast<int>(dims.size()), nn.data(), nullptr, 1, static_cast<int>(n), nullptr, 1,
                            static_cast<int>(n), real == Real::F32 ? CUFFT_C2C : CUFFT_Z2Z, static_cast<int>(batch)));
  const double theirs = median_ms(reps, [&] {
    if (real == Real::F32)
      CHECK_CUFFT(cufftExecC2C(h, static_cast<cufftComplex *>(in), static_cast<cufftComplex *>(out), CUFFT_FORWARD));
    else
      CHECK_CUFFT(cufftExecZ2Z(h, static_cast<cufftDoubleComplex *>(in), static_cast<cufftDoubleComplex *>(out),
                               CUFFT_FORWARD));
  });
  CHECK_CUFFT(cufftDestroy(h));
  CHECK_CUDA(cudaDeviceSynchronize());
  const double diff = real == Real::F32 ? difference<float>(ref, out, checked) : difference<double>(ref, out, checked);
  std::printf(
      "RESULT shape=%s prec=%s batch=%lld ours_ms=%.4f cufft_ms=%.4f ratio=%.2f copy_ms=%.4f ours_GBs=%.0f "
      "diff_vs_cufft=%.2e\n",
      name.c_str(), prec, batch, ours, theirs, theirs / ours, copy, 2.0 * bytes / ours / 1e6, diff);
  std::fflush(stdout);
  CHECK_CUDA(cudaFree(ref));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
}

// "8192,1024x1024,256x256x256" -> shapes.
std::vector<std::vector<long long>> parse_shapes(const char *s) {
  std::vector<std::vector<long long>> out(1);
  for (const char *p = s; *p;) {
    char *end = nullptr;
    out.back().push_back(std::strtoll(p, &end, 10));
    if (*end == ',') out.emplace_back();
    p = *end ? end + 1 : end;
  }
  return out;
}

}  // namespace

int main(int argc, char **argv) {
  std::string shapes =
      "8192,12288,16384,65536,1048576,4194304,10000,19683,4132864,16777216,64x64,1000x768,1024x1024,4096x4096,"
      "17x33x64,64x64x64,256x256x256,512x512x512";
  std::vector<Real> reals = {Real::F32, Real::F64};
  double mb = 256;
  int reps = 15;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--shapes") {
      shapes = v;
    } else if (a == "--prec") {
      reals = std::strcmp(v, "f32") == 0 ? std::vector<Real>{Real::F32}
              : std::strcmp(v, "f64") == 0 ? std::vector<Real>{Real::F64}
                                            : reals;
    } else if (a == "--mb") {
      mb = std::atof(v);
    } else if (a == "--reps") {
      reps = std::max(1, std::atoi(v));
    } else {
      std::fprintf(stderr, "usage: %s [--shapes N,N0xN1,N0xN1xN2,...] [--prec f32|f64|both] [--mb 256] [--reps 15]\n",
                   argv[0]);
      return 2;
    }
    ++i;
  }
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs; >= %.0f MB moved per execute, median of %d\n", prop.name, prop.multiProcessorCount,
              mb, reps);
  for (Real r : reals)
    for (const auto &dims : parse_shapes(shapes.c_str())) bench(dims, r, mb, reps);
  return 0;
}
