// What an fftw_plan / fftwf_plan handle points to: a Plan, made by the
// planner for one Problem, that runs on the real FFTW or on the GPU.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "core/problem.h"
#include "core/where.h"

namespace gpufftw {

// Which execute function of the API a call came through, with its arrays
// in the order that function takes them.
enum class Entry { Execute, Dft, SplitDft, DftR2c, SplitDftR2c, DftC2r, SplitDftC2r, R2r };

struct Arrays {
  Entry entry = Entry::Execute;
  void *a[4] = {nullptr, nullptr, nullptr, nullptr};
};

// The arrays of one call as the plan's own transform reads them: in and
// out hold one pointer, or {re, im} for a split side. An interleaved execute
// of a split plan sees the array as a pair one real apart, in the order
// FFTW's own execute takes (re first where the plan's were so on both
// sides, else im first);
// a split execute of an interleaved plan has FFTW-internal meaning, and
// false is returned.
bool resolve_arrays(const Problem &p, const Arrays &x, void *in[2], void *out[2]);

struct PlanStats;  // shim/report.h

class Plan {
  // The first member, right after the vtable pointer: made_here reads it
  // at the same offset of any handle.
  static constexpr uint64_t kMark = 0x6770'7566'6674'77a5ull;
  const uint64_t mark_ = kMark;

 public:
  explicit Plan(Problem problem) : problem_(std::move(problem)) {}

  // Whether a plan handle is one of gpufftw's, told apart from another
  // FFTW's plan that a program hands to gpufftw (shim/interpose/): FFTW's
  // handle holds two heap pointers where a Plan holds its vtable and this
  // mark, a value no user-space pointer takes (its high bits are neither
  // all zero nor all one).
  static bool made_here(const void *handle) {
    return static_cast<const Plan *>(handle)->mark_ == kMark;
  }
  virtual ~Plan() = default;
  Plan(const Plan &) = delete;
  Plan &operator=(const Plan &) = delete;

  virtual void execute(const Arrays &arrays) = 0;
  virtual void print(FILE *out) const = 0;
  virtual void flops(double *add, double *mul, double *fma) const = 0;
  virtual double cost() const = 0;
  virtual double estimate_cost() const = 0;
  virtual Where where() const = 0;  // Cpu or Gpu

  const Problem &problem() const { return problem_; }
  // fftw_execute's shortcut where nothing of gpufftw's is wanted around
  // it (a CPU plan outside the report, comparison and debug log): the real
  // FFTW's execute of `direct_arg`, called straight, as a 16-point
  // transform takes about as long as the checks it skips. Set by the
  // planner (from direct_execute()) or nullptr.
  using Direct = void (*)(void *);
  Direct direct = nullptr;
  void *direct_arg = nullptr;
  virtual std::pair<Direct, void *> direct_execute() const { return {nullptr, nullptr}; }

  PlanStats *stats = nullptr;  // set by the planner, owned by the report
  bool foreign = false;        // another FFTW's plan (shim/foreign.h): never compared
  uint64_t id = 0;             // set by the planner: 1, 2, ... in order of making
  std::string reason;          // set by the planner: why it runs where it does

 private:
  Problem problem_;
};

}  // namespace gpufftw
