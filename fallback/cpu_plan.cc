#include "fallback/cpu_plan.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "core/address_room.h"
#include "core/fork_guard.h"
#include "core/log.h"
#include "core/precision_traits.h"
#include "core/time_limit.h"
#include "fallback/real_fftw.h"

namespace gpufftw {
namespace {

// The live plans of precision R by the count of cleanups before each was
// made (real_cleanups), to tell whether any outlives a cleanup.
template <class R>
struct LivePlans {
  std::mutex mutex;
  std::map<uint64_t, uint64_t> by_cleanups;
};
template <class R>
LivePlans<R> &live_plans() {
  static LivePlans<R> *l = [] {
    auto *made = new LivePlans<R>;  // never destroyed: plans outlive statics
    // A plan destroyed on another thread as the program forks leaves the
    // list whole and its lock free in the child, which inherits the plans.
    guard_leaf_across_fork({[] { live_plans<R>().mutex.lock(); }, [] { live_plans<R>().mutex.unlock(); },
                            [] { live_plans<R>().mutex.unlock(); }});
    return made;
  }();
  return *l;
}

template <class R>
class CpuPlan final : public Plan {
  using T = PrecisionTraits<R>;
  using C = typename T::complex;

 public:
  CpuPlan(const Problem &problem, typename T::plan real) : Plan(problem), real_(real) {
    LivePlans<R> &l = live_plans<R>();
    const std::lock_guard<std::mutex> lock(l.mutex);
    ++l.by_cleanups[cleanups_];
  }
  ~CpuPlan() override {
    fftw().destroy_plan(real_);
    LivePlans<R> &l = live_plans<R>();
    const std::lock_guard<std::mutex> lock(l.mutex);
    if (--l.by_cleanups[cleanups_] == 0) l.by_cleanups.erase(cleanups_);
  }

  // Each entry goes to the real execute function of the same name, so the
  // real FFTW applies its own rules to the arrays, exactly as without us.
  void execute(const Arrays &x) override {
    const RealFftw<R> &f = fftw();
    R *const *r = reinterpret_cast<R *const *>(x.a);
    switch (x.entry) {
      case Entry::Execute: f.execute(real_); break;
      case Entry::Dft: f.execute_dft(real_, reinterpret_cast<C *>(x.a[0]), reinterpret_cast<C *>(x.a[1])); break;
      case Entry::SplitDft: f.execute_split_dft(real_, r[0], r[1], r[2], r[3]); break;
      case Entry::DftR2c: f.execute_dft_r2c(real_, r[0], reinterpret_cast<C *>(x.a[1])); break;
      case Entry::SplitDftR2c: f.execute_split_dft_r2c(real_, r[0], r[1], r[2]); break;
      case Entry::DftC2r: f.execute_dft_c2r(real_, reinterpret_cast<C *>(x.a[0]), r[1]); break;
      case Entry::SplitDftC2r: f.execute_split_dft_c2r(real_, r[0], r[1], r[2]); break;
      case Entry::R2r: f.execute_r2r(real_, r[0], r[1]); break;
    }
  }
  void print(FILE *out) const override { fftw().fprint_plan(real_, out); }
  void flops(double *add, double *mul, double *fma) const override { fftw().flops(real_, add, mul, fma); }
  double cost() const override { return fftw().cost(real_); }
  double estimate_cost() const override { return fftw().estimate_cost(real_); }
  Where where() const override { return Where::Cpu; }
  std::pair<Direct, void *> direct_execute() const override { return {run_real, real_}; }

