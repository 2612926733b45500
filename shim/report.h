// Counts per kind of plan, for GPUFFTW_REPORT=1 and gpufftw_report().
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gpufftw {

struct Problem;

struct PlanStats {
  std::string problem;  // Problem::describe()
  std::string where;    // "cpu", "gpu", or "none" for a NULL plan
  std::atomic<uint64_t> plans{0};
  std::atomic<uint64_t> executes{0};
  std::atomic<uint64_t> execute_ns{0};  // wall time inside execute, with GPUFFTW_REPORT=1
  std::atomic<uint64_t> plan_ns{0};     // wall time inside the planner, measuring included
};

// The entry for plans of this problem made to run `where`, for the reason
// `why` (the latest plan's, where plans of one problem had several); it
// lives until the process ends, so a plan's pointer to it stays valid after
// destroy.
PlanStats *stats_for(const Problem &problem, const char *where, const std::string &why);

void write_report(FILE *out);

// Whether any plan was asked of gpufftw in this process (stats_for called).
bool any_plan_asked();

// The report's heading names this rank of `size` (an MPI program's ranks
// each print one).
void label_report(int rank, int size);

// Prints the report at exit when GPUFFTW_REPORT=1; called by the planner.
void arm_exit_report();

}  // namespace gpufftw
