// choose(): what precedes the planner in FFTW too (the mode, as its
// flags; the wisdom; FFTW_WISDOM_ONLY), then the problem's ways, each
// asked whether it applies and priced (candidates.h), and the one decision
// over them (decide.h).
#include <mutex>

#include "core/log.h"
#include "core/time_limit.h"
#include "dispatch/decide.h"
#include "dispatch/fp16_candidates.h"
#include "dispatch/sides.h"
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

// A choice the store recalled (FFTW's wisdom): the GPU's, placed as
// chosen (an fp16 problem's way as stored with it, gpu_way_plan), or the
// real FFTW's at the count chosen (under FFTW_ESTIMATE the
// model's cheaper count), its FFTW_ESTIMATE plan where that is what won.
// Under FFTW_WISDOM_ONLY too: the choice is gpufftw's wisdom, as a GPU one
// is.
Dispatched recalled(const Planner &pl, const Problem &p, const Choice &c, std::vector<Candidate> list) {
  const std::string why = "chosen earlier: gpu " + ms(c.gpu_s) + ", cpu " + ms(c.cpu_s);
  if (c.gpu) {
    pl.hand_held_rates();
    half_ways_alone(pl, p, c.spread, &list);
    return on_gpu_ways(pl, p, list, c.spread, why);
  }
  int threads = c.threads ? c.threads : list.front().threads;
  if (p.flags & FFTW_ESTIMATE) {
    price_cpu(pl, p, &list);
    threads = cheapest_cpu(list).threads;
  }
  if (c.estimated)
    return pl.on_cpu(p.estimated(), why + " (" + threads_text(threads) + ", FFTW_ESTIMATE's plan)", threads);
  const std::string at = why + " (" + threads_text(threads) + ")";
  if (p.flags & FFTW_WISDOM_ONLY) return pl.wisdom_only_on_cpu(p, at, threads, list.front().threads);
  return pl.on_cpu(p, at, threads);
}

// Every way asked whether it applies; where both sides do, the wisdom
// (the store's recalled choice) and FFTW_WISDOM_ONLY come first, as in
// FFTW's planner and as the MPI layer starts (sides.h), then the model
// prices each way; then the one decision.
Dispatched automatic(const Planner &pl, const Problem &p) {
  GpuSide &gpu = *pl.gpu;
  const Memory in = gpu.memory(p.in[0]), out = gpu.memory(p.out[0]);
  const int threads = pl.cpu->threads(p.precision);
  std::vector<Candidate> list = ways(pl, p, threads, in, out);
  const bool pinned = in == Memory::Pinned && out == Memory::Pinned;
  const std::string key = choice_key(p, threads, pinned);
  Choice c;
  switch (sides_start(side_applies(list, true), side_applies(list, false), (p.flags & FFTW_WISDOM_ONLY) != 0,
                      [&] { return pl.store().recall(key, &c); })) {
    case SidesStart::Recalled:
      return recalled(pl, p, c, std::move(list));
    case SidesStart::TheirWisdom:
      return pl.on_cpu(p, "FFTW_WISDOM_ONLY: the real FFTW's wisdom decides");
    case SidesStart::Weigh:
      if (const std::optional<GpuRates> g = pl.gpu_rates()) {
        price_cpu(pl, p, &list);
        price_gpu(pl, p, pinned, *g, &list);
      } else {
        std::string why_not;
        rule_out(&list, true, Unfit::NoRates,
                 gpu.available(&why_not) ? "the GPU could not be calibrated (the log says why)" : why_not);
      }
      break;
    case SidesStart::Ours:
      pl.hand_held_rates();
      break;
    case SidesStart::Theirs:
      break;
  }
  // Each side alone, and a side the pricing ruled out, are decide's.
  return decide(pl, p, list, key);
}

}  // namespace

Dispatched choose(const Planner &pl, const Problem &p, gpufftw_mode mode) {
  // The plan's one deadline, from here on the one every timing of its
  // making keeps to (plan_deadline()): the real FFTW's planner, the
  // readings, the engine's tuning.
  const PlanDeadline plan(Deadline::of(p.precision));
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
  // GPUFFTW_MODE=gpu rules the real FFTW out: the GPU alone applies.
  if (mode == GPUFFTW_MODE_GPU) {
    std::string why_not;
    const bool usable = pl.gpu->available(&why_not);
    if (!usable) no_gpu_for_gpu_mode(why_not);
    if (p.flags & FFTW_WISDOM_ONLY) return pl.on_cpu(p, "FFTW_WISDOM_ONLY: the real FFTW's wisdom decides");
    std::vector<Candidate> list{Candidate::cpu_at(0), Candidate::gpu_at(Spread::Auto)};
    rule_out(&list, false, Unfit::Mode, "GPUFFTW_MODE=gpu");
    if (usable) pl.hand_held_rates();
    return decide(pl, p, list, "");
  }
  return automatic(pl, p);
}

}  // namespace gpufftw
