// execute_cost: where an execute on device arrays spends its time beyond
// cuFFT's, step by step, in one process. Each variant adds one thing that
// gpufftw's execute does to the one before it, all timed as an FFTW
// program sees an execute (the host's clock around a call that returns
// with the result), interleaved in blocks over several rounds:
//   peer      cuFFT planned with no embeds, run on the default stream and
//             synchronised there (fp16_bench's synced peer)
//   embeds    planned with the embeds, strides and distances spelled out,
//             as gpufftw plans a batch (cufftMakePlanMany64)
//   stream    that plan on a non-blocking stream of its own, bound once
//   bind      bound to the stream again at every call (cufftSetStream)
//   +X        bind, and one question gpufftw asks at every call:
//             cudaSetDevice, a pointer's memory type per array, a query of
//             the legacy or of the thread's default stream
//   queries   bind, and all of them
//   on-legacy the plan bound to the legacy default stream instead
//   gpufftw   fftwf_execute of an FFTW plan on the same arrays, where
//             gpufftw is preloaded (else left out)
// One line per variant:
//   RESULT problem variant median_us vs_peer
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <dlfcn.h>
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "device_timing.cuh"

namespace {

struct Problem {
  int n;
  int batch;
};

struct Variant {
  std::string name;
  std::function<void()> call;
  std::vector<double> us;
};

void bench(const Problem &pb, int rounds, bool gpufftw) {
  const size_t count = static_cast<size_t>(pb.n) * pb.batch;
  cufftComplex *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, count * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMalloc(&out, count * sizeof(cufftComplex)));
  CHECK_CUDA(cudaMemset(in, 0, count * sizeof(cufftComplex)));

