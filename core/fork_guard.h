// What a forked child must find whole: the library's locks free and the
// state they guard unbroken. fork() copies the forking thread alone, so a
// lock another thread held at that moment stays held in the child for
// ever, and the child's first plan or report waits on it.
//
// Each module hands its lock here, and one pthread_atfork handler takes
// them all before fork, in one order, and gives them back after it in the
// parent and in the child. The order is the one planning takes them in:
// the planner's lock first, since a plan holds it while it takes the
// others (the report's counts, the comparison's records, the live plans),
// and each of those is a leaf, under which no other lock is taken.
// pthread_atfork alone runs its prepare handlers in the reverse order of
// their registration, which follows which module first ran, not that
// order.
#pragma once

#include <atomic>
#include <mutex>
#include <thread>

namespace gpufftw {

// A recursive lock whose holder may release it in a child it forked.
// std::recursive_mutex cannot be: glibc records its holder by kernel
// thread id, which the child's one thread does not share with the thread
// that forked it, so the child's unlock is refused and the lock stays
// held. This one records the holder as std::thread::id (pthread_self),
// which fork keeps, and locks a plain mutex, which anyone may unlock.
class RecursiveLock {
 public:
  void lock() {
    const std::thread::id self = std::this_thread::get_id();
    if (holder_.load(std::memory_order_relaxed) == self) {
      ++depth_;
      return;
    }
    mutex_.lock();
    holder_.store(self, std::memory_order_relaxed);
    depth_ = 1;
  }
  void unlock() {
    if (--depth_ > 0) return;
    holder_.store(std::thread::id(), std::memory_order_relaxed);
    mutex_.unlock();
  }

 private:
  std::mutex mutex_;
  // Read by other threads only to learn that they are not the holder:
  // the holder alone ever stores its own id.
  std::atomic<std::thread::id> holder_{};
  int depth_ = 0;  // the holder's alone
};

struct ForkSteps {
  void (*prepare)();  // takes the lock; none: nothing to take
  void (*parent)();   // gives it back in the parent
  void (*child)();    // makes the state the child's and frees the lock
};

constexpr int kForkLeaves = 8;

// The planner's lock, taken before every leaf. Once.
void guard_outer_lock_across_fork(ForkSteps steps);
// A lock under which no other is taken, or (prepare and parent none) a
// step the child alone takes; the child's step is never none. At most
// kForkLeaves in all.
void guard_leaf_across_fork(ForkSteps steps);

}  // namespace gpufftw
