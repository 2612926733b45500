#include "engine/device/context.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/env.h"
#include "core/time_limit.h"
#include "engine/device/device_set.h"
#include "engine/device/sticky.h"
#include "engine/device/trap.h"
#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

// One opened device: its memory cap and name.
struct Opened {
  bool ok = false;
  std::string why;
  size_t memory_cap = 0;
  std::string name;
};

// GPUFFTW_FAULT, read each time (tests change it): false where unset or
// bad (warned about).
bool fault_setting(std::string *step, long long *on) {
  const char *fault = env::get("GPUFFTW_FAULT");
  if (!fault) return false;
  static const char *const steps[] = {"plan", "execute", "alloc", "sticky"};
  const char *at = std::strchr(fault, '@');
  step->assign(fault, at ? static_cast<size_t>(at - fault) : std::strlen(fault));
  *on = -1;
  if (std::find(std::begin(steps), std::end(steps), *step) == std::end(steps) ||
      (at && !env::parse_integer(at + 1, 0, INT32_MAX, on))) {
    env::warn_bad("GPUFFTW_FAULT", fault, "plan, execute, alloc or sticky, each optionally @DEVICE", "no fault");
    return false;
  }
  return true;
}

// The engine's GPUFFTW_* settings, read when the context is first asked
// for, before CUDA is: a bad value is warned about (core/env.h) whether or
// not there is a GPU. Device numbers are checked against the devices once
// CUDA has counted them.
struct Settings {
  size_t memory_cap = 0;     // GPUFFTW_DEVICE_MEMORY; 0: four fifths of the free memory
  const char *devices = nullptr;  // GPUFFTW_DEVICES, its syntax checked
  long long device = -1;     // GPUFFTW_DEVICE; -1: unset
  long long split_test = 0;  // GPUFFTW_SPLIT_TEST; 0: unset
};

Settings read_settings() {
  Settings s;
  s.memory_cap = env::bytes("GPUFFTW_DEVICE_MEMORY", 0, "four fifths of the free device memory");
  s.devices = env::get("GPUFFTW_DEVICES");
  std::string why;
  if (s.devices && std::string(s.devices) != "all" && parse_devices(s.devices, INT32_MAX, &why).empty()) {
    env::warn_bad("GPUFFTW_DEVICES", s.devices, "all or a comma list of distinct device numbers",
                  "every GPU of device 0's model");
    s.devices = nullptr;
  }
  s.device = env::integer("GPUFFTW_DEVICE", -1, 0, INT32_MAX, "device 0 and the others of its model");
  s.split_test = env::integer("GPUFFTW_SPLIT_TEST", 0, 1, 64, "no split test");
  std::string step;
  long long on;
  fault_setting(&step, &on);  // for its warning where no step will ask
  return s;
}

struct Context {
  Settings settings;
  bool ok = false;
  std::string why;
  int count = 0;
  std::vector<std::string> names;  // one per device number
  std::mutex mutex;                // guards set and opened
  std::vector<int> set;            // the device set; set[0] runs single-GPU plans
  std::vector<Opened> opened;      // one per device number
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

// Makes device d's context, keeps the memory its pool frees, and reads its
// memory cap. The caller holds the context's mutex.
void open_device(int d, size_t cap_setting, Opened *o) {
  std::string *why = &o->why;
  auto run = [&]() -> bool {
    GPUFFTW_CK(cudaSetDevice(d), why);
    GPUFFTW_CK(cudaFree(nullptr), why);  // creates the context now
    // Scratch comes from the stream-ordered pool on every execute; by
    // default the pool hands its memory back at each synchronisation, and
    // mapping a gigabyte again costs milliseconds. Keep it.
    cudaMemPool_t pool;
    GPUFFTW_CK(cudaDeviceGetDefaultMemPool(&pool, d), why);
    uint64_t keep = UINT64_MAX;
    GPUFFTW_CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), why);
    size_t free_bytes = 0, total = 0;
    GPUFFTW_CK(cudaMemGetInfo(&free_bytes, &total), why);
    o->memory_cap = cap_setting ? cap_setting : free_bytes / 5 * 4;
    cudaDeviceProp prop{};
    GPUFFTW_CK(cudaGetDeviceProperties(&prop, d), why);
    o->name = prop.name;
    return true;
  };
  o->ok = run();
}

