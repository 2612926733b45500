// The FP16 tensor-core FFT (engine/fp16) against cuFFT's FP16 (cufftXt,
// CUDA_C_16F) and cuFFT's FP32, in one process, on device-resident data,
// forward, out of place: batched 1-D 256 ... 4096, 2-D 1024^2 ... 4096^2
// and 3-D 512^3, each problem batched to at least 16M points (256 MB in
// and out in FP32 terms) except 3-D. One RESULT line per problem: medians
// of --reps timed executes (cudaEvent), cuFFT's times over ours
// (throughput ratios), a device copy of the FP16 bytes for scale, and each
// one's relative L2 error against the real FFTW in double on the same
// (half-precision) input, over the first transforms up to 16M points.
// Then cuFFT as an FFTW program's execute on float arrays would have it,
// by the host's clock around calls that return with their result: its
// FP32 on the floats, and its FP16 on halves converted from the floats
// and back on the device (the peers of gpufftw's own plans on device
// float arrays, which fft_bench times the same way).
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cufftXt.h>
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/device_timing.cuh"
#include "engine/kernels/device_half.h"
#include "engine/fp16/fp16_fft.h"

namespace {

using gpufftw::engine::fp16::device_to_float;
using gpufftw::engine::fp16::device_to_half;
using gpufftw::engine::fp16::Fp16Plan;

// Values in [-0.5, 0.5) from a hash of the index, as half and as the same
// values in float (cuFFT FP32's input).
__global__ void fill(__half2 *h, float2 *f, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    float v[2];
    for (int k = 0; k < 2; ++k) {
      unsigned x = static_cast<unsigned>(2 * i + k) * 0x9E3779B9u ^ seed ^ static_cast<unsigned>(i >> 31) * 0x85EBCA6Bu;
      x ^= x >> 16;
      x *= 0x7FEB352Du;
      x ^= x >> 15;
      x *= 0x846CA68Bu;
      x ^= x >> 16;
      v[k] = static_cast<float>(x) * 2.3283064365386963e-10f - 0.5f;
    }
    h[i] = __floats2half2_rn(v[0], v[1]);
    f[i] = __half22float2(h[i]);
  }
}

// Milliseconds by the host's clock: the median of `reps` calls, each
// waited for on the default stream before the clock stops, as an FFTW
// program's execute returns with its result; after three to warm up.
template <class F>
double median_synced_ms(int reps, F &&call) {
  for (int i = 0; i < 3; ++i) {
    call();
    CHECK_CUDA(cudaStreamSynchronize(nullptr));
  }
  std::vector<double> ms(reps);
  for (double &m : ms) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    CHECK_CUDA(cudaStreamSynchronize(nullptr));
    m = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  CHECK_CUDA(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[reps / 2];
}

using cd = std::complex<double>;

std::vector<cd> from_half(const void *dev, size_t count) {
  std::vector<__half2> h(count);
  CHECK_CUDA(cudaMemcpy(h.data(), dev, count * sizeof(__half2), cudaMemcpyDeviceToHost));
  std::vector<cd> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = {__low2float(h[i]), __high2float(h[i])};
  return v;
}
std::vector<cd> from_float(const void *dev, size_t count) {
  std::vector<std::complex<float>> f(count);
  CHECK_CUDA(cudaMemcpy(f.data(), dev, count * sizeof(float2), cudaMemcpyDeviceToHost));
  return std::vector<cd>(f.begin(), f.end());
}
double rel_l2(const std::vector<cd> &x, const std::vector<cd> &ref) {
  double e = 0, r = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    e += std::norm(x[i] - ref[i]);
    r += std::norm(ref[i]);
  }
  const double rel = std::sqrt(e / r);
  return std::isnan(rel) ? 1 : rel;
}

struct Problem {
  std::vector<int> n;
  long long batch;
};

