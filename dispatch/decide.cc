#include "dispatch/decide.h"

#include <algorithm>

#include "core/config.h"
#include "core/log.h"
#include "core/time_limit.h"
#include "dispatch/fp16_candidates.h"
#include "dispatch/gpu_way.h"
#include "dispatch/measure.h"
#include "dispatch/thread_rules.h"
#include "dispatch/why.h"

namespace gpufftw {
namespace {

// What rules out the ways that do not apply, each reason once: the why
// of a plan that nothing weighed.
std::string ruled_out(const std::vector<Candidate> &list) {
  std::vector<std::string> said;
  std::string why;
  for (const Candidate &c : list) {
    if (c.applies() || rules_out_a_way(c.unfit) || std::find(said.begin(), said.end(), c.why_not) != said.end())
      continue;
    why += (why.empty() ? "" : "; ") + c.why_not;
    said.push_back(c.why_not);
  }
  return why;
}

bool ruled_out_for(const std::vector<Candidate> &list, Unfit unfit) {
  return std::any_of(list.begin(), list.end(), [unfit](const Candidate &c) { return c.unfit == unfit; });
}

// The program's thread count: the most threads of the real FFTW's ways,
// whether they apply or not.
int program_threads(const std::vector<Candidate> &list) {
  int most = 0;
  for (const Candidate &c : list)
    if (!c.gpu && c.threads > most) most = c.threads;
  return most;
}

// The GPU alone applies: as the engine places it, each of an fp16
// problem's ways a candidate. On arrays in device memory, nowhere else:
// where the GPU cannot take them, a NULL plan.
Dispatched gpu_alone(const Planner &pl, const Problem &p, std::vector<Candidate> list, const std::string &why) {
  half_ways_alone(pl, p, Spread::Auto, &list);
  if (!ruled_out_for(list, Unfit::DeviceArrays)) return on_gpu_ways(pl, p, list, Spread::Auto, why);
  GpuWay g = gpu_way_plan(pl, p, gpu_ways_at(list, Spread::Auto), measures(p));
  if (g.plan) return {std::move(g.plan), why + g.why};
  GPUFFTW_LOG(Warn, "%s: arrays in device memory, but the GPU cannot take it (%s): NULL plan",
              p.describe().c_str(), g.why.c_str());
  return {nullptr, why + ", but the GPU cannot take it: " + g.why};
}

// The real FFTW alone applies: at the program's count (under FFTW_ESTIMATE
// where the model priced both counts, the cheaper). Where a tiny problem
// rules the program's count out, one thread, said so, untimed: where
// FFTW_MEASURE timed both counts, the program's never beat one thread by
// more than the readings' noise (304 such plans of the dispatch sweep, 16
// threads asked for). Measuring, the plan at the program's count is made
// too, as the real FFTW's own FFTW_MEASURE makes it, and destroyed: its
// wisdom is what the real FFTW's FFTW_WISDOM_ONLY asks for, in this
// process and in the wisdom the program exports. FFTW_WISDOM_ONLY gives a
// plan where the real FFTW would (wisdom_only_on_cpu).
Dispatched cpu_alone(const Planner &pl, const Problem &p, const std::vector<Candidate> &list, const std::string &why) {
  const int threads = program_threads(list);
  if (ruled_out_for(list, Unfit::Tiny) && threads > 1) {
    const std::string one = why + ": " + threads_text(1);
    if (p.flags & FFTW_WISDOM_ONLY) return pl.wisdom_only_on_cpu(p, one, 1, threads);
    Dispatched d = pl.on_cpu(p, one, 1);
    if (d.plan && !(p.flags & FFTW_ESTIMATE)) pl.on_cpu(p, "", threads);
    return d;
  }
  const bool priced = list.front().price.has_value();  // the program's count, first
  return pl.on_cpu(p, why, priced && (p.flags & FFTW_ESTIMATE) ? cheapest_cpu(list).threads : threads);
}

}  // namespace

Dispatched on_gpu_ways(const Planner &pl, const Problem &p, const std::vector<Candidate> &list, Spread spread,
                       const std::string &why) {
  GpuWay g = gpu_way_plan(pl, p, gpu_ways_at(list, spread), measures(p));
  if (g.plan) return {std::move(g.plan), why + g.why};
  // A placement chosen for a device set the process no longer has
  // (gpufftw_set_devices since) is the GPU's still, placed by the engine:
  // the choice was the GPU over the CPU.
  if (spread != Spread::Auto) {
    GpuWay placed = gpu_way_plan(pl, p, gpu_ways_at(list, Spread::Auto), measures(p));
    if (placed.plan) return {std::move(placed.plan), why + " (its placement not taken: " + g.why + ")" + placed.why};
  }
  return pl.on_cpu(p, g.why);
}

Dispatched decide(const Planner &pl, const Problem &p, const std::vector<Candidate> &list, const std::string &key) {
  if (!side_applies(list, true)) return cpu_alone(pl, p, list, ruled_out(list));
  // Every plan read below is read on the input as the program will have
  // filled it, not on pages malloc has not yet given it (reading_input.h).
  // Device and pinned arrays have their pages already.
  if (measures(p) && pl.gpu->memory(p.in[0]) == Memory::Pageable) pl.zero_input(p);
  if (!side_applies(list, false)) return gpu_alone(pl, p, list, ruled_out(list));
  const bool estimate = p.flags & FFTW_ESTIMATE;
  const bool measuring = measures(p);
  const Candidate cpu = cheapest_cpu(list);
  const Candidate gpu_way = *cheapest_gpu(list);
  // Fewer threads than the program asked for where they lose: FFTW_ESTIMATE
  // by the model, FFTW_MEASURE and up by timing the real FFTW's plans at
  // both counts (faster_of_threads), so that the program's count has its
  // wisdom too for a later FFTW_WISDOM_ONLY plan.
  const int cpu_threads = estimate ? cpu.threads : program_threads(list);
  const Verdict v = judge(*gpu_way.price, *cpu.price);
  if (measuring && (!v.sure || config().measure_always)) return measured(pl, p, key, list, cpu_threads, v);
  const std::string why = "model: gpu " + ms(v.gpu_s) + ", cpu " + ms(v.cpu_s) + cpu_terms(p, cpu_threads, true) +
                          placement_prices(list);
  DispatchStore &store = pl.store();
  if (measuring && !v.gpu && one_thread_may_win(list)) {
    int chosen = cpu_threads;
    bool timed = false;
    Dispatched d = faster_of_threads(pl, p, cpu_threads, why, &chosen, &timed);
    store.remember(key, Choice{false, v.gpu_s, v.cpu_s, false, chosen == 1 ? 1 : 0}, timed);
    return d;
  }
  Choice model_choice{v.gpu, v.gpu_s, v.cpu_s};
  if (!v.gpu) {
    if (measuring) store.remember(key, model_choice);
    return pl.on_cpu(p, why, cpu_threads);
  }
  // Measuring, the split is timed against one GPU even where the model is
  // sure of the GPU and of its placement (`placed`: both readings where
  // timed, or why the GPU took no plan), and an fp16 problem's ways are
  // read. Not measuring, the cheapest way at the cheapest placement; a
  // split the model chose that the engine cannot make after all leaves
  // one GPU.
  // Past the program's time limit the model places it too, and the
  // choice, its placement unmeasured, is kept for this process only.
  std::string placed;
  std::unique_ptr<Plan> plan;
  bool by_model = false;
  if (measuring) {
    Candidate made;
    plan = placed_gpu_plan(pl, p, list, &made, nullptr, &placed, &by_model);
    model_choice.spread = made.spread;
  } else {
    Spread spread = gpu_way.spread;
    std::string not_split;
    GpuWay g = model_placed_plan(pl, p, list, &spread, false, &not_split);
    if (g.plan && spread != gpu_way.spread) g.why = " (the split not taken: " + not_split + ")" + g.why;
    plan = std::move(g.plan);
    placed = g.why;
  }
  if (!plan) return pl.on_cpu(p, placed);
  if (measuring) store.remember(key, model_choice, !by_model);
  return {std::move(plan), why + placed + (by_model ? "; kept for this process only" : "")};
}

}  // namespace gpufftw
