#include "shim/report.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "shim/config.h"
#include "shim/problem.h"

namespace gpufftw {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<PlanStats>> entries;  // sorted: stable report
};

// Never destroyed: plans may be executed or destroyed by other libraries'
// destructors after ours would have run.
Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

}  // namespace

PlanStats *stats_for(const Problem &problem, const char *where) {
  std::string desc = problem.describe();
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::unique_ptr<PlanStats> &e = r.entries[desc + "|" + where];
  if (!e) {
    e = std::make_unique<PlanStats>();
    e->problem = desc;
    e->where = where;
  }
  return e.get();
}

void write_report(FILE *out) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  uint64_t plans = 0, executes = 0;
  std::fprintf(out, "gpufftw report: %zu kinds of plan\n", r.entries.size());
  std::fprintf(out, "  %-5s %8s %10s  %s\n", "where", "plans", "executes", "problem");
  for (const auto &kv : r.entries) {
    const PlanStats &s = *kv.second;
    std::fprintf(out, "  %-5s %8llu %10llu  %s\n", s.where.c_str(), static_cast<unsigned long long>(s.plans.load()),
                 static_cast<unsigned long long>(s.executes.load()), s.problem.c_str());
    plans += s.plans;
    executes += s.executes;
  }
  std::fprintf(out, "  total %8llu %10llu\n", static_cast<unsigned long long>(plans),
               static_cast<unsigned long long>(executes));
}

void arm_exit_report() {
  static std::once_flag once;
  // The program's own output comes first: stdout is flushed only after
  // the atexit handlers.
  if (config().report)
    std::call_once(once, [] {
      std::atexit([] {
        std::fflush(stdout);
        write_report(stderr);
      });
    });
}

}  // namespace gpufftw
