#include "engine/in_core/own_kernel.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "core/readings.h"
#include "engine/device/context.h"
#include "engine/device/event_runs.h"
#include "engine/in_core/tuning_within.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine {
namespace {

std::mutex picks_mutex;
KernelPickStore picks_store;                       // under picks_mutex
std::map<std::string, KernelPick> picks_in_process;  // under picks_mutex

bool recall(const std::string &key, KernelPick *pick) {
  std::lock_guard<std::mutex> lock(picks_mutex);
  auto it = picks_in_process.find(key);
  if (it != picks_in_process.end()) return *pick = it->second, true;
  if (!picks_store.recall || !picks_store.recall(key, pick)) return false;
  picks_in_process[key] = *pick;
  return true;
}

void remember(const std::string &key, const KernelPick &pick) {
  std::lock_guard<std::mutex> lock(picks_mutex);
  picks_in_process[key] = pick;
  if (picks_store.remember) picks_store.remember(key, pick);
}

// Our kernels' and cuFFT's runs under gpufftw's reading rule: the median
// of five after a warm-up, or the first alone where it is over `give_up`
// (a variant already beaten is not timed further).
ReadingRule tuning_rule(double give_up) {
  ReadingRule rule;
  rule.most_samples = 5;
  rule.give_up_s = give_up;
  return rule;
}

// g's transform size, row-major.
std::vector<long long> shape(const Geometry &g) {
  std::vector<long long> dims;
  for (const Axis &a : g.dims) dims.push_back(a.n);
  return dims;
}

// Every variant of g's shape against cuFFT's plan on scratch buffers of
// g's size, none once `within` says the plan's deadline has passed; false
// (with `why`) where it could not be measured.
bool tune(const Geometry &g, const Step &cufft, long long cufft_batch, cudaStream_t stream, TuningWithin *within,
          KernelPick *pick, std::string *why) {
  const std::vector<long long> dims = shape(g);
  const long long n = product(dims, 0, dims.size());
  const long long batch = g.loops.empty() ? 1 : g.loops[0].n;
  const size_t bytes = static_cast<size_t>(n) * batch * 2 * (g.real == Real::F32 ? sizeof(float) : sizeof(double));
  size_t free_bytes = 0, total = 0;
  GPUFFTW_CK(cudaMemGetInfo(&free_bytes, &total), why);
  // Scratch within the job's cap (GPUFFTW_DEVICE_MEMORY) and half of what
  // is free.
  const int buffers = g.in_place ? 1 : 2;
  if (buffers * bytes > std::min(free_bytes / 2, device_memory_cap()))
    return *why = "no room for scratch buffers of the problem's size", false;
  void *buf[2] = {nullptr, nullptr};
  bool ok = true;
  for (int i = 0; ok && i < buffers; ++i)
    ok = check(cudaMalloc(&buf[i], bytes), "cudaMalloc", why) &&
         check(cudaMemsetAsync(buf[i], 0x3c, bytes, stream), "cudaMemsetAsync", why);
  void *in = buf[0], *out = g.in_place ? buf[0] : buf[1];
  double best = 0;
  if (ok)
    ok = time_runs(
        stream, tuning_rule(1e30), [&] { return exec_plan(cufft, stream, in, out, why); }, &pick->cufft_s, why);
  pick->cufft_s *= static_cast<double>(batch) / static_cast<double>(cufft_batch);
  // The untimed default first: later variants are cut short once they lose
  // to it by a quarter.
  const std::vector<kernels::Variant> variants =
      ok ? kernels::TransformPlan::variants(dims, g.real) : std::vector<kernels::Variant>{};
  for (const kernels::Variant &v : variants) {
    if (!within->goes_on()) break;
    std::string not_this;
    auto plan = kernels::TransformPlan::create(dims, g.real, batch, v, &not_this);
    double s = 0;
    if (!plan || !time_runs(
                     stream, tuning_rule(best ? 1.25 * best : 1e30),
                     [&] { return plan->run(in, out, g.sign, stream, &not_this); }, &s, &not_this))
      continue;  // that variant cannot run here; the others may
    if (!best || s < best) best = s, pick->variant = v.name();
  }
  for (void *b : buf) cudaFree(b);
  if (!ok) return false;
  pick->own_s = best;
  // Ours only where it wins clearly: timing noise must not trade cuFFT for
  // a kernel no faster.
  if (!best || best > 0.98 * pick->cufft_s) pick->variant = "cufft";
  return true;
}

std::string ms(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g ms", 1e3 * s);
  return buf;
}

}  // namespace

