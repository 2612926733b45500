// Plans of another FFTW in the process (shim/foreign.h): the real FFTW MPI's
// plans, made by libgpufftw_mpi, in gpufftw's own plan handle.
#include "shim/foreign.h"

#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <tuple>

#include "core/config.h"
#include "core/log.h"
#include "core/plan.h"
#include "core/time_limit.h"
#include "dispatch/dispatch.h"
#include "fallback/cpu_plan.h"
#include "shim/compare.h"
#include "shim/interpose/other_fftw.h"
#include "shim/report.h"
#include "shim/trace.h"

namespace gpufftw {
namespace {

// A foreign plan may itself be made of gpufftw plans (libgpufftw_mpi's
// composed distributed plans execute, print and destroy serial plans of
// their own): those calls are calls of their own, not the caller's call
// wrapped twice, so they open their API scopes afresh.
class OwnCalls {
 public:
  OwnCalls() : depth_(api_depth) { api_depth = 0; }
  ~OwnCalls() { api_depth = depth_; }
  OwnCalls(const OwnCalls &) = delete;
  OwnCalls &operator=(const OwnCalls &) = delete;

 private:
  int depth_;
};

class ForeignPlan final : public Plan {
 public:
  ForeignPlan(Problem p, const gpufftw_foreign_ops *ops, void *real)
      : Plan(std::move(p)), ops_(ops), real_(real), where_(where_of(ops, real)) {
    foreign = true;
  }
  ~ForeignPlan() override {
    OwnCalls own;
    ops_->destroy(real_);
  }

  void execute(const Arrays &a) override {
    OwnCalls own;
    switch (a.entry) {
      case Entry::Execute: ops_->execute(real_); return;
      case Entry::Dft:
      case Entry::DftR2c:
      case Entry::DftC2r:
      case Entry::R2r: ops_->execute_r2r(real_, a.a[0], a.a[1]); return;
      default:
        GPUFFTW_LOG(Warn, "a split-array execute of a plan of %s; nothing done", ops_->origin);
        return;
    }
  }
  void print(FILE *out) const override {
    OwnCalls own;
    ops_->fprint(real_, out);
  }
  void flops(double *add, double *mul, double *fma) const override {
    OwnCalls own;
    ops_->flops(real_, add, mul, fma);
  }
  double cost() const override {
    OwnCalls own;
    return ops_->cost(real_);
  }
  double estimate_cost() const override {
    OwnCalls own;
    return ops_->estimate_cost(real_);
  }
  Where where() const override { return where_; }
  std::pair<Direct, void *> direct_execute() const override { return {ops_->execute, real_}; }

  const gpufftw_foreign_ops *ops() const { return ops_; }
  void *real() const { return real_; }

 private:
  // Where its ops say it computes: the GPU where they say "gpu", else the CPU.
  static Where where_of(const gpufftw_foreign_ops *ops, void *real) {
    Where w = Where::Cpu;
    return ops->where && where_from_name(ops->where(real), &w) && w == Where::Gpu ? Where::Gpu : Where::Cpu;
  }

  const gpufftw_foreign_ops *ops_;
  void *real_;
  const Where where_;
};

// The serial FFTW under the real FFTW MPI, per precision (F32, F64): its
// fftw_forget_wisdom and fftw_cleanup, null until libgpufftw_mpi opens it.
struct ForeignWisdom {
  std::atomic<void (*)()> forget{nullptr}, cleanup{nullptr};
};
ForeignWisdom foreign_wisdom[2];

ForeignWisdom &foreign_wisdom_of(Precision p) { return foreign_wisdom[p == Precision::F64]; }

const char *file_of(void *p) {
  Dl_info info{};
  return p && dladdr(p, &info) && info.dli_fname ? info.dli_fname : nullptr;
}

}  // namespace

namespace {

// The problem a foreign plan computes, as far as the C ABI tells it: kind,
// precision and sizes, no strides.
Problem foreign_problem(char precision, gpufftw_foreign_kind kind, int rank, const long *n, long howmany) {
  Problem p;
  p.precision = precision == 'f' ? Precision::F32 : Precision::F64;
  p.kind = kind == GPUFFTW_FOREIGN_R2C ? Kind::R2C
           : kind == GPUFFTW_FOREIGN_C2R ? Kind::C2R
           : kind == GPUFFTW_FOREIGN_R2R ? Kind::R2R
                                         : Kind::C2C;
  for (int i = 0; n && i < rank; ++i) p.dims.push_back({n[i], 0, 0});
  if (howmany != 1) p.howmany.push_back({howmany, 0, 0});
  if (p.kind == Kind::R2R) p.r2r_kinds.assign(p.dims.size(), FFTW_R2HC);
  return p;
}

}  // namespace

void forget_foreign_wisdom(Precision precision, bool cleanup) {
  ForeignWisdom &w = foreign_wisdom_of(precision);
  if (void (*f)() = (cleanup ? w.cleanup : w.forget).load()) f();
}

void check_real_fftw_mpi_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char *prefix : {"fftw", "fftwf"}) {
      const std::string p = prefix;
      const char *real = file_of(dlsym(RTLD_DEFAULT, (p + "_mpi_local_size_guru").c_str()));
      const char *entry = file_of(dlsym(RTLD_DEFAULT, (p + "_mpi_init").c_str()));
      if (real && entry && std::strcmp(real, entry) == 0)
        GPUFFTW_LOG(Warn, "this program calls the real FFTW MPI (%s) directly, not through libgpufftw_mpi.so.1: "
                    "its MPI plans are not gpufftw's, and %s_execute will crash on them; preload "
                    "libgpufftw_mpi.so.1 too (gpufftw-run does where ldd shows libfftw3_mpi), or use the drop-in "
                    "folder", real, prefix);
    }
  });
}

}  // namespace gpufftw

