#include "dispatch/measure.h"

#include <algorithm>
#include <cstdio>

#include "core/laps.h"
#include "core/log.h"
#include "core/time_limit.h"
#include "dispatch/gpu_way.h"
#include "dispatch/measure_steps.h"
#include "dispatch/thread_rules.h"
#include "dispatch/why.h"

namespace gpufftw {
namespace {

// Stores FFTW_MEASURE's choice, or where it may have been read in a slow
// spell (lost_in_a_spell) or the program's time limit cut its timing
// short, keeps it for this process alone; what the why then adds.
std::string remember(DispatchStore &store, const std::string &key, const Choice &c, const Verdict &model,
                     bool cut_short = false) {
  const double winner_s = c.gpu ? c.gpu_s : c.cpu_s, loser_s = c.gpu ? c.cpu_s : c.gpu_s;
  const double price = c.gpu ? model.cpu_s : model.gpu_s;
  const bool spell = lost_in_a_spell(winner_s, loser_s, price);
  store.remember(key, c, !spell && !cut_short);
  if (cut_short) return "; the program's time limit passed: kept for this process only";
  if (!spell) return "";
  char text[160];
  std::snprintf(text, sizeof text, "; the %s read %.1fx the model's %s: kept for this process only",
                where_name(c.gpu ? Where::Cpu : Where::Gpu), loser_s / price, ms(price).c_str());
  return text;
}

// One line at the default level before the real FFTW measures a problem
// whose FFTW_ESTIMATE plan ran longer than kSayAbove_s: its measuring then
// takes seconds, and the program would otherwise sit silent.
constexpr double kSayAbove_s = 0.02;
void say_timing(const Problem &p, double gpu_s, double quick_s, const Deadline &deadline) {
  if (quick_s <= kSayAbove_s || quick_s == HUGE_VAL) return;
  GPUFFTW_LOG(Warn, "%s: timing the real FFTW's FFTW_MEASURE plan against the GPU's (%s) for up to %s; the faster "
              "is kept for later runs", p.describe().c_str(), ms(gpu_s).c_str(),
              deadline.bound_text("what the real FFTW's own measuring takes").c_str());
}

}  // namespace

std::unique_ptr<Plan> placed_gpu_plan(const Planner &planner, const Problem &p, const std::vector<Candidate> &list,
                                      Candidate *chosen, double *read_s, std::string *placed, bool *by_model) {
  auto keep = [chosen](GpuWay *g, Spread spread, const std::string &why) {
    chosen->spread = spread;
    chosen->way = g->way;
    chosen->solver = g->solver;
    return why + g->why;
  };
  if (by_model) *by_model = false;
  if (plan_deadline().passed()) {
    if (by_model) *by_model = true;
    const std::optional<Candidate> cheapest = cheapest_gpu(list);
    const Spread model_spread = cheapest ? cheapest->spread : Spread::Auto;
    Spread spread = model_spread;
    std::string not_split;
    GpuWay g = model_placed_plan(planner, p, list, &spread, true, &not_split);
    if (!g.plan) return *placed = g.why, nullptr;
    if (read_s) *read_s = g.read_s >= 0 ? g.read_s : planner.read(g.plan.get(), HUGE_VAL);
    const char *where = spread == Spread::Set ? "the GPUs' split" : spread == Spread::One ? "one GPU"
                                                                                         : "the engine's placement";
    return *placed = keep(&g, spread,
                          "; the program's time limit passed: placed by the model (" + std::string(where) +
                              "), nothing read against it" +
                              (spread != model_spread ? " (the split not taken: " + not_split + ")" : "")),
           std::move(g.plan);
  }
  GpuWay set = gpu_way_plan(planner, p, gpu_ways_at(list, Spread::Set), true);
  if (set.plan) {
    GpuWay one = gpu_way_plan(planner, p, gpu_ways_at(list, Spread::One), true);
    if (one.plan) {
      const std::vector<double> s = read_in_turn(planner.read, {set.plan.get(), one.plan.get()});
      const std::string both = "; the GPUs' split " + ms(s[0]) + ", one GPU " + ms(s[1]);
      if (read_s) *read_s = std::min(s[0], s[1]);
      if (s[1] <= s[0]) return *placed = keep(&one, Spread::One, both), std::move(one.plan);
      return *placed = keep(&set, Spread::Set, both), std::move(set.plan);
    }
    if (read_s) *read_s = set.read_s >= 0 ? set.read_s : planner.read(set.plan.get(), HUGE_VAL);
    return *placed = keep(&set, Spread::Set, ""), std::move(set.plan);
  }
  GpuWay placed_by_engine = gpu_way_plan(planner, p, gpu_ways_at(list, Spread::Auto), true);
  if (!placed_by_engine.plan) return *placed = placed_by_engine.why, nullptr;
  if (read_s)
    *read_s = placed_by_engine.read_s >= 0 ? placed_by_engine.read_s : planner.read(placed_by_engine.plan.get(), HUGE_VAL);
  *placed = keep(&placed_by_engine, Spread::Auto, "");
  return std::move(placed_by_engine.plan);
}

Dispatched measured(const Planner &planner, const Problem &p, const std::string &key,
                    const std::vector<Candidate> &list, int cpu_threads, const Verdict &model) {
  const Deadline &deadline = plan_deadline();
  // Where the measuring's time went, for the debug log.
  Laps lap;
  auto say_laps = [&p, &lap] { GPUFFTW_LOG(Debug, "%s: measured in %s", p.describe().c_str(), lap.text().c_str()); };
  const Reading &read = planner.read;
  Choice c;
  std::string placed;
  Candidate made;
  // Placed by the model past the program's limit: no choice of it lasts.
  bool by_model = false;
  std::unique_ptr<Plan> gpu = placed_gpu_plan(planner, p, list, &made, &c.gpu_s, &placed, &by_model);
  c.spread = made.spread;
  if (!gpu) return planner.on_cpu(p, placed, cpu_threads);
  lap("GPU plan and its reading");
  // The real FFTW's readings as between other work (cost_model.h).
  auto time_cpu = [&p, &read](Plan *plan, double enough = HUGE_VAL) { return between_work(p, read(plan, enough)); };
  const std::string threads = cpu_terms(p, cpu_threads, false);
  std::unique_ptr<Plan> quick, cpu;
  double quick_s = HUGE_VAL;
  RealSideHands hands;
  hands.estimated = [&](double loses_s) -> std::optional<double> {
    quick = planner.cpu->plan(p.estimated(), cpu_threads, deadline.fftw_limit());
    if (!quick) return std::nullopt;
    quick_s = time_cpu(quick.get(), loses_s);
    // Doubted against the cut, not the GPU: a reading past the cut that
    // the model prices under it would leave the measured plan unmade, and
    // the GPU would run a problem whose measured plan beats it
    // (docs/dispatch-sweep.md, "FFTW_MEASURE").
    if (quick_s > loses_s) doubt(&quick_s, loses_s, model.cpu_s, kDoubtedBy, [&] { return time_cpu(quick.get()); });
    lap("FFTW_ESTIMATE plan and reading");
    return quick_s;
  };
  hands.left = [&deadline] { return deadline.left(); };
  hands.measured = [&]() -> std::optional<double> {
    say_timing(p, c.gpu_s, quick_s, deadline);
    cpu = planner.cpu->plan(p, cpu_threads, deadline.fftw_limit());
    if (!cpu) return std::nullopt;
    lap("measured plan");
    return time_cpu(cpu.get(), kSureRatio * c.gpu_s);
  };
  // The model's verdict was drawn from both prices before the GPU was
  // read (decide.cc): no price of the real FFTW's is weighed again here.
  const MeasureSteps steps = measure_steps(c.gpu_s, std::nullopt, estimate_loses_by(p), hands);
  if (steps.end == MeasureEnd::Cut) {
    say_laps();
    c.gpu = true;
    c.cpu_s = quick_s;
    return {std::move(gpu), "measured: gpu " + ms(c.gpu_s) + ", cpu " + ms(c.cpu_s) + threads +
                                " with FFTW_ESTIMATE's plan, not measured further" + placed +
                                remember(planner.store(), key, c, model, !steps.store || by_model)};
  }
  if (steps.end == MeasureEnd::LimitPassed) {
    // Past the program's limit, as FFTW's own planner stops: the faster of
    // what was read.
    say_laps();
    c.gpu = steps.kept == Kept::Ours;
    c.cpu_s = quick_s;
    c.estimated = true;
    const std::string why = "measured: gpu " + ms(c.gpu_s) + ", cpu " + ms(c.cpu_s) + threads +
                            " with FFTW_ESTIMATE's plan" + placed +
                            remember(planner.store(), key, c, model, !steps.store || by_model);
    return c.gpu ? Dispatched{std::move(gpu), why} : Dispatched{std::move(quick), why};
  }
  if (steps.end == MeasureEnd::NoMeasured) return {std::move(gpu), "the real FFTW gives no plan"};
  std::string estimate_read = quick ? "; its FFTW_ESTIMATE plan " + ms(quick_s) : "";
  c.cpu_s = *steps.measured_read;
  if (one_thread_may_win(list) && !deadline.passed()) {
    std::unique_ptr<Plan> one = planner.cpu->plan(p, 1, deadline.fftw_limit());
    const std::vector<double> s = read_in_turn(read, {cpu.get(), one.get()});
    const double many_s = s[0], one_s = s[1];
    if (one_s < many_s) {
      cpu = std::move(one);
      c.threads = 1;
    }
    c.cpu_s = between_work(p, std::min(one_s, many_s));
    lap("its one-thread plan, and both read in turn");
  }
  auto read_gpu = [&] { return read(gpu.get(), HUGE_VAL); };
  auto read_cpu = [&] { return time_cpu(cpu.get()); };
  // Readings again only within the program's limit: past it, what was read stands.
  const bool cut_short = deadline.passed() || by_model;
  if (!cut_short) {
    settle(&c.gpu_s, &c.cpu_s, read_gpu, read_cpu);
    if (c.gpu_s < c.cpu_s) {
      doubt(&c.cpu_s, c.gpu_s, model.cpu_s, kDoubtedBy, read_cpu);
      doubt(&c.cpu_s, c.gpu_s, quick_s, 1, read_cpu);
    } else {
      doubt(&c.gpu_s, c.cpu_s, model.gpu_s, kDoubtedBy, read_gpu);
    }
  }
  if (quick && estimated_stands_in(c.gpu_s, c.cpu_s, quick_s)) {
    estimate_read = " with FFTW_ESTIMATE's plan, which runs; its measured plan " + ms(c.cpu_s);
    c.estimated = true;
    c.threads = 0;
    c.cpu_s = quick_s;
    cpu = std::move(quick);
  }
  lap("its reading and readings again");
  say_laps();
  c.gpu = c.gpu_s < c.cpu_s;
  const std::string why = "measured: gpu " + ms(c.gpu_s) + ", cpu " + ms(c.cpu_s) +
                          (c.threads ? cpu_terms(p, c.threads, false) : threads) + estimate_read + placed +
                          remember(planner.store(), key, c, model, cut_short);
  return c.gpu ? Dispatched{std::move(gpu), why} : Dispatched{std::move(cpu), why};
}

Dispatched faster_of_threads(const Planner &planner, const Problem &p, int threads, const std::string &why,
                             int *chosen, bool *timed) {
  const Deadline &deadline = plan_deadline();
  std::unique_ptr<Plan> many = planner.cpu->plan(p, threads, deadline.fftw_limit());
  *timed = !deadline.passed();
  if (!*timed) {
    *chosen = threads;
    return {std::move(many), why + "; the program's time limit passed: kept for this process only"};
  }
  std::unique_ptr<Plan> one = planner.cpu->plan(p, 1, deadline.fftw_limit());
  const std::vector<double> s = read_in_turn(planner.read, {many.get(), one.get()});
  const double many_s = s[0], one_s = s[1];
  *chosen = one_s < many_s ? 1 : threads;
  const std::string read = "; measured: 1 thread " + ms(one_s) + ", " + threads_text(threads) + " " + ms(many_s) +
                           ": " + threads_text(*chosen);
  return {*chosen == 1 ? std::move(one) : std::move(many), why + read};
}

}  // namespace gpufftw
