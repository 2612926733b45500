#include "engine/device/context.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

struct Context {
  bool ok = false;
  int device = 0;
  size_t memory_cap = 0;
  std::string why;
  std::string name;
  Cufft cufft;
};

template <class T>
bool load(void *h, const char *name, T *slot, std::string *why) {
  *slot = reinterpret_cast<T>(dlsym(h, name));
  if (!*slot) *why = std::string("libcufft lacks ") + name;
  return *slot != nullptr;
}

bool load_cufft(Cufft *t, std::string *why) {
  void *h = nullptr;
  for (const char *name : {"libcufft.so.12", "libcufft.so"})
    if ((h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
  if (!h) {
    *why = std::string("cuFFT not found (dlopen libcufft.so.12: ") + dlerror() + ")";
    return false;
  }
  return load(h, "cufftCreate", &t->create, why) && load(h, "cufftMakePlanMany64", &t->make_plan_many64, why) &&
         load(h, "cufftSetStream", &t->set_stream, why) && load(h, "cufftDestroy", &t->destroy, why) &&
         load(h, "cufftExecC2C", &t->exec_c2c, why) && load(h, "cufftExecR2C", &t->exec_r2c, why) &&
         load(h, "cufftExecC2R", &t->exec_c2r, why) && load(h, "cufftExecZ2Z", &t->exec_z2z, why) &&
         load(h, "cufftExecD2Z", &t->exec_d2z, why) && load(h, "cufftExecZ2D", &t->exec_z2d, why) &&
         load(h, "cufftXtMakePlanMany", &t->xt_make_plan_many, why) && load(h, "cufftXtExec", &t->xt_exec, why);
}

bool open(Context *c) {
  int count = 0;
  GPUFFTW_CK(cudaGetDeviceCount(&count), &c->why);
  if (count == 0) {
    c->why = "no CUDA device";
    return false;
  }
  if (const char *d = std::getenv("GPUFFTW_DEVICE")) c->device = std::atoi(d);
  if (c->device < 0 || c->device >= count) {
    c->why = "GPUFFTW_DEVICE=" + std::to_string(c->device) + " but " + std::to_string(count) + " device(s)";
    return false;
  }
  GPUFFTW_CK(cudaSetDevice(c->device), &c->why);
  GPUFFTW_CK(cudaFree(nullptr), &c->why);  // creates the context now
  // Scratch comes from the stream-ordered pool on every execute; by default
  // the pool hands its memory back at each synchronisation, and mapping a
  // gigabyte again costs milliseconds. Keep it.
  cudaMemPool_t pool;
  GPUFFTW_CK(cudaDeviceGetDefaultMemPool(&pool, c->device), &c->why);
  uint64_t keep = UINT64_MAX;
  GPUFFTW_CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), &c->why);
  size_t free_bytes = 0, total = 0;
  GPUFFTW_CK(cudaMemGetInfo(&free_bytes, &total), &c->why);
  c->memory_cap = free_bytes / 5 * 4;
  if (const char *cap = std::getenv("GPUFFTW_DEVICE_MEMORY")) {
    char *end = nullptr;
    double v = std::strtod(cap, &end);
    const double unit = *end == 'G' ? 1073741824.0 : *end == 'M' ? 1048576.0 : *end == 'K' ? 1024.0 : 1.0;
    if (v > 0) c->memory_cap = static_cast<size_t>(v * unit);
  }
  cudaDeviceProp prop{};
  GPUFFTW_CK(cudaGetDeviceProperties(&prop, c->device), &c->why);
  c->name = prop.name;
  return load_cufft(&c->cufft, &c->why);
}

std::atomic<bool> started{false};

Context &context() {
  static Context c;
  static std::once_flag once;
  std::call_once(once, [] {
    c.ok = open(&c);
    started = c.ok;
  });
  return c;
}

}  // namespace

bool gpu_available(std::string *why) {
  Context &c = context();
  if (!c.ok && why) *why = c.why;
  return c.ok;
}

bool gpu_started() { return started; }

std::string device_name() { return context().name; }
size_t device_memory_cap() { return context().memory_cap; }
int device() { return context().device; }
const Cufft &cufft() { return context().cufft; }

bool check(cudaError_t e, const char *call, std::string *why) {
  if (e == cudaSuccess) return true;
  if (why) *why = std::string(call) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  cudaGetLastError();  // clear a non-sticky error so later calls can go on
  return false;
}

bool check(cufftResult r, const char *call, std::string *why) {
  if (r == CUFFT_SUCCESS) return true;
  if (why) *why = std::string(call) + ": cufftResult " + std::to_string(static_cast<int>(r));
  return false;
}

bool after_default_streams(Memory in, Memory out, cudaStream_t stream, std::string *why) {
  auto on_device = [](Memory m) { return m == Memory::Device || m == Memory::Managed; };
  if (!on_device(in) && !on_device(out)) return true;
  cudaEvent_t queued;
  GPUFFTW_CK(cudaEventCreateWithFlags(&queued, cudaEventDisableTiming), why);
  bool ok = true;
  for (cudaStream_t program : {cudaStreamLegacy, cudaStreamPerThread}) {
    ok = ok && check(cudaEventRecord(queued, program), "cudaEventRecord", why) &&
         check(cudaStreamWaitEvent(stream, queued, 0), "cudaStreamWaitEvent", why);
  }
  cudaEventDestroy(queued);
  return ok;
}

bool fault_injected(const char *step, std::string *why) {
  const char *fault = std::getenv("GPUFFTW_FAULT");  // read each time: tests change it
  if (!fault || std::strcmp(fault, step) != 0) return false;
  if (why) *why = std::string("injected fault at ") + step + " (GPUFFTW_FAULT)";
  return true;
}

}  // namespace gpufftw::engine
