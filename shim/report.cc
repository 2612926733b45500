#include "shim/report.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>

#include "core/config.h"
#include "core/fork_guard.h"
#include "core/problem.h"
#include "shim/at_end.h"

namespace gpufftw {
namespace {

struct Entry {
  PlanStats stats;
  std::string why;  // under the registry's mutex
};

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Entry>> entries;  // sorted: stable report
};

Registry &registry();

// A forked child counts from nothing: what it plans and executes is its
// own, and the parent's counts, which it inherits, are the parent's to
// report. The registry's mutex is held across fork (core/fork_guard.h),
// so that the child finds the entries whole and the mutex free.
void lock_for_fork() { registry().mutex.lock(); }
void unlock_in_parent() { registry().mutex.unlock(); }
void zero_in_child() {
  Registry &r = registry();
  for (auto &kv : r.entries) {
    PlanStats &s = kv.second->stats;
    s.plans = 0, s.executes = 0, s.execute_ns = 0, s.plan_ns = 0;
  }
  r.mutex.unlock();
}

// Never destroyed: plans may be executed or destroyed by other libraries'
// destructors after ours would have run.
Registry &registry() {
  static Registry *r = [] {
    guard_leaf_across_fork({lock_for_fork, unlock_in_parent, zero_in_child});
    return new Registry;
  }();
  return *r;
}

bool counted(const PlanStats &s) { return s.plans > 0 || s.executes > 0; }

// Whether a plan was made or executed in this process.
bool any_plan_counted() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &kv : r.entries)
    if (counted(kv.second->stats)) return true;
  return false;
}

// The rank and the number of ranks, -1 where the program is not an MPI one.
std::atomic<int> report_rank{-1}, report_ranks{-1};

}  // namespace

void label_report(int rank, int size) {
  report_ranks = size;
  report_rank = rank;
}

PlanStats *stats_for(const Problem &problem, const char *where, const std::string &why) {
  std::string desc = problem.describe();
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::unique_ptr<Entry> &e = r.entries[desc + "|" + where];
  if (!e) {
    e = std::make_unique<Entry>();
    e->stats.problem = desc;
    e->stats.where = where;
  }
  e->why = why;
  return &e->stats;
}

bool any_plan_asked() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return !r.entries.empty();
}

void write_report(FILE *out) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  uint64_t plans = 0, executes = 0, ns = 0, plan_ns = 0;
  const int rank = report_rank, ranks = report_ranks;
  const std::string whose = rank < 0 ? "" : ", rank " + std::to_string(rank) + " of " + std::to_string(ranks);
  size_t kinds = 0;
  for (const auto &kv : r.entries) kinds += counted(kv.second->stats);
  std::fprintf(out, "gpufftw report%s: %zu kind%s of plan\n", whose.c_str(), kinds, kinds == 1 ? "" : "s");
  std::fprintf(out, "  %-5s %6s %9s %11s %9s  %-44s %s\n", "where", "plans", "executes", "execute ms", "plan ms",
               "problem", "why");
  for (const auto &kv : r.entries) {
    const PlanStats &s = kv.second->stats;
    if (!counted(s)) continue;
    std::fprintf(out, "  %-5s %6llu %9llu %11.3f %9.1f  %-44s %s\n", s.where.c_str(),
                 static_cast<unsigned long long>(s.plans.load()), static_cast<unsigned long long>(s.executes.load()),
                 1e-6 * static_cast<double>(s.execute_ns.load()), 1e-6 * static_cast<double>(s.plan_ns.load()),
                 s.problem.c_str(), kv.second->why.c_str());
    plans += s.plans;
    executes += s.executes;
    ns += s.execute_ns;
    plan_ns += s.plan_ns;
  }
  std::fprintf(out, "  total %6llu %9llu %11.3f %9.1f\n", static_cast<unsigned long long>(plans),
               static_cast<unsigned long long>(executes), 1e-6 * static_cast<double>(ns),
               1e-6 * static_cast<double>(plan_ns));
}

void arm_exit_report() {
  // The program's own output comes first: stdout is flushed only after
  // the tables. A forked child that used no plan of its own reports
  // nothing.
  if (config().report)
    write_at_end([] {
      if (!any_plan_counted()) return;
      std::fflush(stdout);
      write_report(stderr);
    });
}

}  // namespace gpufftw
