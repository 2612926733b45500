#include "dispatch/gpu_way.h"

#include <algorithm>

#include "core/time_limit.h"
#include "dispatch/fp16_candidates.h"
#include "dispatch/solver_ways.h"
#include "dispatch/why.h"

namespace gpufftw {

bool measures(const Problem &p) { return !(p.flags & (FFTW_ESTIMATE | FFTW_WISDOM_ONLY)) && p.in[0] && p.out[0]; }

GpuWay gpu_way_plan(const Planner &pl, const Problem &p, const std::vector<Candidate> &given, bool measuring) {
  GpuWay out;
  if (given.empty()) {
    out.why = "the GPU has no way for it";
    return out;
  }
  const std::vector<Candidate> ways = solver_ways(pl, p, given);
  const bool half = has_half_ways(ways);
  const bool solvers = has_solver_ways(ways);
  auto label = [half](const Candidate &c) { return way_label(c, half); };
  // Those that apply, cheapest first; the unpriced after, in order.
  std::vector<Candidate> open;
  for (const Candidate &c : ways)
    if (c.applies()) open.push_back(c);
  std::stable_sort(open.begin(), open.end(), [](const Candidate &a, const Candidate &b) {
    return a.price && (!b.price || *a.price < *b.price);
  });
  std::string not_made, last_why;  // each way that made no plan, and why; the last why
  // The plan of way *c, or nullptr. Where its solver made no job and the
  // engine went on to another, the plan is that solver's way, and *c
  // becomes it, so that no way's plan is made twice.
  auto make = [&](Candidate *c) {
    std::string why_not, made_by;
    std::unique_ptr<Plan> plan = pl.gpu->plan(p, c->spread, c->way, c->solver, &made_by, &why_not);
    if (!plan) {
      not_made += "; " + label(*c) + " made no plan: " + why_not;
      last_why = why_not;
    } else if (!c->solver.empty() && made_by != c->solver) {
      not_made += "; " + label(*c) + " made no job, the engine went on to " + made_by + ": " + why_not;
      c->solver = made_by;
    }
    return plan;
  };
  auto made = [&](std::unique_ptr<Plan> plan, const Candidate &c, const std::string &how) {
    out.plan = std::move(plan);
    out.way = c.way;
    out.solver = c.solver;
    if (half)
      out.why = fp16_account(pl, ways, label(c), how) + not_made;
    else if (solvers)
      out.why = "; solver: " + label(c) + ", " + how + not_made;
    return std::move(out);
  };
  const bool keyed = half || solvers;
  const std::string key =
      keyed ? way_key(p, arrays_at(pl.gpu->memory(p.in[0]), pl.gpu->memory(p.out[0])), ways.front().spread) : "";
  KernelPick pick;
  if (keyed && pl.store().recall_kernel(key, &pick))
    for (const Candidate &c : open)
      if (way_variant(c) == pick.variant) {
        // A stored solver that makes no job now is read again below.
        Candidate m = c;
        std::unique_ptr<Plan> plan = make(&m);
        if (plan && m.solver == c.solver)
          return made(std::move(plan), c,
                      "measured earlier: " + ms(pick.own_s) + (pick.cufft_s > 0 ? ", f32 " + ms(pick.cufft_s) : ""));
        break;
      }
  // Past the plan's deadline, as FFTW's planner keeps what it has: no way
  // made to be read against another; the model's cheapest.
  const bool to_time = measuring && open.size() > 1;
  const bool past_limit = to_time && plan_deadline().passed();
  if (to_time && !past_limit) {
    const std::optional<double> cheapest = open.front().price;
    std::vector<Candidate> timed;
    std::vector<std::unique_ptr<Plan>> plans;
    std::string left_out;
    bool own_precision = false;  // the cheapest way in the problem's own precision is among those timed
    auto timed_already = [&timed](const Candidate &c) {
      return std::any_of(timed.begin(), timed.end(), [&c](const Candidate &t) { return way_variant(t) == way_variant(c); });
    };
    for (const Candidate &c : open) {
      // Made already, as the way an earlier one's solver went on to.
      if (timed_already(c)) continue;
      const bool always = c.way == Fp16Way::Single && !own_precision;
      own_precision = own_precision || c.way == Fp16Way::Single;
      if (!always && c.price && cheapest && *c.price > kWayTimedWithin * *cheapest) {
        const std::string over = "; not timed, priced over " + std::to_string(static_cast<int>(kWayTimedWithin)) +
                                 "x the cheapest: ";
        left_out += (left_out.empty() ? over : ", ") + label(c);
        continue;
      }
      Candidate m = c;
      if (std::unique_ptr<Plan> plan = make(&m); plan && !timed_already(m)) {
        timed.push_back(m);
        plans.push_back(std::move(plan));
      }
    }
    // One plan made (the others' solvers went on to its, say): nothing
    // here to weigh it against. It goes back unread, for the caller that
    // weighs it against the split or the CPU to read once, and no way is
    // stored, there having been no choice.
    if (plans.size() == 1)
      return made(std::move(plans[0]), timed[0],
                  "the one way made, nothing to read it against (model: " + way_prices(ways) + ")" + left_out);
    if (!plans.empty()) {
      std::vector<Plan *> read;
      for (const std::unique_ptr<Plan> &plan : plans) read.push_back(plan.get());
      const std::vector<double> s = read_in_turn(pl.read, read);
      const size_t best = std::min_element(s.begin(), s.end()) - s.begin();
      std::string readings;
      KernelPick keep{way_variant(timed[best]), s[best], 0};
      for (size_t i = 0; i < timed.size(); ++i) {
        readings += (readings.empty() ? "" : ", ") + label(timed[i]) + " " + ms(s[i]);
        // f32's fastest, where the ways are fp16 ways.
        if (half && timed[i].way == Fp16Way::Single && (keep.cufft_s <= 0 || s[i] < keep.cufft_s)) keep.cufft_s = s[i];
      }
      // A choice GPUFFTW_FP16_WAY restricted weighed only what it left.
      const bool restricted =
          std::any_of(ways.begin(), ways.end(), [](const Candidate &c) { return c.unfit == Unfit::NotForced; });
      if (keyed && !restricted) pl.store().remember_kernel(key, keep);
      out.read_s = s[best];
      return made(std::move(plans[best]), timed[best],
                  "measured: " + readings + " (model: " + way_prices(ways) + ")" + left_out);
    }
  }
  for (const Candidate &c : open) {
    Candidate m = c;
    if (std::unique_ptr<Plan> plan = make(&m)) {
      const std::string prices = way_prices(ways);
      const bool forced = pl.forced_way && m.way == *pl.forced_way;
      return made(std::move(plan), m,
                  forced           ? "GPUFFTW_FP16_WAY=" + std::string(way_tag(m.way))
                  : prices.empty() ? "the first way to make a plan"
                  : past_limit     ? "by the model (the program's time limit passed): " + prices
                                   : "by the model: " + prices);
    }
  }
  // GPUFFTW_FP16_WAY's way made no plan: the others, as without it.
  if (std::any_of(ways.begin(), ways.end(), [](const Candidate &c) { return c.unfit == Unfit::NotForced; })) {
    std::vector<Candidate> others;
    for (Candidate c : ways) {
      if (c.applies()) continue;
      if (c.unfit == Unfit::NotForced) c.unfit = Unfit::Fits, c.why_not.clear();
      others.push_back(c);
    }
    GpuWay again = gpu_way_plan(pl, p, others, measuring);
    if (again.plan) again.why += "; GPUFFTW_FP16_WAY=" + std::string(way_tag(*pl.forced_way)) + " not taken" + not_made;
    return again;
  }
  out.why = half ? "fp16: no way made a plan" + not_made : solvers ? not_made.substr(2) : last_why;
  return out;
}

GpuWay model_placed_plan(const Planner &pl, const Problem &p, const std::vector<Candidate> &list, Spread *spread,
                         bool measuring, std::string *not_split) {
  GpuWay g = gpu_way_plan(pl, p, gpu_ways_at(list, *spread), measuring);
  if (g.plan || *spread != Spread::Set) return g;
  *not_split = g.why;
  *spread = Spread::One;
  return gpu_way_plan(pl, p, gpu_ways_at(list, Spread::One), measuring);
}

}  // namespace gpufftw
