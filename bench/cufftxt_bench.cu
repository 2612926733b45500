// cufftxt_bench: NVIDIA's own multi-GPU FFT (cufftXt over every GPU) on
// pinned host arrays, as a peer measured in the same run as gpufftw: copy
// in (cufftXtMemcpy), execute, copy out, timed together.
//   cufftxt_bench PROBLEM...   (c2c-f32-512x512x512, c2c-f64-..., r2c-f32-...)
// Prints "RESULT cufftxt problem median_ms min_ms reps" or
// "RESULT cufftxt problem FAILED call".
#include <cuda_runtime.h>
#include <cufftXt.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Problem {
  bool r2c = false, f64 = false;
  std::vector<long long> n;
};

bool parse(const std::string &s, Problem *p) {
  const size_t a = s.find('-'), b = s.find('-', a + 1);
  if (a == std::string::npos || b == std::string::npos) return false;
  p->r2c = s.compare(0, a, "r2c") == 0;
  p->f64 = s.compare(a + 1, b - a - 1, "f64") == 0;
  for (size_t at = b + 1; at < s.size();) {
    const size_t x = s.find('x', at);
    p->n.push_back(std::atoll(s.substr(at, x - at).c_str()));
    at = x == std::string::npos ? s.size() : x + 1;
  }
  return !p->n.empty();
}

#define TRY(call)                                                               \
  do {                                                                          \
    if ((call) != 0) {                                                          \
      std::printf("RESULT cufftxt %s FAILED %s\n", name.c_str(), #call);        \
      return;                                                                   \
    }                                                                           \
  } while (0)

void run(const std::string &name, const std::vector<int> &gpus) {
  Problem p;
  if (!parse(name, &p)) return (void)std::printf("RESULT cufftxt %s FAILED parse\n", name.c_str());
  long long total = 1;
  for (long long x : p.n) total *= x;
  const size_t real = p.f64 ? 8 : 4;
  const long long last_c = p.r2c ? p.n.back() / 2 + 1 : p.n.back();
  const size_t in_bytes = total * real * (p.r2c ? 1 : 2);
  const size_t out_bytes = total / p.n.back() * last_c * 2 * real;
  void *in = nullptr, *out = nullptr;
  TRY(cudaMallocHost(&in, in_bytes));
  TRY(cudaMallocHost(&out, out_bytes));
  std::memset(in, 0, in_bytes);
  cufftHandle plan;
  TRY(cufftCreate(&plan));
  TRY(cufftXtSetGPUs(plan, static_cast<int>(gpus.size()), const_cast<int *>(gpus.data())));
  std::vector<size_t> work(gpus.size());
  const cufftType type = p.r2c ? (p.f64 ? CUFFT_D2Z : CUFFT_R2C) : (p.f64 ? CUFFT_Z2Z : CUFFT_C2C);
  std::vector<int> n(p.n.begin(), p.n.end());
  TRY(cufftMakePlanMany(plan, static_cast<int>(n.size()), n.data(), nullptr, 1, 0, nullptr, 1, 0, type, 1,
                        work.data()));
  cudaLibXtDesc *desc;
  TRY(cufftXtMalloc(plan, &desc, CUFFT_XT_FORMAT_INPLACE));
  std::vector<double> ms;
  auto once = [&]() -> int {
    if (cufftXtMemcpy(plan, desc, in, CUFFT_COPY_HOST_TO_DEVICE)) return 1;
    const int e = p.r2c ? (p.f64 ? cufftXtExecDescriptorD2Z(plan, desc, desc) : cufftXtExecDescriptorR2C(plan, desc, desc))
                        : (p.f64 ? cufftXtExecDescriptorZ2Z(plan, desc, desc, CUFFT_FORWARD)
                                 : cufftXtExecDescriptorC2C(plan, desc, desc, CUFFT_FORWARD));
    if (e) return 2;
    return cufftXtMemcpy(plan, out, desc, CUFFT_COPY_DEVICE_TO_HOST) ? 3 : 0;
  };
  TRY(once());
  const auto start = std::chrono::steady_clock::now();
  while (ms.size() < 5 || (ms.size() < 32 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 1)) {
    const auto t0 = std::chrono::steady_clock::now();
    TRY(once());
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("RESULT cufftxt %s %.3f %.3f %zu\n", name.c_str(), ms[ms.size() / 2], ms[0], ms.size());
  cufftXtFree(desc);
  cufftDestroy(plan);
  cudaFreeHost(in);
  cudaFreeHost(out);
}

}  // namespace

int main(int argc, char **argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    std::printf("cufftxt_bench: fewer than two GPUs\n");
    return 0;
  }
  std::vector<int> gpus;
  for (int d = 0; d < count; ++d) gpus.push_back(d);
  for (int i = 1; i < argc; ++i) run(argv[i], gpus);
  return 0;
}