  int n = pb.n;
  cufftHandle plain;
  CHECK_CUFFT(cufftPlanMany(&plain, 1, &n, nullptr, 1, n, nullptr, 1, n, CUFFT_C2C, pb.batch));
  // The batch planned as gpufftw plans it, its embeds spelled out.
  auto embedded_plan = [&] {
    long long nn = n, inembed = n, onembed = n;
    size_t work = 0;
    cufftHandle h;
    CHECK_CUFFT(cufftCreate(&h));
    CHECK_CUFFT(cufftMakePlanMany64(h, 1, &nn, &inembed, 1, n, &onembed, 1, n, CUFFT_C2C, pb.batch, &work));
    return h;
  };
  const cufftHandle embedded = embedded_plan(), bound = embedded_plan();
  const cufftHandle on_legacy = embedded_plan();  // of its own: binding `bound` elsewhere would move the variants above
  CHECK_CUFFT(cufftSetStream(on_legacy, cudaStreamLegacy));
  cudaStream_t own;
  CHECK_CUDA(cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking));
  CHECK_CUFFT(cufftSetStream(bound, own));

  std::vector<Variant> v;
  v.push_back({"peer", [&] {
                 CHECK_CUFFT(cufftExecC2C(plain, in, out, CUFFT_FORWARD));
                 CHECK_CUDA(cudaStreamSynchronize(nullptr));
               }, {}});
  v.push_back({"embeds", [&] {
                 CHECK_CUFFT(cufftExecC2C(embedded, in, out, CUFFT_FORWARD));
                 CHECK_CUDA(cudaStreamSynchronize(nullptr));
               }, {}});
  v.push_back({"stream", [&] {
                 CHECK_CUFFT(cufftExecC2C(bound, in, out, CUFFT_FORWARD));
                 CHECK_CUDA(cudaStreamSynchronize(own));
               }, {}});
  v.push_back({"bind", [&] {
                 CHECK_CUFFT(cufftSetStream(bound, own));
                 CHECK_CUFFT(cufftExecC2C(bound, in, out, CUFFT_FORWARD));
                 CHECK_CUDA(cudaStreamSynchronize(own));
               }, {}});
  // Each of gpufftw's per-call questions alone on top of `bind`, then all.
  auto bound_run = [&] {
    CHECK_CUFFT(cufftSetStream(bound, own));
    CHECK_CUFFT(cufftExecC2C(bound, in, out, CUFFT_FORWARD));
    CHECK_CUDA(cudaStreamSynchronize(own));
  };
  auto set_device = [] { CHECK_CUDA(cudaSetDevice(0)); };
  auto pointers = [&] {
    cudaPointerAttributes a{};
    CHECK_CUDA(cudaPointerGetAttributes(&a, in));
    CHECK_CUDA(cudaPointerGetAttributes(&a, out));
  };
  auto legacy = [] { CHECK_CUDA(cudaStreamQuery(cudaStreamLegacy)); };
  auto per_thread = [] { CHECK_CUDA(cudaStreamQuery(cudaStreamPerThread)); };
  v.push_back({"+setdevice", [&] { set_device(); bound_run(); }, {}});
  v.push_back({"+pointers", [&] { pointers(); bound_run(); }, {}});
  v.push_back({"+legacy-query", [&] { legacy(); bound_run(); }, {}});
  v.push_back({"+thread-query", [&] { per_thread(); bound_run(); }, {}});
  v.push_back({"queries", [&] {
                 set_device();
                 pointers();
                 legacy();
                 per_thread();
                 bound_run();
               }, {}});
  // The plan on the legacy default stream, which is ordered after the
  // program's default streams with no question asked.
  v.push_back({"on-legacy", [&] {
                 CHECK_CUFFT(cufftSetStream(on_legacy, cudaStreamLegacy));
                 CHECK_CUFFT(cufftExecC2C(on_legacy, in, out, CUFFT_FORWARD));
                 CHECK_CUDA(cudaStreamSynchronize(cudaStreamLegacy));
               }, {}});
  fftwf_plan p = nullptr;
  if (gpufftw) {
    auto *fin = reinterpret_cast<fftwf_complex *>(in), *fout = reinterpret_cast<fftwf_complex *>(out);
    p = fftwf_plan_many_dft(1, &n, pb.batch, fin, nullptr, 1, n, fout, nullptr, 1, n, FFTW_FORWARD, FFTW_ESTIMATE);
    if (p) v.push_back({"gpufftw", [&] { fftwf_execute(p); }, {}});
  }

  constexpr int kBlock = 50;
  for (Variant &x : v)
    for (int i = 0; i < 5; ++i) x.call();
  for (int r = 0; r < rounds; ++r)
    for (Variant &x : v)
      for (int i = 0; i < kBlock; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        x.call();
        x.us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
      }
  double peer = 0;
  for (Variant &x : v) {
    std::sort(x.us.begin(), x.us.end());
    const double med = x.us[x.us.size() / 2];
    if (x.name == "peer") peer = med;
    std::printf("RESULT c2c-f32-%d-b%d %s %.2f %.3f\n", pb.n, pb.batch, x.name.c_str(), med, peer / med);
  }
  std::fflush(stdout);
  if (p) fftwf_destroy_plan(p);
  cufftDestroy(plain);
  cufftDestroy(embedded);
  cufftDestroy(bound);
  cufftDestroy(on_legacy);
  cudaStreamDestroy(own);
  cudaFree(in);
  cudaFree(out);
}

}  // namespace

int main(int argc, char **argv) {
  int rounds = 20;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: execute_cost [--rounds N]\n");
      return 2;
    }
  }
  // gpufftw's own entry points say whether it is in the process.
  const bool gpufftw = dlsym(RTLD_DEFAULT, "gpufftw_plan_where") != nullptr;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("execute_cost on %s, %d rounds of 50 a variant, gpufftw %s\n", prop.name, rounds,
              gpufftw ? "preloaded" : "absent");
  for (const Problem &pb : {Problem{1024, 1}, Problem{1024, 64}, Problem{1024, 16384}, Problem{4096, 4096}})
    bench(pb, rounds, gpufftw);
  return 0;
}
