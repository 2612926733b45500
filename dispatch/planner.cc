#include "dispatch/planner.h"

#include "core/time_limit.h"

namespace gpufftw {

Dispatched Planner::on_cpu(const Problem &p, std::string why, int threads) const {
  return {cpu->plan(p, threads, time_limit(p.precision)), std::move(why)};
}

Dispatched Planner::on_gpu(const Problem &p, const std::string &why, Spread spread) const {
  std::string why_not;
  if (auto plan = gpu->plan(p, spread, &why_not)) return {std::move(plan), why};
  // A placement chosen for a device set the process no longer has
  // (gpufftw_set_devices since) is the GPU's still, placed by the engine:
  // the choice was the GPU over the CPU.
  std::string not_placed;
  if (spread != Spread::Auto)
    if (auto plan = gpu->plan(p, Spread::Auto, &not_placed))
      return {std::move(plan), why + " (its placement not taken: " + why_not + ")"};
  return on_cpu(p, why_not);
}

}  // namespace gpufftw
