#include "dispatch/dispatch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "core/config.h"
#include "core/log.h"
#include "dispatch/calibrate.h"
#include "dispatch/cost_model.h"
#include "dispatch/machine.h"
#include "dispatch/store.h"
#include "fallback/cpu_plan.h"
#include "fallback/real_fftw.h"
#include "fftw_strings.h"
#if GPUFFTW_HAVE_CUDA
#include "dispatch/gpu_plan.h"
#include "engine/engine.h"
#include "engine/kernels/kernel_pick.h"
#endif

namespace gpufftw {
namespace {

// Below this many points no GPU can win against the real FFTW on one
// thread: a launch and a synchronisation alone cost more than its whole
// transform, and neither do threads (waking them costs more than the
// transform too). Deciding so needs neither CUDA nor the model.
constexpr int64_t kTinyPoints = 4096;

// The store once store() has made it: forgetting wisdom must not make it.
std::atomic<DispatchStore *> made_store{nullptr};

#if GPUFFTW_HAVE_CUDA
const std::string &driver_fingerprint() {
  static const std::string f = nvidia_driver_fingerprint();
  return f;
}

// The NVIDIA driver's own account of the GPUs where it gives one (no CUDA
// context needed), else the device CUDA opens.
const std::string &gpu_identity() {
  static const std::string id = [] {
    const std::string &driver = driver_fingerprint();
    return driver.empty() ? engine::device_identity() : "driver " + driver;
  }();
  return id;
}

std::string machine_identity() {
  return gpu_identity() + " | " + cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) +
         " threads | " + fftw_version_value + " | gpufftw " GPUFFTW_VERSION;
}

// The machine is named only when the store's file is first read for its
// contents: without the driver's account, naming it creates the CUDA context.
DispatchStore &store() {
  // Never destroyed: plans may be made from other libraries' destructors.
  static DispatchStore *s = new DispatchStore(dispatch_store_path(), machine_identity,
                                              DispatchStore::Calibrators{calibrate_gpu, calibrate_cpu, check_cpu, check_gpu});
  // The engine's picks between its own kernels and cuFFT live in it too.
  static const bool lent = (engine::set_kernel_pick_store(
                                {[](const std::string &k, engine::KernelPick *pick) { return s->recall_kernel(k, pick); },
                                 [](const std::string &k, const engine::KernelPick &pick) { s->remember_kernel(k, pick); }}),
                            true);
  (void)lent;
  made_store.store(s);
  return *s;
}

std::string ms(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g ms", 1e3 * seconds);
  return buf;
}
#endif

Dispatched on_cpu(const Problem &p, std::string why, int threads = 0) {
  return {cpu_plan_with_threads(p, threads), std::move(why)};
}

// GPUFFTW_MODE=gpu where no GPU can be used: every plan runs on the real
// FFTW, which the user asked not to happen, so it is said once.
void no_gpu_for_gpu_mode(const std::string &why) {
  static std::once_flag once;
  std::call_once(once, [&why] {
    GPUFFTW_LOG(Warn, "GPUFFTW_MODE=gpu, but no GPU can be used: %s; every plan runs on the real FFTW", why.c_str());
  });
}

#if GPUFFTW_HAVE_CUDA
std::string threads_text(int threads) { return std::to_string(threads) + (threads == 1 ? " thread" : " threads"); }

// How the real FFTW's side of a price was had: its threads, where its
// back-to-back time was scaled (between_work), and where the model's was
// for a size past its codelets (past_codelets).
std::string cpu_terms(const Problem &p, int threads, bool model) {
  std::string terms = " (" + threads_text(threads);
  char scaled[64];
  if (between_work(p, 1) != 1) {
    std::snprintf(scaled, sizeof scaled, ", %.2fx back to back", kBackToBackFastBy);
    terms += scaled;
  }
  if (model && past_codelets(p)) {
    std::snprintf(scaled, sizeof scaled, ", %.0fx past its codelets", kPastCodeletsBy);
    terms += scaled;
  }
  return terms + ")";
}

// The GPU's plan, the store made first: the engine keeps its kernel picks
// there (engine/kernels/own_kernel.h).
std::unique_ptr<Plan> gpu_plan(const Problem &p, std::string *why_not) {
  store();
  return make_gpu_plan(p, why_not);
}

// The GPU's plan, or the CPU's where the GPU cannot take the problem.
Dispatched on_gpu(const Problem &p, const std::string &why) {
  std::string why_not;
  if (auto plan = gpu_plan(p, &why_not)) return {std::move(plan), why};
  return on_cpu(p, why_not);
}

// Seconds of one execute of the plan on its own arrays (FFTW_MEASURE may
// overwrite them): after a warm-up, the median of samples until 5 were
// taken and 2 ms spent (fewer, just after planning, read small transforms
// several times slow); a single run where one takes over 50 ms; or, where
// the warm-up and the first sample are both over `enough` seconds, the
// faster (the other side is faster by then whatever the rest would say).
// One execute just after planning is no reading: the real FFTW's threads
// can run it many times slower than the plan then runs. Two are; a third
// would cost a big problem's FFTW_MEASURE a good part of what the real
// FFTW's own measuring takes (docs/dispatch-sweep.md, "FFTW_MEASURE").
double time_execute(Plan *plan, double enough = HUGE_VAL) {
  using clock = std::chrono::steady_clock;
  const Arrays arrays;
  std::vector<double> t;
  double spent = 0, warm_up = 0;
  for (int i = -1; i < 64; ++i) {
    const auto t0 = clock::now();
    plan->execute(arrays);
    const double s = std::chrono::duration<double>(clock::now() - t0).count();
    if (i < 0) {
      warm_up = s;
      continue;
    }
    if (s > 0.05) return s;
    t.push_back(s);
    if (t.size() == 1 && std::min(warm_up, s) > enough) return std::min(warm_up, s);
    spent += s;
    if (t.size() >= 5 && spent > 0.002) break;
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

// The real FFTW's predicted time at the program's thread count, or at one
// thread where the model prefers it (cost_model.h).
CpuPick cpu_pick(const Problem &p, int threads) {
  const CpuRates rates = store().cpu_rates(p.precision, threads);
  if (threads == 1) return {cpu_seconds(p, rates), 1};
  return pick_threads(p, rates, store().cpu_rates(p.precision, 1));
}

// Whether one thread may run p faster than the program's `threads`, by the
// model's tables: FFTW_MEASURE then times both, since
// fftw_plan_with_nthreads is a maximum and threads woken for a small
// transform cost more than it does.
bool one_thread_may_win(const Problem &p, int threads) {
  if (threads <= 1) return false;
  const double one = cpu_seconds(p, store().cpu_rates(p.precision, 1));
  return one < kOneThreadBy * cpu_seconds(p, store().cpu_rates(p.precision, threads));
}

// Readings of two plans of the real FFTW at different thread counts, each
// the least of three taken in turn: a reading just after planning runs
// small transforms several times slow (time_execute), and a slow spell falls
// on both plans alike instead of one.
void read_in_turn(Plan *a, Plan *b, double *a_s, double *b_s) {
  *a_s = *b_s = HUGE_VAL;
  for (int i = 0; i < 3; ++i) {
    if (a) *a_s = std::min(*a_s, time_execute(a));
    if (b) *b_s = std::min(*b_s, time_execute(b));
  }
}

// The real FFTW's measured plans at the program's `threads` and at one,
// each timed on the plan's arrays: the faster, its thread count in
// `chosen`, and both readings in the why.
Dispatched faster_of_threads(const Problem &p, int threads, const std::string &why, int *chosen) {
  std::unique_ptr<Plan> many = cpu_plan_with_threads(p, threads), one = cpu_plan_with_threads(p, 1);
  double many_s, one_s;
  read_in_turn(many.get(), one.get(), &many_s, &one_s);
  *chosen = one_s < many_s ? 1 : threads;
  const std::string read = "; measured: 1 thread " + ms(one_s) + ", " + threads_text(threads) + " " + ms(many_s) +
                           ": " + threads_text(*chosen);
  return {*chosen == 1 ? std::move(one) : std::move(many), why + read};
}

// Where FFTW_MEASURE's planning time goes, step by step, for the debug log.
class Laps {
 public:
  void operator()(const char *step) {
    const auto now = std::chrono::steady_clock::now();
    char lap[64];
    std::snprintf(lap, sizeof lap, "%s%s %.1f ms", text_.empty() ? "" : ", ", step,
                  std::chrono::duration<double, std::milli>(now - last_).count());
    text_ += lap;
    last_ = now;
  }
  void log(const Problem &p) const { GPUFFTW_LOG(Debug, "%s: measured in %s", p.describe().c_str(), text_.c_str()); }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::string text_;
};

// Stores FFTW_MEASURE's choice, or where it may have been read in a slow
// spell (lost_in_a_spell), keeps it for this process alone; what the why
// then adds.
std::string remember(const std::string &key, const Choice &c, const Verdict &model) {
  const double winner_s = c.gpu ? c.gpu_s : c.cpu_s, loser_s = c.gpu ? c.cpu_s : c.gpu_s;
  const double price = c.gpu ? model.cpu_s : model.gpu_s;
  const bool spell = lost_in_a_spell(winner_s, loser_s, price);
  store().remember(key, c, !spell);
  if (!spell) return "";
  char text[160];
  std::snprintf(text, sizeof text, "; the %s read %.1fx the model's %s: kept for this process only",
                c.gpu ? "cpu" : "gpu", loser_s / price, ms(price).c_str());
  return text;
}

// FFTW_MEASURE's choice, by timing both sides on the plan's arrays
// (docs/how-it-works.md, "FFTW_MEASURE's rules", has each rule in one
// table with the failure it prevents): the GPU first, then the real FFTW's FFTW_ESTIMATE plan (cheap to make), and only
// where that does not lose (estimate_loses_by), its plan with the
// program's flags; close readings are read again in turn (settle), and a
// losing side read far above the model's price for it, or the real FFTW's
// measured plan read above its FFTW_ESTIMATE plan that beat the GPU, again
// (doubt); where the measured plan still loses, that estimated plan runs
// (estimated_stands_in).
Dispatched measured(const Problem &p, const std::string &key, int cpu_threads, const Verdict &model) {
  Laps lap;
  std::string why_not;
  std::unique_ptr<Plan> gpu = gpu_plan(p, &why_not);
  if (!gpu) return on_cpu(p, why_not, cpu_threads);
  lap("GPU plan");
  // The real FFTW's readings as between other work (cost_model.h).
  auto time_cpu = [&p](Plan *plan, double enough = HUGE_VAL) { return between_work(p, time_execute(plan, enough)); };
  Choice c;
  c.gpu_s = time_execute(gpu.get());
  lap("its reading");
  const std::string threads = cpu_terms(p, cpu_threads, false);
  std::string estimate_read;
  double quick_s = HUGE_VAL;
  std::unique_ptr<Plan> quick = cpu_plan_with_threads(p.estimated(), cpu_threads);
  if (quick) {
    const double loses_s = estimate_loses_by(p) * c.gpu_s;
    quick_s = time_cpu(quick.get(), loses_s);
    // Doubted against the cut, not the GPU: a reading past the cut that
    // the model prices under it would leave the measured plan unmade, and
    // the GPU would run a problem whose measured plan beats it
    // (docs/dispatch-sweep.md, "FFTW_MEASURE").
    if (quick_s > loses_s) doubt(&quick_s, loses_s, model.cpu_s, kDoubtedBy, [&] { return time_cpu(quick.get()); });
    lap("FFTW_ESTIMATE plan and reading");
    if (quick_s > loses_s) {
      lap.log(p);
      c = Choice{true, c.gpu_s, quick_s};
      return {std::move(gpu), "measured: gpu " + ms(c.gpu_s) + ", cpu " + ms(c.cpu_s) + threads +
                                  " with FFTW_ESTIMATE's plan, not measured further" + remember(key, c, model)};
    }
    estimate_read = "; its FFTW_ESTIMATE plan " + ms(quick_s);
  }
  std::unique_ptr<Plan> cpu = cpu_plan_with_threads(p, cpu_threads);
  if (!cpu) return {std::move(gpu), "the real FFTW gives no plan"};
  lap("measured plan");
  c.cpu_s = time_cpu(cpu.get(), kSureRatio * c.gpu_s);
  if (one_thread_may_win(p, cpu_threads)) {
    std::unique_ptr<Plan> one = cpu_plan_with_threads(p, 1);
    double many_s, one_s;
    read_in_turn(cpu.get(), one.get(), &many_s, &one_s);
    if (one_s < many_s) {
      cpu = std::move(one);
      c.threads = 1;
    }
    c.cpu_s = between_work(p, std::min(one_s, many_s));
    lap("its one-thread plan, and both read in turn");
  }
  auto read_gpu = [&gpu] { return time_execute(gpu.get()); };
  auto read_cpu = [&] { return time_cpu(cpu.get()); };
  settle(&c.gpu_s, &c.cpu_s, read_gpu, read_cpu);
  if (c.gpu_s < c.cpu_s) {
    doubt(&c.cpu_s, c.gpu_s, model.cpu_s, kDoubtedBy, read_cpu);
    doubt(&c.cpu_s, c.gpu_s, quick_s, 1, read_cpu);
  } else {
    doubt(&c.gpu_s, c.cpu_s, model.gpu_s, kDoubtedBy, read_gpu);
  }
  if (quick && estimated_stands_in(c.gpu_s, c.cpu_s, quick_s)) {
    estimate_read = " with FFTW_ESTIMATE's plan, which runs; its measured plan " + ms(c.cpu_s);
    c.estimated = true;
    c.threads = 0;
    c.cpu_s = quick_s;
    cpu = std::move(quick);
  }
  lap("its reading and readings again");
  lap.log(p);
  c.gpu = c.gpu_s < c.cpu_s;
  const std::string why = "measured: gpu " + ms(c.gpu_s) + ", cpu " + ms(c.cpu_s) +
                          (c.threads ? cpu_terms(p, c.threads, false) : threads) + estimate_read +
                          remember(key, c, model);
  return c.gpu ? Dispatched{std::move(gpu), why} : Dispatched{std::move(cpu), why};
}

// A problem of at most kTinyPoints, under every flag: on the CPU at one
// thread, with no plan at the program's count. Where FFTW_MEASURE timed
// both counts, the program's never beat one thread by more than the
// readings' noise (304 such plans of the dispatch sweep, 16 threads asked
// for), and its plan alone costs what the real FFTW's own FFTW_MEASURE
// does, so that a one-thread plan beside it runs past that.
// FFTW_WISDOM_ONLY takes the one-thread wisdom this rule leaves, else the
// program's count's (wisdom the real FFTW made at it: imported, or
// planned in GPUFFTW_MODE=cpu).
Dispatched tiny(const Problem &p, int threads) {
  if (threads <= 1) return on_cpu(p, "too small for the GPU to pay");
  const std::string why = "too small for the GPU or for threads to pay";
  std::unique_ptr<Plan> one = cpu_plan_with_threads(p, 1);
  if (one || !(p.flags & FFTW_WISDOM_ONLY)) return {std::move(one), why + ": 1 thread"};
  return on_cpu(p, why + "; FFTW_WISDOM_ONLY: the wisdom at " + threads_text(threads), threads);
}

Dispatched automatic(const Problem &p) {
  const engine::Memory in = engine::memory_type(p.in[0]), out = engine::memory_type(p.out[0]);
  if (in == engine::Memory::Device || out == engine::Memory::Device) {
    std::string why_not;
    if (auto plan = gpu_plan(p, &why_not)) return {std::move(plan), "arrays in device memory"};
    // The real FFTW would read device memory from the host and crash.
    GPUFFTW_LOG(Warn, "%s: arrays in device memory, but the GPU cannot take it (%s): NULL plan",
                p.describe().c_str(), why_not.c_str());
    return {nullptr, "arrays in device memory, but the GPU cannot take it: " + why_not};
  }
  if (in == engine::Memory::Managed || out == engine::Memory::Managed) return on_gpu(p, "arrays in managed memory");
  const int threads = planner_threads(p.precision);
  if (p.transform_size() * p.batch() <= kTinyPoints) return tiny(p, threads);
  // Fewer threads than the program asked for where they lose:
  // FFTW_ESTIMATE by the model, FFTW_MEASURE and up by timing the real
  // FFTW's plans at both counts (faster_of_threads), so that the program's
  // count has its wisdom too for a later FFTW_WISDOM_ONLY plan.
  const bool estimate = p.flags & FFTW_ESTIMATE;
  // Measuring needs the arrays; FFTW_WISDOM_ONLY measures nothing.
  const bool measuring = !estimate && !(p.flags & FFTW_WISDOM_ONLY) && p.in[0] && p.out[0];
  std::string why_not;
  // Where the driver names the machine, CUDA starts only when a plan goes to
  // the GPU (or the GPU is calibrated); where the GPU then cannot be used,
  // its calibration fails and the plan stays on the CPU.
  if (driver_fingerprint().empty() && !engine::gpu_available(&why_not)) return on_cpu(p, why_not);
  const bool pinned = in == engine::Memory::Pinned && out == engine::Memory::Pinned;
  const std::string key = choice_key(p, threads, pinned);
  Choice c;
  if (store().recall(key, &c)) {
    const std::string why = "chosen earlier: gpu " + ms(c.gpu_s) + ", cpu " + ms(c.cpu_s);
    if (c.gpu) return on_gpu(p, why);
    const int cpu_threads = estimate ? cpu_pick(p, threads).threads : c.threads ? c.threads : threads;
    // FFTW_WISDOM_ONLY too: the choice is gpufftw's wisdom, as a GPU one is.
    if (c.estimated)
      return on_cpu(p.estimated(), why + " (" + threads_text(cpu_threads) + ", FFTW_ESTIMATE's plan)", cpu_threads);
    return on_cpu(p, why + " (" + threads_text(cpu_threads) + ")", cpu_threads);
  }
  if (p.flags & FFTW_WISDOM_ONLY) return on_cpu(p, "FFTW_WISDOM_ONLY: the real FFTW's wisdom decides");
  const std::optional<GpuRates> g = store().gpu_rates();
  if (!g)
    return on_cpu(p, engine::gpu_available(&why_not) ? "the GPU could not be calibrated (the log says why)" : why_not);
  const CpuPick pick = cpu_pick(p, threads);
  const int cpu_threads = estimate ? pick.threads : threads;
  const Verdict v = judge(gpu_seconds(p, pinned, *g), pick.seconds);
  if (measuring && (!v.sure || config().measure_always)) return measured(p, key, cpu_threads, v);
  const std::string why =
      "model: gpu " + ms(v.gpu_s) + ", cpu " + ms(v.cpu_s) + cpu_terms(p, cpu_threads, true);
  // A measuring plan leaves wisdom behind in the real FFTW; this one's is
  // the choice, so that FFTW_WISDOM_ONLY finds a plan for it later too.
  if (measuring && !v.gpu && one_thread_may_win(p, cpu_threads)) {
    int chosen = cpu_threads;
    Dispatched d = faster_of_threads(p, cpu_threads, why, &chosen);
    store().remember(key, Choice{false, v.gpu_s, v.cpu_s, false, chosen == 1 ? 1 : 0});
    return d;
  }
  if (measuring) store().remember(key, Choice{v.gpu, v.gpu_s, v.cpu_s});
  return v.gpu ? on_gpu(p, why) : on_cpu(p, why, cpu_threads);
}
#endif

}  // namespace

std::string choice_key(const Problem &p, int threads, bool pinned) {
  std::string k = std::string(kind_name(p.kind)) + (p.precision == Precision::F32 ? ".f32" : ".f64");
  auto dims = [&k](char tag, const std::vector<Dim> &v) {
    k += '.';
    k += tag;
    for (const Dim &d : v) k += std::to_string(d.n) + ":" + std::to_string(d.is) + ":" + std::to_string(d.os) + ",";
  };
  dims('n', p.dims);
  dims('h', p.howmany);
  if (p.kind == Kind::C2C) k += p.sign == FFTW_FORWARD ? ".fwd" : ".bwd";
  if (p.kind == Kind::R2R) {
    k += ".k";
    for (fftw_r2r_kind r : p.r2r_kinds) k += std::to_string(r) + ",";
  }
  k += p.in_place() ? ".ip" : ".oop";
  if (p.split) k += ".split";
  // A choice timed in half precision (GPUFFTW_PRECISION=fp16) is not one in single.
  if (half_wanted(p)) k += ".fp16";
  k += ".t" + std::to_string(threads) + (pinned ? ".pinned" : ".pageable");
  return k;
}

void forget_choices(Precision precision) {
  const std::string tag = precision == Precision::F32 ? ".f32." : ".f64.";
  if (DispatchStore *s = made_store.load())
    s->forget([&tag](const std::string &key) { return key.find(tag) != std::string::npos; });
}

Dispatched dispatch(const Problem &p, gpufftw_mode mode) {
  if (mode == GPUFFTW_MODE_CPU) return on_cpu(p, "GPUFFTW_MODE=cpu");
#if GPUFFTW_HAVE_CUDA
  // The store's folder and file are checked at the first plan, GPU or not,
  // so that a bad GPUFFTW_CACHE_DIR or dispatch.txt is told at once.
  static const bool checked = (store().check(), true);
  (void)checked;
  const CalibrationNotice notice;
  std::string lost;
  if (gpu_engine_lost(&lost)) {
    // Asking what memory the arrays are is the one CUDA call left.
    if (arrays_on_device(p)) return {nullptr, "arrays in device memory, and " + lost};
    return on_cpu(p, lost);
  }
  // r2r runs on the GPU too (engine/r2r/). In auto mode the model prices
  // it as the r2c of the same real size (the same bytes over PCIe, and
  // the real FFTW's r2c time from the model's tables): a proxy, since the
  // real FFTW's REDFT/RODFT run slower than its r2c and the GPU's pre and
  // post kernels cost little beside the transfers.
  if (mode == GPUFFTW_MODE_GPU) {
    std::string why_not;
    if (!engine::gpu_available(&why_not)) no_gpu_for_gpu_mode(why_not);
    return p.flags & FFTW_WISDOM_ONLY ? on_cpu(p, "FFTW_WISDOM_ONLY: the real FFTW's wisdom decides")
                                      : on_gpu(p, "GPUFFTW_MODE=gpu");
  }
  return automatic(p);
#else
  if (mode == GPUFFTW_MODE_GPU) no_gpu_for_gpu_mode("built without CUDA");
  return on_cpu(p, "built without CUDA");
#endif
}

std::string placement_note(const Plan *plan) {
#if GPUFFTW_HAVE_CUDA
  if (plan && std::string(plan->where()) == "gpu") return "; on " + gpu_plan_placement(*plan);
#else
  (void)plan;
#endif
  return "";
}

#if GPUFFTW_HAVE_CUDA
bool recall_measured(const std::string &key, Choice *choice) { return store().recall(key, choice); }

void remember_measured(const std::string &key, const Choice &choice) { store().remember(key, choice); }
#else
// Built without CUDA there is no store (it is the GPU's and the machine's):
// a measured choice lasts for the process.
namespace {
std::mutex measured_mutex;
std::map<std::string, Choice> &measured_choices() {
  static auto *m = new std::map<std::string, Choice>;  // never destroyed: plans may outlive static destructors
  return *m;
}
}  // namespace

bool recall_measured(const std::string &key, Choice *choice) {
  std::lock_guard<std::mutex> lock(measured_mutex);
  auto it = measured_choices().find(key);
  if (it == measured_choices().end()) return false;
  *choice = it->second;
  return true;
}

void remember_measured(const std::string &key, const Choice &choice) {
  std::lock_guard<std::mutex> lock(measured_mutex);
  measured_choices()[key] = choice;
}
#endif

}  // namespace gpufftw
