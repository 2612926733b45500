#include "dispatch/store_instance.h"

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "dispatch/dispatch.h"
#if GPUFFTW_HAVE_CUDA
#include "dispatch/calibrate.h"
#include "dispatch/machine.h"
#include "engine/engine.h"
#include "fftw_strings.h"
#endif

namespace gpufftw {
namespace {

// Whether a measured choice's key is of this precision: every key names
// its precision so, the MPI layer's too.
bool of_precision(const std::string &key, Precision precision) {
  return key.find(precision == Precision::F32 ? ".f32." : ".f64.") != std::string::npos;
}

}  // namespace

#if GPUFFTW_HAVE_CUDA
namespace {

// The store once dispatch_store() has made it: forgetting wisdom must not make it.
std::atomic<DispatchStore *> made_store{nullptr};

// The NVIDIA driver's account of the GPUs where it gives one (no CUDA
// context needed), else the device CUDA opens.
const std::string &gpu_identity() {
  static const std::string id = [] {
    const std::string &driver = driver_fingerprint();
    return driver.empty() ? engine::device_identity() : "driver " + driver;
  }();
  return id;
}

std::string machine_identity() {
  return gpu_identity() + " | " + cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) +
         " threads | " + fftw_version_value + " | gpufftw " GPUFFTW_VERSION;
}

}  // namespace

const std::string &driver_fingerprint() {
  static const std::string f = nvidia_driver_fingerprint();
  return f;
}

// The machine is named only when the store's file is first read for its
// contents: without the driver's account, naming it creates the CUDA context.
DispatchStore &dispatch_store() {
  // Never destroyed: plans may be made from other libraries' destructors.
  static DispatchStore *s = new DispatchStore(dispatch_store_path(), machine_identity,
                                              DispatchStore::Calibrators{calibrate_gpu, calibrate_cpu, check_cpu, check_gpu});
  // The engine's picks between its own kernels and cuFFT live in it too.
  static const bool lent = (engine::set_kernel_pick_store(
                                {[](const std::string &k, KernelPick *pick) { return s->recall_kernel(k, pick); },
                                 [](const std::string &k, const KernelPick &pick) { s->remember_kernel(k, pick); }}),
                            true);
  (void)lent;
  made_store.store(s);
  return *s;
}

void forget_choices(Precision precision) {
  if (DispatchStore *s = made_store.load())
    s->forget([precision](const std::string &key) { return of_precision(key, precision); });
}

bool recall_measured(const std::string &key, Choice *choice) { return dispatch_store().recall(key, choice); }

void remember_measured(const std::string &key, const Choice &choice) { dispatch_store().remember(key, choice); }
#else
// Built without CUDA there is no store (it is the GPU's and the machine's):
// a measured choice lasts for the process.
namespace {
std::mutex measured_mutex;
std::map<std::string, Choice> &measured_choices() {
  static auto *m = new std::map<std::string, Choice>;  // never destroyed: plans may outlive static destructors
  return *m;
}
}  // namespace

void forget_choices(Precision precision) {
  std::lock_guard<std::mutex> lock(measured_mutex);
  std::map<std::string, Choice> &m = measured_choices();
  for (auto it = m.begin(); it != m.end();) it = of_precision(it->first, precision) ? m.erase(it) : std::next(it);
}

bool recall_measured(const std::string &key, Choice *choice) {
  std::lock_guard<std::mutex> lock(measured_mutex);
  auto it = measured_choices().find(key);
  if (it == measured_choices().end()) return false;
  *choice = it->second;
  return true;
}

void remember_measured(const std::string &key, const Choice &choice) {
  std::lock_guard<std::mutex> lock(measured_mutex);
  measured_choices()[key] = choice;
}
#endif

}  // namespace gpufftw
