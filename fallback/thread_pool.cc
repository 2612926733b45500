#include "fallback/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace gpufftw {
namespace {

struct Loop {
  void *(*work)(char *);
  char *data;
  size_t elsize;
  int njobs;
  std::atomic<int> next{0};
  std::mutex mutex;
  std::condition_variable finished;
  int helpers = 0;  // workers lent to this loop and not yet done, under mutex
};

// Runs jobs of the loop until none is left to take.
void run_jobs(Loop *l) {
  for (int i; (i = l->next.fetch_add(1)) < l->njobs;) l->work(l->data + static_cast<size_t>(i) * l->elsize);
}

// Each worker sleeps on its own condition variable, so that waking n of
// them is n uncontended signals (as FFTW's per-thread semaphores are), not
// a herd on one mutex.
struct Worker {
  std::mutex mutex;
  std::condition_variable wake;
  Loop *task = nullptr;
};

class Pool {
 public:
  void run(Loop *l) {
    std::vector<Worker *> lent;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      start_workers();
      const size_t n = std::min(idle_.size(), static_cast<size_t>(l->njobs - 1));
      lent.assign(idle_.end() - static_cast<std::ptrdiff_t>(n), idle_.end());
      idle_.resize(idle_.size() - n);
    }
    l->helpers = static_cast<int>(lent.size());
    for (Worker *w : lent) {
      {
        std::lock_guard<std::mutex> lock(w->mutex);
        w->task = l;
      }
      w->wake.notify_one();
    }
    run_jobs(l);
    // Taking the loop's mutex last also means no helper still touches it.
    std::unique_lock<std::mutex> lock(l->mutex);
    l->finished.wait(lock, [l] { return l->helpers == 0; });
  }

 private:
  // One worker per core beside the caller's; detached, they serve until
  // the process ends. Under mutex_.
  void start_workers() {
    if (started_) return;
    started_ = true;
    const unsigned n = std::max(2u, std::thread::hardware_concurrency()) - 1;
    for (unsigned i = 0; i < n; ++i) {
      Worker *w = new Worker;  // lives as long as its thread: the process
      idle_.push_back(w);
      std::thread([this, w] { serve(w); }).detach();
    }
  }

  void serve(Worker *w) {
    for (;;) {
      Loop *l;
      {
        std::unique_lock<std::mutex> lock(w->mutex);
        w->wake.wait(lock, [w] { return w->task != nullptr; });
        l = w->task;
        w->task = nullptr;
      }
      run_jobs(l);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        idle_.push_back(w);
      }
      std::lock_guard<std::mutex> lock(l->mutex);
      if (--l->helpers == 0) l->finished.notify_one();
    }
  }

  std::mutex mutex_;
  std::vector<Worker *> idle_;
  bool started_ = false;
};

Pool &pool() {
  static Pool *p = new Pool;  // never destroyed: plans may execute after static destructors
  return *p;
}

}  // namespace

void parallel_loop(void *(*work)(char *), char *jobdata, size_t elsize, int njobs, void *) {
  if (njobs <= 1) {
    for (int i = 0; i < njobs; ++i) work(jobdata + static_cast<size_t>(i) * elsize);
    return;
  }
  Loop l;
  l.work = work;
  l.data = jobdata;
  l.elsize = elsize;
  l.njobs = njobs;
  pool().run(&l);
}

}  // namespace gpufftw