void set_kernel_pick_store(KernelPickStore store) {
  std::lock_guard<std::mutex> lock(picks_mutex);
  picks_store = std::move(store);
}

bool own_kernel_suits(const Geometry &g) {
  if (g.own_kernels == Geometry::OwnKernels::None) return false;
  if (g.type != Type::C2C || g.loops.size() > 1 || g.split_in || g.split_out) return false;
  if (!kernels::TransformPlan::supports(shape(g))) return false;
  long long size = 1;
  for (size_t k = g.dims.size(); k-- > 0;) {
    if (g.dims[k].is != size || g.dims[k].os != size) return false;
    size *= g.dims[k].n;
  }
  return g.loops.empty() || (g.loops[0].is == size && g.loops[0].os == size);
}

std::string kernel_pick_key(const Geometry &g) {
  std::string dims;
  for (const Axis &a : g.dims) dims += (dims.empty() ? "" : "x") + std::to_string(a.n);
  return std::string("c2c.") + (g.real == Real::F32 ? "f32" : "f64") + ".n" + dims + ".b" +
         std::to_string(g.loops.empty() ? 1 : g.loops[0].n) + (g.in_place ? ".ip" : ".oop");
}

namespace {

std::string times(const KernelPick &pick) { return ms(pick.own_s) + " against cuFFT's " + ms(pick.cufft_s); }

// Why cuFFT stays without timing anything now, else false. Tuning starts
// only within the plan's deadline (plan_deadline()).
bool cufft_stays(const Geometry &g, const KernelPick *recalled, Reason *why) {
  kernels::Variant v;
  if (!recalled) {
    if (g.own_kernels != Geometry::OwnKernels::Tune)
      *why = {Reason::Code::NotAsked, "own kernels not measured for this problem: FFTW_MEASURE measures them"};
    else if (!TuningWithin(plan_deadline()).starts())
      *why = {Reason::Code::NotAsked, "own kernels not tuned: the program's time limit has passed"};
    else
      return false;
    return true;
  }
  if (recalled->variant != "cufft" && kernels::Variant::parse(recalled->variant, &v)) return false;
  *why = {Reason::Code::Slower, "tuned: own kernels " + times(*recalled)};
  return true;
}

}  // namespace

bool own_kernel_declines(const Geometry &g, Reason *why) {
  KernelPick pick;
  const bool known = recall(kernel_pick_key(g), &pick);
  return cufft_stays(g, known ? &pick : nullptr, why);
}

double own_kernel_time_ratio(const Geometry &g) {
  KernelPick pick;
  if (!recall(kernel_pick_key(g), &pick) || pick.own_s <= 0 || pick.cufft_s <= 0) return 1;
  return pick.own_s / pick.cufft_s;
}

std::unique_ptr<kernels::TransformPlan> pick_own_kernel(const Geometry &g, const Step &cufft, long long cufft_batch,
                                                       cudaStream_t stream, Reason *said) {
  const std::string key = kernel_pick_key(g);
  KernelPick pick;
  std::string why;
  const bool known = recall(key, &pick);
  if (cufft_stays(g, known ? &pick : nullptr, said)) return nullptr;
  // A pick the program's time limit cut short serves this plan alone.
  std::string cut_short;
  if (!known) {
    TuningWithin within(plan_deadline());
    if (!tune(g, cufft, cufft_batch, stream, &within, &pick, &why)) {
      *said = {Reason::Code::NoJob, "own kernels not tuned: " + why};
      return nullptr;
    }
    if (within.remembered())
      remember(key, pick);
    else
      cut_short = "; the program's time limit passed: not all variants timed, the pick not kept";
    if (cufft_stays(g, &pick, said)) return said->text += cut_short, nullptr;
  }
  kernels::Variant v;
  kernels::Variant::parse(pick.variant, &v);
  auto plan = kernels::TransformPlan::create(shape(g), g.real, g.loops.empty() ? 1 : g.loops[0].n, v, &why);
  *said = {Reason::Code::NoJob, plan ? "own kernel " + plan->describe() + " (tuned: " + times(pick) + cut_short + ")"
                                     : "own kernel " + pick.variant + " tuned faster but not planned: " + why};
  return plan;
}

}  // namespace gpufftw::engine
