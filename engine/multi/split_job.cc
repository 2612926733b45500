#include "engine/multi/split_job.h"

#include <algorithm>
#include <thread>

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

void Rendezvous::arrive_and_wait() {
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

namespace {

bool split_suits(const Geometry &g, const std::vector<int> &set, std::string *why_not) {
  if (set.size() < 2) return *why_not = "one GPU in the set", false;
  if (g.half) return *why_not = "half precision runs on one GPU", false;
  return true;
}

std::unique_ptr<FftJob> make_split_job(const Geometry &g, const Ask &ask, std::string *why_not) {
  // A loop of one iteration (plan_many's howmany = 1) moves nothing.
  Geometry h = g;
  h.loops.erase(std::remove_if(h.loops.begin(), h.loops.end(), [](const Axis &a) { return a.n == 1; }),
                h.loops.end());
  std::string not_batch, not_slab;
  if (auto job = make_batch_split_job(h, ask.set, ask.one_gpu, &not_batch)) return job;
  if (auto job = make_slab_split_job(h, ask.set, ask.one_gpu, &not_slab)) return job;
  *why_not = "batch: " + not_batch + "; slabs: " + not_slab;
  return nullptr;
}

}  // namespace

const Solver kSplitSolver = {"split", true, false, split_suits, make_split_job};

}  // namespace gpufftw::engine