 private:
  static const RealFftw<R> &fftw() { return real_fftw<R>(); }
  static void run_real(void *real) { fftw().execute(static_cast<typename T::plan>(real)); }
  typename T::plan real_;
  const uint64_t cleanups_ = real_cleanups<R>();
};

template <class R>
std::vector<typename PrecisionTraits<R>::iodim64> iodims(const std::vector<Dim> &dims) {
  std::vector<typename PrecisionTraits<R>::iodim64> v;
  for (const Dim &d : dims) v.push_back({d.n, d.is, d.os});
  return v;
}

template <class R>
typename PrecisionTraits<R>::plan plan_real(const RealFftw<R> &f, const Problem &p) {
  using C = typename PrecisionTraits<R>::complex;
  auto dims = iodims<R>(p.dims);
  auto loops = iodims<R>(p.howmany);
  const int rank = static_cast<int>(dims.size()), hrank = static_cast<int>(loops.size());
  R *const *in = reinterpret_cast<R *const *>(p.in);
  R *const *out = reinterpret_cast<R *const *>(p.out);
  switch (p.kind) {
    case Kind::C2C:
      if (p.split) return f.plan_guru64_split_dft(rank, dims.data(), hrank, loops.data(), in[0], in[1], out[0], out[1], p.flags);
      return f.plan_guru64_dft(rank, dims.data(), hrank, loops.data(), reinterpret_cast<C *>(p.in[0]),
                               reinterpret_cast<C *>(p.out[0]), p.sign, p.flags);
    case Kind::R2C:
      if (p.split) return f.plan_guru64_split_dft_r2c(rank, dims.data(), hrank, loops.data(), in[0], out[0], out[1], p.flags);
      return f.plan_guru64_dft_r2c(rank, dims.data(), hrank, loops.data(), in[0], reinterpret_cast<C *>(p.out[0]), p.flags);
    case Kind::C2R:
      if (p.split) return f.plan_guru64_split_dft_c2r(rank, dims.data(), hrank, loops.data(), in[0], in[1], out[0], p.flags);
      return f.plan_guru64_dft_c2r(rank, dims.data(), hrank, loops.data(), reinterpret_cast<C *>(p.in[0]), out[0], p.flags);
    case Kind::R2R: {
      std::vector<typename PrecisionTraits<R>::r2r_kind> kinds(p.r2r_kinds.begin(), p.r2r_kinds.end());
      return f.plan_guru64_r2r(rank, dims.data(), hrank, loops.data(), in[0], out[0], kinds.data(), p.flags);
    }
  }
  return nullptr;
}

thread_local std::string room_note;

// Where the problem's plan may not fit in the address space left, what
// the real FFTW plans instead (FFTW_ESTIMATE's plan in `fitted`) or false
// for none; said in the log and in room_note.
template <class R>
bool fit(const Problem &problem, Problem *fitted) {
  const std::optional<AddressSpace> space = address_space();
  if (!space) return true;
  const PlanNeeds needs = plan_needs(problem, sizeof(R));
  const Room room = plan_room(space->limit, space->in_use, needs, problem.flags);
  if (room == Room::AsAsked) return true;
  const std::string left = megabytes(space->limit > space->in_use ? space->limit - space->in_use : 0) +
                           " of address space left under its limit (ulimit -v)";
  std::string note;
  if (room == Room::Estimate) {
    *fitted = problem.estimated();
    note = "FFTW_ESTIMATE's plan: " + left + ", a measured plan may need " + megabytes(needs.as_asked);
  } else {
    note = "no plan: " + left + ", " + (needs.as_asked == needs.estimated ? "its plan" : "even FFTW_ESTIMATE's plan") +
           " may need " + megabytes(needs.estimated) + ", and the real FFTW aborts where its planner runs out";
  }
  GPUFFTW_LOG(Warn, "%s: %s", problem.describe().c_str(), note.c_str());
  if (room_note.find(note) == std::string::npos) room_note += "; " + note;
  return room == Room::Estimate;
}

}  // namespace

template <class R>
std::unique_ptr<Plan> make_cpu_plan(const Problem &problem) {
  const RealFftw<R> &f = real_fftw<R>();
  if (!f.loaded) return nullptr;
  Problem fitted = problem;
  if (!fit<R>(problem, &fitted)) return nullptr;
  typename PrecisionTraits<R>::plan real = plan_real(f, fitted);
  if (!real) return nullptr;
  return std::make_unique<CpuPlan<R>>(problem, real);
}

std::string take_room_note() {
  std::string note;
  note.swap(room_note);
  return note;
}

template std::unique_ptr<Plan> make_cpu_plan<float>(const Problem &);
template std::unique_ptr<Plan> make_cpu_plan<double>(const Problem &);
template std::unique_ptr<Plan> make_cpu_plan<long double>(const Problem &);

template <class R>
bool may_plan_without_harm() {
  LivePlans<R> &l = live_plans<R>();
  const std::lock_guard<std::mutex> lock(l.mutex);
  return l.by_cleanups.empty() || l.by_cleanups.begin()->first == real_cleanups<R>();
}

template bool may_plan_without_harm<float>();
template bool may_plan_without_harm<double>();
template bool may_plan_without_harm<long double>();

namespace {

std::atomic<int> threads_setting[2] = {1, 1};

}  // namespace

void note_planner_threads(Precision precision, int nthreads) {
  threads_setting[precision == Precision::F32 ? 0 : 1].store(std::max(1, nthreads));  // FFTW clamps so too
}
int planner_threads(Precision precision) { return threads_setting[precision == Precision::F32 ? 0 : 1].load(); }

namespace {

template <class R>
std::unique_ptr<Plan> cpu_plan_typed(const Problem &p, int threads, double time_limit) {
  const RealFftw<R> &f = real_fftw<R>();
  // fftw_plan_with_nthreads is "the maximum number" of threads (FFTW's
  // manual), and fftw_set_timelimit the planner's bound; for the time of
  // this plan each may be another. The planner's lock is held, so no
  // other plan sees the change.
  const int asked = planner_threads(p.precision);
  const bool other_threads = threads != asked && f.threads_loaded;
  const double program_limit = gpufftw::time_limit(p.precision);
  const bool other_limit = time_limit != program_limit && f.loaded;
  if (other_threads) f.plan_with_nthreads(threads);
  if (other_limit) f.set_timelimit(time_limit);
  std::unique_ptr<Plan> plan = make_cpu_plan<R>(p);
  if (other_limit) f.set_timelimit(program_limit);
  if (other_threads) f.plan_with_nthreads(asked);
  return plan;
}

}  // namespace

std::unique_ptr<Plan> cpu_plan_with_threads(const Problem &p, int threads, double time_limit) {
  if (threads == 0) threads = planner_threads(p.precision);
  return p.precision == Precision::F32 ? cpu_plan_typed<float>(p, threads, time_limit)
                                       : cpu_plan_typed<double>(p, threads, time_limit);
}

RecursiveLock &planner_mutex() {
  static RecursiveLock *m = [] {
    auto *made = new RecursiveLock;  // never destroyed: plans outlive statics
    // A child forked while another thread plans finds it free: the fork
    // waits for that plan to end.
    guard_outer_lock_across_fork({[] { planner_mutex().lock(); }, [] { planner_mutex().unlock(); },
                                  [] { planner_mutex().unlock(); }});
    return made;
  }();
  return *m;
}

}  // namespace gpufftw
