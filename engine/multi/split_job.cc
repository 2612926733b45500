#include "engine/multi/split_job.h"

#include <thread>

namespace gpufftw::engine {

std::string device_list(const std::vector<int> &set) {
  std::string s;
  for (int d : set) s += (s.empty() ? "" : ",") + std::to_string(d);
  return s;
}

void on_device_threads(int n, const std::function<void(int)> &body) {
  std::vector<std::thread> others;
  for (int k = 1; k < n; ++k) others.emplace_back(body, k);
  body(0);
  for (std::thread &t : others) t.join();
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

std::unique_ptr<FftJob> make_split_job(const Geometry &g, const std::vector<int> &set, std::string *why_not) {
  if (set.size() < 2) return *why_not = "one GPU in the set", nullptr;
  if (g.half) return *why_not = "half precision runs on one GPU", nullptr;
  std::string not_batch, not_slab;
  if (auto job = make_batch_split_job(g, set, &not_batch)) return job;
  if (auto job = make_slab_split_job(g, set, &not_slab)) return job;
  *why_not = "batch: " + not_batch + "; slabs: " + not_slab;
  return nullptr;
}

}  // namespace gpufftw::engine
