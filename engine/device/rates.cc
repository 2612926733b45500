// The engine's rates (engine.h): measured on the current GPU and, where
// the set has two GPUs with peer access, between its first two, each copy
// the fastest of a few after one to warm, in a few tens of milliseconds
// in all; kept for the planner, which reads them at each search.
#include "engine/device/rates.h"

#include <memory>
#include <mutex>
#include <vector>

#include "engine/device/context.h"
#include "engine/device/event_runs.h"

namespace gpufftw::engine {
namespace {

// 32 MiB: past a copy's fixed cost by far on every link, yet a link of a
// few GB/s crosses it in milliseconds.
constexpr size_t kBytes = size_t{32} << 20;
constexpr int kReadings = 3;

std::mutex rates_mutex;
Rates current;

// Freed by cudaFree or cudaFreeHost, as it was allocated.
using Buffer = std::unique_ptr<void, cudaError_t (*)(void *)>;

bool device_buffer(Buffer *b, std::string *why) {
  void *p = nullptr;
  GPUFFTW_CK(cudaMalloc(&p, kBytes), why);
  b->reset(p);
  return true;
}

bool pinned_buffer(Buffer *b, std::string *why) {
  void *p = nullptr;
  GPUFFTW_CK(cudaHostAlloc(&p, kBytes, cudaHostAllocDefault), why);
  b->reset(p);
  return true;
}

// The fastest of kReadings runs after one to warm, on CUDA events on the
// current device's default stream: a copy in device memory takes tens of
// microseconds, of which a host clock's launch and synchronize would be a
// good part.
ReadingRule copies_rule() {
  ReadingRule rule;
  rule.keep = ReadingRule::Keep::Least;
  rule.least_samples = rule.most_samples = kReadings;
  return rule;
}

// One copy in and one out over the host link, pinned: the link's bytes
// are its two ways together, as Price counts them.
bool time_link(double *rate, std::string *why) {
  Buffer host(nullptr, cudaFreeHost);
  Buffer dev(nullptr, cudaFree);
  if (!pinned_buffer(&host, why) || !device_buffer(&dev, why)) return false;
  double s = 0;
  if (!time_runs(
          nullptr, copies_rule(),
          [&] {
            return check(cudaMemcpy(dev.get(), host.get(), kBytes, cudaMemcpyHostToDevice), "cudaMemcpy", why) &&
                   check(cudaMemcpy(host.get(), dev.get(), kBytes, cudaMemcpyDeviceToHost), "cudaMemcpy", why);
          },
          &s, why))
    return false;
  *rate = 2.0 * kBytes / s;
  return true;
}

// `to` pulling from `from` (cudaMemcpyPeer, on `to`).
bool time_peer(int to, int from, double *rate, std::string *why) {
  Buffer src(nullptr, cudaFree), dst(nullptr, cudaFree);
  {
    DeviceScope on(from);
    if (!on.ok()) return *why = on.why(), false;
    if (!device_buffer(&src, why)) return false;
  }
  DeviceScope on(to);
  if (!on.ok()) return *why = on.why(), false;
  if (!device_buffer(&dst, why)) return false;
  double s = 0;
  if (!time_runs(
          nullptr, copies_rule(),
          [&] { return check(cudaMemcpyPeer(dst.get(), to, src.get(), from, kBytes), "cudaMemcpyPeer", why); }, &s,
          why))
    return false;
  *rate = kBytes / s;
  return true;
}

}  // namespace

bool time_device_copy(double *rate, std::string *why) {
  Buffer a(nullptr, cudaFree), b(nullptr, cudaFree);
  if (!device_buffer(&a, why) || !device_buffer(&b, why)) return false;
  double s = 0;
  if (!time_runs(
          nullptr, copies_rule(),
          [&] { return check(cudaMemcpy(b.get(), a.get(), kBytes, cudaMemcpyDeviceToDevice), "cudaMemcpy", why); },
          &s, why))
    return false;
  // Each byte read once and written once.
  *rate = 2.0 * kBytes / s;
  return true;
}

bool measure_rates(Rates *rates, std::string *why) {
  if (!gpu_available(why)) return false;
  DeviceScope on(device());
  if (!on.ok()) return *why = on.why(), false;
  Rates r;
  if (!time_link(&r.link, why) || !time_device_copy(&r.device, why)) return false;
  // Where the set's first two GPUs cannot reach each other's memory, their
  // exchange goes through the host, over the link: the peer rate is the
  // link's. (A set of one exchanges nothing, and prices no peer bytes.)
  r.peer = r.link;
  const std::vector<int> set = devices();
  if (set.size() >= 2 && enable_peer_access({set[0], set[1]}) && !time_peer(set[0], set[1], &r.peer, why))
    return false;
  *rates = r;
  return true;
}

void set_rates(const Rates &rates) {
  std::lock_guard<std::mutex> lock(rates_mutex);
  current = rates;
}

Rates rates() {
  std::lock_guard<std::mutex> lock(rates_mutex);
  return current;
}

}  // namespace gpufftw::engine
