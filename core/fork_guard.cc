#include "core/fork_guard.h"

#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace gpufftw {
namespace {

struct Guard {
  std::atomic<bool> has_outer{false};
  ForkSteps outer{};
  std::mutex mutex;  // the leaves' list; held across fork after the outer lock
  ForkSteps leaves[kForkLeaves]{};
  int count = 0;
  // What prepare took, for the parent and the child to give back: a lock
  // handed over while a fork was under way is not theirs to release.
  bool took_outer = false;
  int took = 0;
};

void prepare();
void in_parent();
void in_child();

// Never destroyed: a plan may be made, and a child forked, from other
// libraries' destructors after ours would have run.
Guard &guard() {
  static Guard *g = [] {
    auto *made = new Guard;
    pthread_atfork(prepare, in_parent, in_child);
    return made;
  }();
  return *g;
}

void prepare() {
  Guard &g = guard();
  // The outer lock before the list's: a module hands its leaf over the
  // first time it runs, which may be inside a plan that holds the outer.
  g.took_outer = g.has_outer.load(std::memory_order_acquire);
  if (g.took_outer) g.outer.prepare();
  g.mutex.lock();
  g.took = g.count;
  for (int i = 0; i < g.took; ++i)
    if (g.leaves[i].prepare) g.leaves[i].prepare();
}

void in_parent() {
  Guard &g = guard();
  for (int i = g.took - 1; i >= 0; --i)
    if (g.leaves[i].parent) g.leaves[i].parent();
  g.mutex.unlock();
  if (g.took_outer) g.outer.parent();
}

void in_child() {
  Guard &g = guard();
  for (int i = g.took - 1; i >= 0; --i) g.leaves[i].child();
  g.mutex.unlock();
  if (g.took_outer) g.outer.child();
}

}  // namespace

void guard_outer_lock_across_fork(ForkSteps steps) {
  Guard &g = guard();
  const std::lock_guard<std::mutex> lock(g.mutex);
  g.outer = steps;
  g.has_outer.store(true, std::memory_order_release);
}

void guard_leaf_across_fork(ForkSteps steps) {
  Guard &g = guard();
  const std::lock_guard<std::mutex> lock(g.mutex);
  if (g.count == kForkLeaves) {
    // A fixed table, filled by the library's own modules: more is a bug
    // in gpufftw, said where it is made rather than found in a child.
    std::fprintf(stderr, "gpufftw: more than %d locks guarded across fork\n", kForkLeaves);
    std::abort();
  }
  g.leaves[g.count++] = steps;
}

}  // namespace gpufftw