// A device number past the machine's is warned about as any bad value
// is, and the default set taken.
void choose_devices(Context *c) {
  const Settings &s = c->settings;
  const std::string fallback = "every GPU of device 0's model";
  const std::string below = " below " + std::to_string(c->count);
  if (s.devices) {
    std::string why;
    c->set = parse_devices(s.devices, c->count, &why);
    if (!c->set.empty()) return;
    env::warn_bad("GPUFFTW_DEVICES", s.devices, "all or a comma list of distinct device numbers" + below, fallback);
  } else if (s.device >= c->count) {
    env::warn_bad("GPUFFTW_DEVICE", std::to_string(s.device).c_str(), "a device number" + below, fallback);
  } else if (s.device >= 0) {
    c->set = {static_cast<int>(s.device)};
    return;
  }
  c->set = same_model(c->names, 0);
}

// GPUFFTW_DEVICES names the set; else GPUFFTW_DEVICE names one device;
// else every device of device 0's model. GPUFFTW_SPLIT_TEST=N, a test hook,
// then makes it the set's first device N times over, so that a machine of
// one GPU runs the split paths (their threads, shares and exchanges).
void choose_set(Context *c) {
  choose_devices(c);
  if (c->settings.split_test) {
    const int first = c->set[0];
    c->set.assign(static_cast<size_t>(c->settings.split_test), first);
  }
}

bool open(Context *c) {
  c->settings = read_settings();
  // Where there is no driver at all, CUDA's runtime calls it too old for
  // the runtime; the why says there is none. Left open: the runtime opens
  // the same library next.
  if (!dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    c->why = std::string("no NVIDIA driver (dlopen: ") + dlerror() + ")";
    return false;
  }
  GPUFFTW_CK(cudaGetDeviceCount(&c->count), &c->why);
  if (c->count == 0) {
    c->why = "no CUDA device";
    return false;
  }
  for (int d = 0; d < c->count; ++d) {
    cudaDeviceProp prop{};
    GPUFFTW_CK(cudaGetDeviceProperties(&prop, d), &c->why);
    c->names.push_back(prop.name);
  }
  c->opened.resize(c->count);
  choose_set(c);
  // The first device of the set opens now (single-GPU plans run there);
  // the others when a plan first spreads over them.
  Opened &first = c->opened[c->set[0]];
  open_device(c->set[0], c->settings.memory_cap, &first);
  if (!first.ok) return c->why = first.why, false;
  return load_cufft(&c->cufft, &c->why);
}

std::atomic<bool> started{false};

Context &context() {
  static Context c;
  static std::once_flag once;
  std::call_once(once, [] {
    // The process's start on the GPU serves every later plan, as the cost
    // model's calibration does: not the work of the plan that happens to
    // come first, whose real FFTW would otherwise plan with what the start
    // left of the program's time limit, worse than the real FFTW alone.
    const OutsideThePlan start;
    c.ok = open(&c);
    started = c.ok;
  });
  return c;
}

// The device a DeviceScope set on this thread, or -1.
thread_local int scoped_device = -1;

const Opened &opened(int d) {
  Context &c = context();
  std::lock_guard<std::mutex> lock(c.mutex);
  Opened &o = c.opened[d];
  if (!o.ok && o.why.empty()) {
    const OutsideThePlan start;  // likewise: the device's context serves every later plan
    open_device(d, c.settings.memory_cap, &o);
  }
  return o;
}

}  // namespace

bool gpu_available(std::string *why) {
  Context &c = context();
  if (!c.ok && why) *why = c.why;
  return c.ok && !gpu_lost(why);
}

bool gpu_started() { return started; }

std::vector<int> devices() {
  Context &c = context();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.ok ? c.set : std::vector<int>{};
}

bool set_devices(const std::vector<int> &set, std::string *why) {
  Context &c = context();
  if (!gpu_available(why)) return false;
  if (set.empty()) return *why = "an empty device set", false;
  for (size_t i = 0; i < set.size(); ++i) {
    if (set[i] < 0 || set[i] >= c.count)
      return *why = "device " + std::to_string(set[i]) + " of " + std::to_string(c.count), false;
    for (size_t j = 0; j < i; ++j)
      if (set[j] == set[i]) return *why = "device " + std::to_string(set[i]) + " named twice", false;
  }
  const Opened &first = opened(set[0]);
  if (!first.ok) return *why = first.why, false;
  std::lock_guard<std::mutex> lock(c.mutex);
  c.set = set;
  return true;
}

