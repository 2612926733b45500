#include "fallback/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/fork_guard.h"
#include "core/log.h"

namespace gpufftw {
namespace {

// How long a worker keeps looking for its next loop, and the caller for
// its helpers, before sleeping. One FFTW execute calls the loop once per
// threaded step, a few microseconds apart, and a futex wake-up costs tens
// of microseconds on a loaded host: FFTW's own per-thread semaphores pay
// it on every step, a spinning worker does not. Short, because spinning
// workers slow what the program runs next on their cores (or on their
// hyperthread siblings): a one-thread transform or a GPU execute right
// after a threaded one (docs/dispatch-sweep.md, "The host, and the real
// FFTW through gpufftw", has the measurements).
constexpr auto kSpin = std::chrono::microseconds(30);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Calls done() until it is true or kSpin has passed; true if it became true.
template <class F>
bool spin_until(F done) {
  const auto end = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() > end) return false;
  }
}

struct Loop {
  void *(*work)(char *);
  char *data;
  size_t elsize;
  int njobs;
  std::atomic<int> next{0};
  std::atomic<int> helpers{0};  // workers lent to this loop and not yet done
  std::mutex mutex;             // a helper's last touch of the loop is under it
  std::condition_variable finished;
};

// Runs jobs of the loop until none is left to take.
void run_jobs(Loop *l) {
  for (int i; (i = l->next.fetch_add(1)) < l->njobs;) l->work(l->data + static_cast<size_t>(i) * l->elsize);
}

// A worker spins on its task slot, then sleeps on its own condition
// variable: waking n sleepers is n uncontended signals, not a herd on one
// mutex. `sleeping` and `task` are a Dekker pair (both seq_cst): the one
// who hands a task sees the worker asleep, or the worker sees the task.
struct Worker {
  std::atomic<bool> busy{false};  // lent to a loop; claimed by exchange
  std::atomic<Loop *> task{nullptr};
  std::atomic<bool> sleeping{false};
  std::mutex mutex;
  std::condition_variable wake;

  void hand(Loop *l) {
    task.store(l);
    if (sleeping.load()) {
      std::lock_guard<std::mutex> lock(mutex);
      wake.notify_one();
    }
  }

  Loop *next_task() {
    Loop *l = nullptr;
    if (spin_until([&] { return (l = task.exchange(nullptr)) != nullptr; })) return l;
    std::unique_lock<std::mutex> lock(mutex);
    sleeping.store(true);
    while (!(l = task.exchange(nullptr))) wake.wait(lock);
    sleeping.store(false);
    return l;
  }
};

class Pool {
 public:
  void run(Loop *l) {
    std::call_once(started_, [this] { start_workers(); });
    int lent = 0;
    for (auto &w : workers_) {
      if (lent == l->njobs - 1) break;
      if (w->busy.exchange(true, std::memory_order_acquire)) continue;
      l->helpers.fetch_add(1);
      w->hand(l);
      ++lent;
    }
    run_jobs(l);
    if (!spin_until([l] { return l->helpers.load() == 0; })) {
      std::unique_lock<std::mutex> lock(l->mutex);
      l->finished.wait(lock, [l] { return l->helpers.load() == 0; });
      return;
    }
    // A helper that brought the count to 0 may still be inside the mutex.
    std::lock_guard<std::mutex> lock(l->mutex);
  }

 private:
  // One worker per core beside the caller's; detached, they serve until
  // the process ends. Where a thread cannot be made (its stack finds no
  // room under ulimit -v, or the thread limit is reached), the pool keeps
  // those made: the caller runs the jobs no worker takes.
  void start_workers() {
    const unsigned n = std::max(2u, std::thread::hardware_concurrency()) - 1;
    for (unsigned i = 0; i < n; ++i) {
      try {
        workers_.push_back(std::make_unique<Worker>());
        Worker *w = workers_.back().get();
        std::thread([w] { serve(w); }).detach();
      } catch (const std::exception &e) {
        if (workers_.size() > i) workers_.pop_back();  // its thread was not made
        GPUFFTW_LOG(Warn, "made %u of %u threads for the real FFTW's threaded plans (std::thread: %s); the calling "
                    "thread runs the jobs left", i, n, e.what());
        return;
      }
    }
  }

  static void serve(Worker *w) {
    for (;;) {
      Loop *l = w->next_task();
      run_jobs(l);
      {
        std::lock_guard<std::mutex> lock(l->mutex);
        if (l->helpers.fetch_sub(1) == 1) l->finished.notify_one();
      }
      w->busy.store(false, std::memory_order_release);
    }
  }

  std::once_flag started_;
  std::vector<std::unique_ptr<Worker>> workers_;  // fixed once started
};

// Never destroyed: plans may execute after static destructors. A forked
// child has none of the workers, only their records, which would be
// handed loops that no thread runs: the child makes a pool of its own at
// its first threaded loop and leaves the one it inherited as it is. No
// first-use guard (a function's static, a once flag) stands on the way:
// one held by a thread that was making the pool as the program forked
// would stay held in the child for ever.
std::atomic<Pool *> the_pool{nullptr};
[[maybe_unused]] const bool pool_guarded =
    (guard_leaf_across_fork({nullptr, nullptr, [] { the_pool.store(nullptr, std::memory_order_relaxed); }}), true);

Pool &pool() {
  if (Pool *p = the_pool.load(std::memory_order_acquire)) return *p;
  auto *made = new Pool;
  Pool *first = nullptr;
  if (the_pool.compare_exchange_strong(first, made, std::memory_order_acq_rel)) return *made;
  delete made;  // another thread's came first
  return *first;
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
