#include "dispatch/candidates.h"

namespace gpufftw {

std::vector<Candidate> candidates(const Planner &planner, const Problem &p, int threads, bool pinned,
                                  const GpuRates *rates) {
  std::vector<Candidate> list;
  DispatchStore &store = planner.store();
  list.push_back({false, Spread::Auto, threads, cpu_seconds(p, store.cpu_rates(p.precision, threads))});
  if (threads > 1) list.push_back({false, Spread::Auto, 1, cpu_seconds(p, store.cpu_rates(p.precision, 1))});
  if (!rates) return list;
  for (Spread spread : {Spread::Auto, Spread::Set})
    if (const std::optional<double> price = planner.gpu->price(p, pinned, spread, *rates))
      list.push_back({true, spread, 0, *price});
  return list;
}

std::optional<Candidate> cheapest_gpu(const std::vector<Candidate> &list) {
  std::optional<Candidate> best;
  for (const Candidate &c : list)
    if (c.gpu && (!best || c.price < best->price)) best = c;
  return best;
}

}  // namespace gpufftw
