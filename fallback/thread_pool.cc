#include "fallback/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace gpufftw {
namespace {

struct Loop {
  void *(*work)(char *);
  char *data;
  size_t elsize;
  int njobs;
  std::atomic<int> next{0}, done{0};
  int workers = 0;  // workers inside run_jobs, under the pool's mutex
};

// Runs jobs of the loop until none is left to take.
void run_jobs(Loop *l) {
  for (int i; (i = l->next.fetch_add(1)) < l->njobs;) {
    l->work(l->data + static_cast<size_t>(i) * l->elsize);
    l->done.fetch_add(1);
  }
}

class Pool {
 public:
  void run(Loop *l) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      start_workers();
      loops_.push_back(l);
    }
    wake_.notify_all();
    run_jobs(l);
    std::unique_lock<std::mutex> lock(mutex_);
    // No worker takes it up from now on; wait for those inside it.
    loops_.erase(std::remove(loops_.begin(), loops_.end(), l), loops_.end());
    finished_.wait(lock, [l] { return l->workers == 0 && l->done.load() == l->njobs; });
  }

 private:
  // One worker per core beside the caller's; detached, they serve until
  // the process ends.
  void start_workers() {
    if (started_) return;
    started_ = true;
    const unsigned n = std::max(2u, std::thread::hardware_concurrency()) - 1;
    for (unsigned i = 0; i < n; ++i) std::thread([this] { serve(); }).detach();
  }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return !loops_.empty(); });
      Loop *l = loops_.front();
      if (l->next.load() >= l->njobs) {  // all taken: out of the queue
        loops_.pop_front();
        continue;
      }
      ++l->workers;
      lock.unlock();
      run_jobs(l);
      lock.lock();
      --l->workers;
      finished_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  std::deque<Loop *> loops_;
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
