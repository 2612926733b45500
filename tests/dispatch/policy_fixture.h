// The stand-ins dispatch's policy is tested against (planner.h): a GPU
// side whose prices, plans and readings the test sets, a real FFTW side
// whose plans only say what they were made as, and the Policy fixture
// that plans with them over a store of its own. No CUDA and no FFTW
// needed.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/planner.h"
#include "temp_dir.h"
#include "test_rates.h"

namespace gpufftw {

// A plan that records what it was made as; a reading of it is the test's.
class StandInPlan final : public Plan {
 public:
  StandInPlan(const Problem &p, bool gpu, Spread spread, int threads, Fp16Way way = Fp16Way::Single,
              std::string solver = "")
      : Plan(p), gpu_(gpu), spread_(spread), threads_(threads), way_(way), solver_(std::move(solver)) {}
  void execute(const Arrays &) override {}
  void print(FILE *) const override {}
  void flops(double *add, double *mul, double *fma) const override { *add = *mul = *fma = 0; }
  double cost() const override { return 0; }
  double estimate_cost() const override { return 0; }
  Where where() const override { return gpu_ ? Where::Gpu : Where::Cpu; }

  bool gpu() const { return gpu_; }
  Spread spread() const { return spread_; }
  int threads() const { return threads_; }
  Fp16Way way() const { return way_; }
  const std::string &solver() const { return solver_; }
  bool estimated() const { return problem().flags & FFTW_ESTIMATE; }

 private:
  bool gpu_;
  Spread spread_;
  int threads_;
  Fp16Way way_;
  std::string solver_;
};

inline const StandInPlan &made(const Dispatched &d) { return static_cast<const StandInPlan &>(*d.plan); }

class StandInGpu final : public GpuSide {
 public:
  bool named_by_driver() override { return named; }
  bool available(std::string *why_not) override {
    if (!usable && why_not) *why_not = "no GPU in this test";
    return usable;
  }
  bool lost(std::string *why) override {
    if (gone) *why = "the GPU was lost in this test";
    return gone;
  }
  Memory memory(const void *array) override {
    const auto it = memory_of.find(array);
    return it == memory_of.end() ? Memory::Pageable : it->second;
  }
  std::vector<SolverOffer> offers(const Problem &, Spread) override { return offered; }
  std::unique_ptr<Plan> plan(const Problem &p, Spread spread, Fp16Way way, const std::string &solver,
                             std::string *made_by, std::string *why_not) override {
    ++plans[spread];
    ++ways_made[way];
    ++solvers_made[solver];
    *made_by = solver;
    if (const auto next = goes_on_to.find(solver); next != goes_on_to.end()) {
      *why_not = solver + " made no job in this test";
      *made_by = next->second;
    } else if (solver_declines.count(solver)) {
      *why_not = solver + " makes no job in this test";
      return nullptr;
    }
    if (!takes || declines.count(way)) {
      *why_not = "the GPU cannot take it in this test";
      return nullptr;
    }
    if (spread == Spread::Set && !splits) {
      *why_not = "one GPU in this test";
      return nullptr;
    }
    return std::make_unique<StandInPlan>(p, true, spread, 0, way, *made_by);
  }
  std::optional<double> price(const Problem &, bool, Spread spread, const GpuRates &) override {
    return spread == Spread::Set ? set_s : one_s;
  }
  std::optional<HalfRates> half_rates(const GpuRates &, std::string *why_not) override {
    ++half_rates_asked;
    if (!half) *why_not = "no device in this test";
    return half;
  }
  void use_rates(const GpuRates &rates) override {
    ++rates_handed;
    handed = rates;
  }

  bool named = true, usable = true, gone = false, takes = true;
  bool splits = false;  // the device set's split takes the problem
  std::optional<double> one_s, set_s;  // the model's prices
  std::map<const void *, Memory> memory_of;
  std::map<Spread, int> plans;
  // The fp16 ways: the rates they are priced by (none: not measured),
  // those whose plan the GPU does not make, and the plans made of each.
  std::optional<HalfRates> half;
  std::set<Fp16Way> declines;
  std::map<Fp16Way, int> ways_made;
  int half_rates_asked = 0;
  // The engine's solvers offered at every placement, those whose plan the
  // GPU does not make, and the plans made with each named first ("": none).
  std::vector<SolverOffer> offered;
  std::set<std::string> solver_declines;
  // Those that make no job and the solver the engine then goes on to,
  // whose plan it returns.
  std::map<std::string, std::string> goes_on_to;
  std::map<std::string, int> solvers_made;
  // The calibrated rates dispatch last handed the GPU, and how often.
  std::optional<GpuRates> handed;
  int rates_handed = 0;
};

class StandInCpu final : public CpuSide {
 public:
  std::unique_ptr<Plan> plan(const Problem &p, int threads, double time_limit) override {
    if ((p.flags & FFTW_WISDOM_ONLY) && (!wisdom || (wisdom_threads && (threads ? threads : program_threads) != wisdom_threads)))
      return nullptr;
    if (!(p.flags & FFTW_ESTIMATE)) {
      ++measured_plans;
      limits.push_back(time_limit);
    }
    return std::make_unique<StandInPlan>(p, false, Spread::Auto, threads ? threads : program_threads);
  }
  int threads(Precision) override { return program_threads; }

