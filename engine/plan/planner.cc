#include "engine/plan/planner.h"

#include <algorithm>
#include <utility>

#include "engine/device/device_set.h"

namespace gpufftw::engine {

Planner::Planner(std::vector<Solver> table, std::function<bool(std::string *)> ready_one_gpu,
                 std::function<Rates()> rates)
    : table_(std::move(table)), ready_one_gpu_(std::move(ready_one_gpu)), rates_(std::move(rates)) {}

std::unique_ptr<FftJob> Planner::one_gpu(const Geometry &g, const std::vector<int> &set, std::string *why) const {
  if (!ready_one_gpu_(why)) return nullptr;
  return search(g, set, false, why);
}

std::unique_ptr<FftJob> Planner::make(const Geometry &g, const std::vector<int> &set, int gpu,
                                      std::string *why) const {
  std::string not_split = "one GPU asked for";
  if (g.spread != Spread::One) {
    if (auto job = search(g, set, true, &not_split)) return job;
    if (g.spread == Spread::Set) return *why = not_split, nullptr;
  }
  std::unique_ptr<FftJob> job = one_gpu(g, set, why);
  if (job) {
    job->placement = "GPU " + std::to_string(gpu);
    if (set.size() > 1) job->placement += " of " + device_list(set) + " (not split: " + not_split + ")";
  }
  return job;
}

std::vector<Offer> Planner::offers(const Geometry &g, const std::vector<int> &set) const {
  std::vector<Declined> declined;
  std::vector<Priced> priced;
  if (g.spread != Spread::One) priced = takers(g, set, true, &declined);
  if (g.spread == Spread::One || (g.spread == Spread::Auto && priced.empty()))
    priced = takers(g, set, false, &declined);
  std::vector<Offer> out;
  for (const Priced &p : priced) out.push_back({p.solver->name, p.seconds, p.solver->fallback});
  return out;
}

std::vector<Planner::Priced> Planner::takers(const Geometry &g, const std::vector<int> &set, bool spreads,
                                             std::vector<Declined> *declined) const {
  std::vector<Priced> priced;
  const Rates rates = rates_();
  for (const Solver &s : table_) {
    if (s.spreads != spreads) continue;
    Reason not_taken;
    if (s.suits(g, set, &not_taken))
      priced.push_back({&s, s.cost(g, set).seconds(rates)});
    else
      declined->push_back({&s, std::move(not_taken)});
  }
  // Cheapest first; equal prices keep the table's order.
  std::stable_sort(priced.begin(), priced.end(), [](const Priced &a, const Priced &b) { return a.seconds < b.seconds; });
  return priced;
}

std::unique_ptr<FftJob> Planner::search(const Geometry &g, const std::vector<int> &set, bool spreads,
                                        std::string *why) const {
  Ask ask{set, {}, [this, set](const Geometry &part, std::string *part_why) { return one_gpu(part, set, part_why); }};
  std::vector<Priced> order = takers(g, set, spreads, &ask.before);
  // The solver the geometry names first, where it takes it.
  std::stable_partition(order.begin(), order.end(), [&g](const Priced &p) { return g.solver == p.solver->name; });
  const size_t declined = ask.before.size();
  // Where none took g, why each declined; where some made no job, why
  // each did not, in the order made, then (unless one said no other
  // could) why those that do not take g's kind did not help: "needs ...
  // over the cap; out of core four-step: n is prime". A reason said twice
  // is said once.
  std::vector<std::string> said;
  auto say = [&said](const std::string &text) {
    if (std::find(said.begin(), said.end(), text) == said.end()) said.push_back(text);
  };
  bool final = false;
  for (const Priced &p : order) {
    Reason not_made;
    if (std::unique_ptr<FftJob> job = p.solver->make(g, ask, &not_made)) {
      job->solver = p.solver->name;
      return job;
    }
    say(not_made.text);
    final = not_made.code == Reason::Code::Final;
    if (final) break;
    ask.before.push_back({p.solver, std::move(not_made)});
  }
  for (size_t i = 0; !final && i < declined; ++i)
    if (order.empty() || ask.before[i].why.code == Reason::Code::NotItsKind) say(ask.before[i].why.text);
  why->clear();
  for (const std::string &text : said) *why += (why->empty() ? "" : "; ") + text;
  return nullptr;
}

}  // namespace gpufftw::engine