std::string device_name() { return opened(device()).name; }
size_t device_memory_used() {
  if (!gpu_started() || gpu_lost()) return 0;
  DeviceScope on(device());
  size_t free_bytes = 0, total = 0;
  if (!on.ok() || !check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo", nullptr)) return 0;
  return total - free_bytes;
}
size_t device_memory_cap() { return opened(device()).memory_cap; }
int device() {
  if (scoped_device >= 0) return scoped_device;
  Context &c = context();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.set.empty() ? 0 : c.set[0];
}
const Cufft &cufft() { return context().cufft; }

DeviceScope::DeviceScope(int d) : previous_(scoped_device) {
  const Opened &o = opened(d);
  ok_ = o.ok && check(cudaSetDevice(d), "cudaSetDevice", &why_);
  if (!o.ok) why_ = o.why;
  if (ok_) scoped_device = d;
}

DeviceScope::~DeviceScope() {
  if (!ok_) return;
  scoped_device = previous_;
  cudaSetDevice(device());
}

bool enable_peer_access(const std::vector<int> &set) {
  bool all = true;
  for (int a : set)
    for (int b : set) {
      int can = 0;
      if (a == b) continue;
      if (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can) {
        all = false;
        continue;
      }
      DeviceScope on(a);
      if (!on.ok()) {
        all = false;
        continue;
      }
      // Already enabled is the usual answer after the first plan.
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) all = false;
      cudaGetLastError();
      cudaMemPool_t pool;
      cudaMemAccessDesc access{};
      access.location.type = cudaMemLocationTypeDevice;
      access.location.id = a;
      access.flags = cudaMemAccessFlagsProtReadWrite;
      if (cudaDeviceGetDefaultMemPool(&pool, b) != cudaSuccess || cudaMemPoolSetAccess(pool, &access, 1) != cudaSuccess) {
        all = false;
        cudaGetLastError();
      }
    }
  return all;
}

namespace {

// The function of a call as GPUFFTW_CK quotes it, without its arguments:
// those are the engine's own variables, which tell a user nothing.
std::string function_of(const char *call) { return std::string(call, std::strcspn(call, "(")); }

}  // namespace

bool check(cudaError_t e, const char *call, std::string *why) {
  if (e == cudaSuccess) return true;
  const std::string what = function_of(call) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
  if (why) *why = what;
  if (sticky_error(e)) {
    // No call clears it; the engine stops calling CUDA instead. (Not
    // device(): this may run while the context is being opened.)
    lose_engine(scoped_device >= 0 ? what + " on device " + std::to_string(scoped_device) : what);
    return false;
  }
  cudaGetLastError();  // clear a non-sticky error so later calls can go on
  return false;
}

bool check(cufftResult r, const char *call, std::string *why) {
  if (r == CUFFT_SUCCESS) return true;
  if (why) *why = function_of(call) + ": cufftResult " + std::to_string(static_cast<int>(r));
  return false;
}

bool after_default_streams(Memory in, Memory out, cudaStream_t stream, std::string *why) {
  auto on_device = [](Memory m) { return m == Memory::Device || m == Memory::Managed; };
  if (!on_device(in) && !on_device(out)) return true;
  cudaEvent_t queued = nullptr;
  bool ok = true;
  for (cudaStream_t program : {cudaStreamLegacy, cudaStreamPerThread}) {
    // A program stream with nothing left to run orders nothing: most
    // programs have waited for their data, and a query costs the execute
    // less than an event recorded and waited on.
    const cudaError_t busy = cudaStreamQuery(program);
    if (busy == cudaSuccess) continue;
    if (busy != cudaErrorNotReady) {
      ok = check(busy, "cudaStreamQuery", why);
      break;
    }
    if (!queued && !(ok = check(cudaEventCreateWithFlags(&queued, cudaEventDisableTiming),
                                "cudaEventCreateWithFlags", why)))
      break;
    ok = check(cudaEventRecord(queued, program), "cudaEventRecord", why) &&
         check(cudaStreamWaitEvent(stream, queued, 0), "cudaStreamWaitEvent", why);
    if (!ok) break;
  }
  if (queued) cudaEventDestroy(queued);
  return ok;
}

bool fault_injected(const char *step, std::string *why) {
  std::string named;
  long long on = -1;
  if (!fault_setting(&named, &on)) return false;
  if (on >= 0 && on != device()) return false;
  // sticky: at execute, a kernel that traps; what it leaves is a real
  // sticky error, taken through check() as any would be.
  if (named == "sticky" && std::strcmp(step, "execute") == 0)
    return !check(launch_trap(), "the trap kernel of GPUFFTW_FAULT=sticky", why);
  if (named != step) return false;
  if (why) *why = std::string("injected fault at ") + step + " on device " + std::to_string(device()) + " (GPUFFTW_FAULT)";
  return true;
}

}  // namespace gpufftw::engine
