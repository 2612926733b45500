#include "dispatch/candidates.h"

#include "dispatch/why.h"

namespace gpufftw {

std::vector<Candidate> candidates(const Planner &planner, const Problem &p, int threads, bool pinned,
                                  const GpuRates *rates) {
  std::vector<Candidate> list;
  DispatchStore &store = planner.store();
  list.push_back({false, Spread::Auto, threads, cpu_seconds(p, store.cpu_rates(p.precision, threads))});
  if (threads > 1) list.push_back({false, Spread::Auto, 1, cpu_seconds(p, store.cpu_rates(p.precision, 1))});
  if (!rates) return list;
  // Where the model prices the set, one GPU is a way of its own beside it,
  // so that a plan the set runs slower stays on one GPU; elsewhere the
  // engine places the plan.
  const std::optional<double> set = planner.gpu->price(p, pinned, Spread::Set, *rates);
  const Spread one = set ? Spread::One : Spread::Auto;
  if (const std::optional<double> price = planner.gpu->price(p, pinned, one, *rates))
    list.push_back({true, one, 0, *price});
  if (set) list.push_back({true, Spread::Set, 0, *set});
  return list;
}

std::optional<Candidate> cheapest_gpu(const std::vector<Candidate> &list) {
  std::optional<Candidate> best;
  for (const Candidate &c : list)
    if (c.gpu && (!best || c.price < best->price)) best = c;
  return best;
}

std::string placement_prices(const std::vector<Candidate> &list) {
  const Candidate *set = nullptr, *one = nullptr;
  for (const Candidate &c : list)
    if (c.gpu) (c.spread == Spread::Set ? set : one) = &c;
  if (!set || !one) return "";
  return "; the GPUs' split priced " + ms(set->price) + ", one GPU " + ms(one->price);
}

}  // namespace gpufftw