#pragma GCC visibility push(default)
extern "C" {

void *gpufftw_foreign_plan(const gpufftw_foreign_ops *ops, void *real, char precision, gpufftw_foreign_kind kind,
                           int rank, const long *n, long howmany, int sign, void *in, void *out, double plan_ms) {
  using namespace gpufftw;
  if (!ops || !real) return nullptr;
  arm_exit_report();
  Problem p = gpufftw::foreign_problem(precision, kind, rank, n, howmany);
  p.sign = sign;
  p.in[0] = in;
  p.out[0] = out;
  auto *plan = new ForeignPlan(std::move(p), ops, real);
  static std::atomic<uint64_t> next_id{1u << 30};
  plan->id = ++next_id;
  plan->reason = ops->why ? ops->why(real) : std::string("planned by ") + ops->origin;
  plan->stats = stats_for(plan->problem(), where_name(plan->where()), plan->reason);
  plan->stats->plans.fetch_add(1, std::memory_order_relaxed);
  plan->stats->plan_ns.fetch_add(static_cast<uint64_t>(plan_ms > 0 ? plan_ms * 1e6 : 0), std::memory_order_relaxed);
  if (!config().report && log_level() < LogLevel::Debug)
    std::tie(plan->direct, plan->direct_arg) = plan->direct_execute();
  GPUFFTW_LOG(Debug, "plan %s by %s", plan->problem().describe().c_str(), ops->origin);
  return plan;
}

// The MPI layer plans in a library of its own, outside gpufftw's planner
// lock, so these three take it as every plan entry and wisdom call does:
// a first price calibrates the CPU, running the real FFTW's planner and
// saving and restoring its wisdom, which must not run beside another
// thread's planning (the real planner is not thread-safe); and a fork
// takes that lock before the store's, so the store is never held by
// another thread when a child is made.
int gpufftw_foreign_recall(const char *key, int *composed, double *composed_ms, double *real_ms) {
  GPUFFTW_PLANNER_LOCKED;
  gpufftw::Choice c;
  if (!key || !gpufftw::recall_measured(key, &c)) return 0;
  *composed = c.gpu;
  *composed_ms = c.gpu_s * 1e3;
  *real_ms = c.cpu_s * 1e3;
  return 1;
}

void gpufftw_foreign_remember(const char *key, int composed, double composed_ms, double real_ms) {
  GPUFFTW_PLANNER_LOCKED;
  if (key) gpufftw::remember_measured(key, gpufftw::Choice{composed != 0, composed_ms / 1e3, real_ms / 1e3});
}

double gpufftw_foreign_cpu_seconds(char precision, gpufftw_foreign_kind kind, int rank, const long *n, long howmany,
                                   int threads) {
  GPUFFTW_PLANNER_LOCKED;
  return gpufftw::cpu_model_seconds(gpufftw::foreign_problem(precision, kind, rank, n, howmany), threads);
}

double gpufftw_foreign_time_limit(char precision) {
  return gpufftw::time_limit(precision == 'f' ? gpufftw::Precision::F32 : gpufftw::Precision::F64);
}

void *gpufftw_foreign_plan_begin(double limit) { return new gpufftw::PlanDeadline(gpufftw::Deadline(limit)); }

void gpufftw_foreign_plan_end(void *scope) { delete static_cast<gpufftw::PlanDeadline *>(scope); }

void gpufftw_own_library(const void *code) { gpufftw::note_own_library(code); }

void gpufftw_foreign_report_rank(int rank, int size) { gpufftw::label_report(rank, size); }

void gpufftw_foreign_wisdom(char precision, void (*forget_wisdom)(void), void (*cleanup)(void)) {
  gpufftw::ForeignWisdom &w =
      gpufftw::foreign_wisdom_of(precision == 'f' ? gpufftw::Precision::F32 : gpufftw::Precision::F64);
  w.forget = forget_wisdom;
  w.cleanup = cleanup;
}

void *gpufftw_foreign_plan_real(const void *plan, const gpufftw_foreign_ops *ops) {
  auto *f = dynamic_cast<const gpufftw::ForeignPlan *>(static_cast<const gpufftw::Plan *>(plan));
  return f && f->ops() == ops ? f->real() : nullptr;
}

}  // extern "C"
#pragma GCC visibility pop