void bench(const Problem &pb, int reps) {
  long long size = 1;
  std::string name;
  for (int v : pb.n) size *= v, name += (name.empty() ? "" : "x") + std::to_string(v);
  const size_t count = static_cast<size_t>(size * pb.batch);
  const char *kind = pb.n.size() == 1 ? "1d" : pb.n.size() == 2 ? "2d" : "3d";

  __half2 *hin, *hout, *hout16;
  float2 *fin, *fout;
  CHECK_CUDA(cudaMalloc(&hin, count * sizeof(__half2)));
  CHECK_CUDA(cudaMalloc(&hout, count * sizeof(__half2)));
  CHECK_CUDA(cudaMalloc(&hout16, count * sizeof(__half2)));
  CHECK_CUDA(cudaMalloc(&fin, count * sizeof(float2)));
  CHECK_CUDA(cudaMalloc(&fout, count * sizeof(float2)));
  fill<<<4096, 256>>>(hin, fin, count, 0x5eed0000u + static_cast<unsigned>(size));
  CHECK_CUDA(cudaGetLastError());

  std::string why;
  const auto ours = Fp16Plan::create(pb.n, pb.batch, &why);
  if (!ours) {
    std::printf("FAIL %s %s: %s\n", kind, name.c_str(), why.c_str());
    std::exit(1);
  }
  std::vector<long long> n64(pb.n.begin(), pb.n.end());
  const int rank = static_cast<int>(pb.n.size());
  cufftHandle p16, p32;
  size_t work = 0;
  CHECK_CUFFT(cufftCreate(&p16));
  CHECK_CUFFT(cufftXtMakePlanMany(p16, rank, n64.data(), nullptr, 1, size, CUDA_C_16F, nullptr, 1, size, CUDA_C_16F,
                                  pb.batch, &work, CUDA_C_16F));
  CHECK_CUFFT(cufftCreate(&p32));
  CHECK_CUFFT(cufftXtMakePlanMany(p32, rank, n64.data(), nullptr, 1, size, CUDA_C_32F, nullptr, 1, size, CUDA_C_32F,
                                  pb.batch, &work, CUDA_C_32F));

  bool ok = true;
  const double t_ours = median_ms(reps, [&] { ok = ok && ours->run(hin, hout, -1, nullptr, &why); });
  if (!ok) {
    std::printf("FAIL %s %s: %s\n", kind, name.c_str(), why.c_str());
    std::exit(1);
  }
  const double t16 = median_ms(reps, [&] { CHECK_CUFFT(cufftXtExec(p16, hin, hout16, CUFFT_FORWARD)); });
  const double t32 = median_ms(reps, [&] { CHECK_CUFFT(cufftXtExec(p32, fin, fout, CUFFT_FORWARD)); });
  const double tcopy = median_ms(reps, [&] {
    CHECK_CUDA(cudaMemcpyAsync(hout, hin, count * sizeof(__half2), cudaMemcpyDeviceToDevice));
  });
  // As on an FFTW program's device float arrays (fin to fout), synced.
  const long long values = 2 * static_cast<long long>(count);  // floats, and halves
  const double t32_synced = median_synced_ms(reps, [&] { CHECK_CUFFT(cufftXtExec(p32, fin, fout, CUFFT_FORWARD)); });
  const double t16_floats_synced = median_synced_ms(reps, [&] {
    // The library's own conversions of device arrays, as its fp16 plans
    // make them.
    CHECK_CUDA(
        device_to_half(reinterpret_cast<const float *>(fin), reinterpret_cast<uint16_t *>(hout), values, nullptr));
    CHECK_CUFFT(cufftXtExec(p16, hout, hout16, CUFFT_FORWARD));
    CHECK_CUDA(device_to_float(reinterpret_cast<const uint16_t *>(hout16), reinterpret_cast<float *>(fout), values,
                               nullptr));
  });
  // Those and the copy overwrote every output: each once more for the
  // errors.
  CHECK_CUFFT(cufftXtExec(p16, hin, hout16, CUFFT_FORWARD));
  CHECK_CUFFT(cufftXtExec(p32, fin, fout, CUFFT_FORWARD));
  ok = ours->run(hin, hout, -1, nullptr, &why);
  CHECK_CUDA(cudaDeviceSynchronize());

  // The first transforms, up to 16M points, against FFTW double.
  const long long checked = std::max(1LL, std::min(pb.batch, (1LL << 24) / size));
  const size_t cc = static_cast<size_t>(checked * size);
  std::vector<cd> ref = from_half(hin, cc);
  auto *r = reinterpret_cast<fftw_complex *>(ref.data());
  fftw_plan plan = fftw_plan_many_dft(rank, pb.n.data(), static_cast<int>(checked), r, nullptr, 1, static_cast<int>(size),
                                      r, nullptr, 1, static_cast<int>(size), FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  const double e_ours = rel_l2(from_half(hout, cc), ref), e16 = rel_l2(from_half(hout16, cc), ref),
               e32 = rel_l2(from_float(fout, cc), ref);

  const double gb = 2.0 * count * sizeof(__half2) / 1e9;
  std::printf(
      "RESULT %s n=%s batch=%lld ours_ms=%.4f cufft16_ms=%.4f cufft32_ms=%.4f copy16_ms=%.4f "
      "speedup_vs_cufft16=%.2f speedup_vs_cufft32=%.2f ours_passes_GBps=%.0f err_ours=%.2e err_cufft16=%.2e "
      "err_cufft32=%.2e checked=%lld cufft32_synced_ms=%.4f cufft16_floats_synced_ms=%.4f\n",
      kind, name.c_str(), pb.batch, t_ours, t16, t32, tcopy, t16 / t_ours, t32 / t_ours,
      gb * static_cast<double>(pb.n.size()) / (t_ours * 1e-3), e_ours, e16, e32, checked, t32_synced,
      t16_floats_synced);
  std::fflush(stdout);
  cufftDestroy(p16);
  cufftDestroy(p32);
  cudaFree(hin);
  cudaFree(hout);
  cudaFree(hout16);
  cudaFree(fin);
  cudaFree(fout);
}

}  // namespace

int main(int argc, char **argv) {
  int reps = 30;
  bool with_3d = true;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::max(20, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--no-3d")) with_3d = false;
    else {
      std::fprintf(stderr, "usage: fp16_bench [--reps N (>= 20)] [--no-3d]\n");
      return 2;
    }
  }
  fftw_init_threads();
  fftw_plan_with_nthreads(16);
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("fp16_bench on %s (cc %d.%d), medians of %d\n", prop.name, prop.major, prop.minor, reps);
  const long long points = 1LL << 24;
  std::vector<Problem> problems;
  for (int n : {256, 512, 1024, 2048, 4096}) problems.push_back({{n}, points / n});
  for (int n : {1024, 2048, 4096}) problems.push_back({{n, n}, points / (1LL * n * n)});
  if (with_3d) problems.push_back({{512, 512, 512}, 1});
  for (const Problem &p : problems) bench(p, reps);
  return 0;
}