  int program_threads = 1;
  bool wisdom = false;  // FFTW_WISDOM_ONLY finds a plan
  int wisdom_threads = 0;  // where set, at this thread count alone
  int measured_plans = 0;      // plans made with the program's measuring flags
  std::vector<double> limits;  // the time limit each of them was given
};

class Policy : public testing::Test {
 protected:
  void SetUp() override {
    planner_ = Planner{&gpu_, &cpu_, [this]() -> DispatchStore & { return store(); },
                       [this](Plan *plan, double) { return reading(static_cast<StandInPlan &>(*plan)); }, std::nullopt,
                       [this](const Problem &p) {
                         zeroed_.push_back(p.in[0]);
                         zeroed_at_reading_.push_back(readings_);
                       }};
  }

  // The store over this test's file, as a new process would read it
  // where `again`.
  DispatchStore &store(bool again = false) {
    if (!store_ || again) {
      // A new process reads the file: where it holds a table, the
      // calibrators below are not asked.
      DispatchStore::Calibrators c;
      c.gpu = [this](GpuRates *r, std::string *why) {
        if (!gpu_calibrates_) *why = "no GPU to calibrate in this test";
        *r = gpu_rates();
        if (set_gain_ > 0)
          for (int pinned = 0; pinned < 2; ++pinned)
            for (int batched = 0; batched < 2; ++batched)
              for (int k = 0; k < GpuRates::kSizes; ++k)
                r->set_seconds[pinned][batched][k] = r->seconds[pinned][batched][k] / set_gain_;
        return gpu_calibrates_;
      };
      c.cpu = [this](Precision p, int threads) {
        CpuRates r = cpu_rates(threads == 1 ? one_thread_ns_ : cpu_ns_);
        r.precision = p;
        r.threads = threads;
        return r;
      };
      store_ = std::make_unique<DispatchStore>(dir_ + "/dispatch.txt", [] { return std::string("test machine"); }, c);
    }
    return *store_;
  }

  // A new store and an empty file: the calibrators are asked again.
  void calibrate_again() {
    std::filesystem::remove(dir_ + "/dispatch.txt");
    store(true);
  }

  double reading(const StandInPlan &plan) {
    ++readings_;
    if (plan.gpu() && solver_read_s_.count(plan.solver())) return solver_read_s_[plan.solver()];
    if (plan.gpu() && way_read_s_.count(plan.way())) return way_read_s_[plan.way()];
    if (plan.gpu()) return plan.spread() == Spread::Set ? set_read_s_ : gpu_read_s_;
    if (plan.estimated()) return estimate_read_s_;
    return cpu_read_s_.count(plan.threads()) ? cpu_read_s_[plan.threads()] : cpu_read_s_[0];
  }

  // A problem the model prices, measured (on arrays) unless `flags` say otherwise.
  Problem problem(unsigned flags = FFTW_MEASURE) {
    Problem p = c2c_f32({1 << 16});
    p.flags = flags;
    p.in[0] = in_;
    p.out[0] = out_;
    return p;
  }

  // A measured problem the model is sure the GPU takes, where the device
  // set's split reads twice as fast as one GPU.
  Problem split_reads_faster() {
    const Problem p = problem();
    gpu_.one_s = cpu_price(p, 1) / (2 * kSureRatio);
    gpu_.splits = true;
    gpu_read_s_ = 2e-3;
    set_read_s_ = 1e-3;
    return p;
  }

  // A measured problem whose sides the model cannot separate: the GPU
  // reads twice as fast as the real FFTW's measured plan, which reads
  // faster than its estimated one.
  Problem close_sides() {
    const Problem p = problem();
    const double cpu_s = cpu_price(p, 1);
    gpu_.one_s = cpu_s * 0.8;
    gpu_read_s_ = cpu_s / 2;
    cpu_read_s_[0] = cpu_s;
    estimate_read_s_ = cpu_s * 1.2;
    return p;
  }

  // The model's price of the real FFTW at `threads`.
  double cpu_price(const Problem &p, int threads) { return cpu_seconds(p, store().cpu_rates(p.precision, threads)); }

  Dispatched choose_now(const Problem &p, gpufftw_mode mode = GPUFFTW_MODE_AUTO) {
    Dispatched d = choose(planner_, p, mode);
    EXPECT_NE(d.plan, nullptr) << d.why;
    return d;
  }

  Choice stored(const Problem &p, bool again = false) {
    Choice c;
    EXPECT_TRUE(store(again).recall(choice_key(p, cpu_.program_threads, false), &c)) << "no choice stored";
    return c;
  }

  const TempDir temp_{"policy"};
  const std::string dir_ = temp_.path();
  StandInGpu gpu_;
  StandInCpu cpu_;
  Planner planner_;
  std::unique_ptr<DispatchStore> store_;
  bool gpu_calibrates_ = true;
  // Where above 0, the calibrated tables have the device set's cells too,
  // every one this many times faster than one GPU's.
  double set_gain_ = 0;
  double cpu_ns_ = 0.5, one_thread_ns_ = 0.5;  // the CPU tables' speeds (test_rates.h)
  double gpu_read_s_ = 0, estimate_read_s_ = 0;
  double set_read_s_ = 0;  // the GPUs' split's, where the stand-in splits
  std::map<int, double> cpu_read_s_;  // by thread count; 0: any other
  std::map<Fp16Way, double> way_read_s_;  // a GPU plan's by its fp16 way, where set
  std::map<std::string, double> solver_read_s_;  // a GPU plan's by its solver, where set
  int readings_ = 0;
  std::vector<const void *> zeroed_;    // the input of each problem zeroed before its readings
  std::vector<int> zeroed_at_reading_;  // how many readings had been made when it was
  char in_[8] = {}, out_[8] = {};
};

}  // namespace gpufftw
