#include "engine/plan/planner.h"

#include <utility>

#include "engine/device/device_set.h"

namespace gpufftw::engine {

Planner::Planner(std::vector<Solver> table, std::function<bool(std::string *)> ready_one_gpu)
    : table_(std::move(table)), ready_one_gpu_(std::move(ready_one_gpu)) {}

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

std::unique_ptr<FftJob> Planner::search(const Geometry &g, const std::vector<int> &set, bool spreads,
                                        std::string *why) const {
  Ask ask{set, {}, [this, set](const Geometry &part, std::string *part_why) { return one_gpu(part, set, part_why); }};
  bool made_none = false;  // a solver took g but made no job
  // Why the first that took g made none, then why each after it did not
  // help (a 1-D transform over the cap: "needs ... over the cap; out of
  // core: n is prime").
  std::string failed;
  for (const Solver &s : table_) {
    if (s.spreads != spreads) continue;
    Reason not_taken;
    if (!s.suits(g, set, &not_taken)) {
      if (made_none) failed += "; " + not_taken.text;
      ask.before.push_back({&s, std::move(not_taken)});
      continue;
    }
    if (std::unique_ptr<FftJob> job = s.make(g, ask, &not_taken)) return job;
    failed += (made_none ? "; " : "") + not_taken.text;
    made_none = true;
    if (not_taken.code == Reason::Code::Final) break;
    ask.before.push_back({&s, std::move(not_taken)});
  }
  if (!made_none)
    for (const Declined &d : ask.before) failed += (failed.empty() ? "" : "; ") + d.why.text;
  *why = failed;
  return nullptr;
}

}  // namespace gpufftw::engine
