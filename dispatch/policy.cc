// choose(): the rule chain from the mode and the arrays' memory down to
// the model and FFTW_MEASURE (planner.h).
#include <mutex>

#include "core/config.h"
#include "core/log.h"
#include "core/time_limit.h"
#include "dispatch/measure.h"
#include "dispatch/thread_rules.h"
#include "dispatch/why.h"

namespace gpufftw {
namespace {

// GPUFFTW_MODE=gpu where no GPU can be used: every plan runs on the real
// FFTW, which the user asked not to happen, so it is said once.
void no_gpu_for_gpu_mode(const std::string &why) {
  static std::once_flag once;
  std::call_once(once, [&why] {
    GPUFFTW_LOG(Warn, "GPUFFTW_MODE=gpu, but no GPU can be used: %s; every plan runs on the real FFTW", why.c_str());
  });
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
Dispatched tiny(const Planner &pl, const Problem &p, int threads) {
  if (threads <= 1) return pl.on_cpu(p, "too small for the GPU to pay");
  const std::string why = "too small for the GPU or for threads to pay";
  std::unique_ptr<Plan> one = pl.cpu->plan(p, 1, time_limit(p.precision));
  if (one || !(p.flags & FFTW_WISDOM_ONLY)) return {std::move(one), why + ": 1 thread"};
  return pl.on_cpu(p, why + "; FFTW_WISDOM_ONLY: the wisdom at " + threads_text(threads), threads);
}

Dispatched automatic(const Planner &pl, const Problem &p) {
  GpuSide &gpu = *pl.gpu;
  const Memory in = gpu.memory(p.in[0]), out = gpu.memory(p.out[0]);
  if (in == Memory::Device || out == Memory::Device) {
    std::string why_not;
    if (auto plan = gpu.plan(p, Spread::Auto, &why_not)) return {std::move(plan), "arrays in device memory"};
    // The real FFTW would read device memory from the host and crash.
    GPUFFTW_LOG(Warn, "%s: arrays in device memory, but the GPU cannot take it (%s): NULL plan",
                p.describe().c_str(), why_not.c_str());
    return {nullptr, "arrays in device memory, but the GPU cannot take it: " + why_not};
  }
  if (in == Memory::Managed || out == Memory::Managed) return pl.on_gpu(p, "arrays in managed memory");
  const int threads = pl.cpu->threads(p.precision);
  if (p.transform_size() * p.batch() <= kTinyPoints) return tiny(pl, p, threads);
  // Fewer threads than the program asked for where they lose:
  // FFTW_ESTIMATE by the model, FFTW_MEASURE and up by timing the real
  // FFTW's plans at both counts (faster_of_threads), so that the program's
  // count has its wisdom too for a later FFTW_WISDOM_ONLY plan.
  const Deadline deadline = Deadline::of(p.precision);
  const bool estimate = p.flags & FFTW_ESTIMATE;
  // Measuring needs the arrays; FFTW_WISDOM_ONLY measures nothing.
  const bool measuring = !estimate && !(p.flags & FFTW_WISDOM_ONLY) && p.in[0] && p.out[0];
  std::string why_not;
  // Where the driver names the machine, CUDA starts only when a plan goes to
  // the GPU (or the GPU is calibrated); where the GPU then cannot be used,
  // its calibration fails and the plan stays on the CPU.
  if (!gpu.named_by_driver() && !gpu.available(&why_not)) return pl.on_cpu(p, why_not);
  const bool pinned = in == Memory::Pinned && out == Memory::Pinned;
  const std::string key = choice_key(p, threads, pinned);
  DispatchStore &store = pl.store();
  Choice c;
  if (store.recall(key, &c)) {
    const std::string why = "chosen earlier: gpu " + ms(c.gpu_s) + ", cpu " + ms(c.cpu_s);
    if (c.gpu) return pl.on_gpu(p, why, c.spread);
    const int cpu_threads =
        estimate ? cheapest_cpu(candidates(pl, p, threads, pinned, nullptr)).threads : c.threads ? c.threads : threads;
    // FFTW_WISDOM_ONLY too: the choice is gpufftw's wisdom, as a GPU one is.
    if (c.estimated)
      return pl.on_cpu(p.estimated(), why + " (" + threads_text(cpu_threads) + ", FFTW_ESTIMATE's plan)", cpu_threads);
    return pl.on_cpu(p, why + " (" + threads_text(cpu_threads) + ")", cpu_threads);
  }
  if (p.flags & FFTW_WISDOM_ONLY) return pl.on_cpu(p, "FFTW_WISDOM_ONLY: the real FFTW's wisdom decides");
  const std::optional<GpuRates> g = store.gpu_rates();
  if (!g)
    return pl.on_cpu(p, gpu.available(&why_not) ? "the GPU could not be calibrated (the log says why)" : why_not);
  const std::vector<Candidate> list = candidates(pl, p, threads, pinned, &*g);
  const Candidate cpu = cheapest_cpu(list);
  const std::optional<Candidate> gpu_way = cheapest_gpu(list);
  const int cpu_threads = estimate ? cpu.threads : threads;
  if (!gpu_way) return pl.on_cpu(p, "the model prices no GPU way for it", cpu_threads);
  const Verdict v = judge(gpu_way->price, cpu.price);
  if (measuring && (!v.sure || config().measure_always)) return measured(pl, p, key, list, cpu_threads, v, deadline);
  const std::string why = "model: gpu " + ms(v.gpu_s) + ", cpu " + ms(v.cpu_s) + cpu_terms(p, cpu_threads, true) +
                          placement_prices(list);
  if (measuring && !v.gpu && one_thread_may_win(list)) {
    int chosen = cpu_threads;
    Dispatched d = faster_of_threads(pl, p, cpu_threads, why, &chosen, deadline);
    store.remember(key, Choice{false, v.gpu_s, v.cpu_s, false, chosen == 1 ? 1 : 0});
    return d;
  }
  Choice model_choice{v.gpu, v.gpu_s, v.cpu_s};
  if (!v.gpu) {
    if (measuring) store.remember(key, model_choice);
    return pl.on_cpu(p, why, cpu_threads);
  }
  // Measuring, the split is timed against one GPU even where the model is
  // sure of the GPU and of its placement (`placed`: both readings where
  // timed, or why the GPU took no plan). Not measuring, a split the model
  // chose that the engine cannot make after all leaves one GPU.
  std::string placed;
  std::unique_ptr<Plan> plan = measuring
                                   ? placed_gpu_plan(pl, p, &model_choice.spread, nullptr, &placed)
                                   : gpu.plan(p, gpu_way->spread, &placed);
  if (!plan && !measuring && gpu_way->spread == Spread::Set) {
    std::string one_why;
    plan = gpu.plan(p, Spread::One, &one_why);
    placed = plan ? " (the split not taken: " + placed + ")" : one_why;
  }
  if (!plan) return pl.on_cpu(p, placed);
  if (measuring) store.remember(key, model_choice);
  return {std::move(plan), why + placed};
}

}  // namespace

Dispatched choose(const Planner &pl, const Problem &p, gpufftw_mode mode) {
  if (mode == GPUFFTW_MODE_CPU) return pl.on_cpu(p, "GPUFFTW_MODE=cpu");
  if (!pl.gpu) {
    if (mode == GPUFFTW_MODE_GPU) no_gpu_for_gpu_mode("built without CUDA");
    return pl.on_cpu(p, "built without CUDA");
  }
  std::string lost;
  if (pl.gpu->lost(&lost)) {
    // Asking what memory the arrays are is the one GPU call left.
    if (pl.gpu->memory(p.in[0]) == Memory::Device || pl.gpu->memory(p.out[0]) == Memory::Device)
      return {nullptr, "arrays in device memory, and " + lost};
    return pl.on_cpu(p, lost);
  }
  // r2r runs on the GPU too (engine/r2r/). In auto mode the model prices
  // it as the r2c of the same real size (the same bytes over PCIe, and
  // the real FFTW's r2c time from the model's tables): a proxy, since the
  // real FFTW's REDFT/RODFT run slower than its r2c and the GPU's pre and
  // post kernels cost little beside the transfers.
  if (mode == GPUFFTW_MODE_GPU) {
    std::string why_not;
    if (!pl.gpu->available(&why_not)) no_gpu_for_gpu_mode(why_not);
    return p.flags & FFTW_WISDOM_ONLY ? pl.on_cpu(p, "FFTW_WISDOM_ONLY: the real FFTW's wisdom decides")
                                      : pl.on_gpu(p, "GPUFFTW_MODE=gpu");
  }
  return automatic(pl, p);
}

}  // namespace gpufftw
