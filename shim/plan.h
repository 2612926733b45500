// What an fftw_plan / fftwf_plan handle points to: a Plan, made by the
// planner for one Problem, that runs on the real FFTW or on the GPU.
#pragma once

#include <cstdio>
#include <memory>

#include "shim/problem.h"

namespace gpufftw {

// Which execute function of the API a call came through, with its arrays
// in the order that function takes them.
enum class Entry { Execute, Dft, SplitDft, DftR2c, SplitDftR2c, DftC2r, SplitDftC2r, R2r };

struct Arrays {
  Entry entry = Entry::Execute;
  void *a[4] = {nullptr, nullptr, nullptr, nullptr};
};

struct PlanStats;  // report.h

class Plan {
 public:
  explicit Plan(Problem problem) : problem_(std::move(problem)) {}
  virtual ~Plan() = default;
  Plan(const Plan &) = delete;
  Plan &operator=(const Plan &) = delete;

  virtual void execute(const Arrays &arrays) = 0;
  virtual void print(FILE *out) const = 0;
  virtual void flops(double *add, double *mul, double *fma) const = 0;
  virtual double cost() const = 0;
  virtual double estimate_cost() const = 0;
  virtual const char *where() const = 0;  // "cpu" or "gpu"

  const Problem &problem() const { return problem_; }
  PlanStats *stats = nullptr;  // set by the planner, owned by the report

 private:
  Problem problem_;
};

}  // namespace gpufftw
