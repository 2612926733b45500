#include "engine/multi/split_job.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

#include "engine/device/context.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine {

namespace {

// One thread that waits for work, kept for the process: a new thread's
// first CUDA call on a device costs more than a share of a split batch
// saves, so each share after the first runs on the same thread every time.
class Worker {
 public:
  Worker() : thread_([this] { loop(); }) { thread_.detach(); }
  void start(std::function<void()> job) {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = std::move(job);
    done_ = false;
    wake_.notify_one();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [this] { return done_; });
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return static_cast<bool>(job_); });
      std::function<void()> job = std::move(job_);
      job_ = nullptr;
      lock.unlock();
      job();
      lock.lock();
      done_ = true;
      finished_.notify_one();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::function<void()> job_;
  bool done_ = true;
  std::thread thread_;
};

}  // namespace

void on_device_threads(int n, const std::function<void(int)> &body) {
  // Workers are never destroyed (they may serve a plan executed during
  // exit); one split runs at a time over them.
  static std::mutex busy;
  static std::vector<Worker *> *workers = new std::vector<Worker *>;
  std::lock_guard<std::mutex> lock(busy);
  while (static_cast<int>(workers->size()) < n - 1) workers->push_back(new Worker);
  for (int k = 1; k < n; ++k) (*workers)[k - 1]->start([&body, k] { body(k); });
  body(0);
  for (int k = 1; k < n; ++k) (*workers)[k - 1]->wait();
}

namespace {

// A rendezvous of n threads, passed by each with arrive_and_wait() however
// its own work went.
class Rendezvous {
 public:
  explicit Rendezvous(int n) : n_(n) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const unsigned long round = round_;
    if (++waiting_ == n_) {
      waiting_ = 0;
      ++round_;
      all_.notify_all();
      return;
    }
    all_.wait(lock, [&] { return round_ != round; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable all_;
  int n_, waiting_ = 0;
  unsigned long round_ = 0;
};

}  // namespace

bool run_halves(const std::vector<int> &devices, const Halves &halves, std::string *why) {
  const int n = static_cast<int>(devices.size());
  Rendezvous halfway(n), seconded(n), settled(n);
  std::vector<std::string> whys(n);
  // Per step (first, second, third, settle), the GPUs it failed on. Each
  // GPU writes its own entries only, a step's before the rendezvous after
  // which every GPU reads them.
  enum { kFirst, kSecond, kThird, kSettle, kSteps };
  std::vector<std::vector<char>> failed(kSteps, std::vector<char>(n, 0));
  auto none_failed = [&](int before) {
    for (int step = 0; step < before; ++step)
      if (std::any_of(failed[step].begin(), failed[step].end(), [](char f) { return f != 0; })) return false;
    return true;
  };
  on_device_threads(n, [&](int k) {
    DeviceScope on(devices[k]);
    std::string *w = &whys[k];
    failed[kFirst][k] = !(on.ok() ? halves.first(k, w) : (*w = on.why(), false));
    halfway.arrive_and_wait();
    failed[kSecond][k] = none_failed(kSecond) && !halves.second(k, w);
    if (halves.third) {
      seconded.arrive_and_wait();
      failed[kThird][k] = none_failed(kThird) && !halves.third(k, w);
    }
    failed[kSettle][k] = !halves.settle(k, w);
    settled.arrive_and_wait();
    halves.release(k);
  });
  for (const std::vector<char> &step : failed)
    for (int k = 0; k < n; ++k)
      if (step[k]) return *why = "GPU " + std::to_string(devices[k]) + ": " + whys[k], false;
  return true;
}

HalvesJob::HalvesJob(const Geometry &g, int first_device, OneGpuPlanner one_gpu)
    : whole_(g, first_device, std::move(one_gpu)) {}

bool HalvesJob::run(void *const in[2], void *const out[2], std::string *why) {
  const Memory mi = memory_type(in[0]), mo = memory_type(out[0]);
  if (on_device(mi) || on_device(mo)) return whole_.run(on_device(mi) ? in[0] : out[0], in, out, why);
  return run_halves(devices_, halves(static_cast<const char *>(in[0]), static_cast<char *>(out[0])), why);
}

bool HalvesJob::fits(int device, size_t bytes, std::string *why) {
  if (bytes <= device_memory_cap()) return true;
  *why = "GPU " + std::to_string(device) + " needs " + std::to_string(bytes >> 20) + " MiB, over its cap of " +
         std::to_string(device_memory_cap() >> 20) + " MiB";
  return false;
}

}  // namespace gpufftw::engine
