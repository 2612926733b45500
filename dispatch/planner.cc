#include "dispatch/planner.h"

#include "core/time_limit.h"

namespace gpufftw {

Dispatched Planner::on_cpu(const Problem &p, std::string why, int threads) const {
  return {cpu->plan(p, threads, plan_deadline().fftw_limit()), std::move(why)};
}

std::optional<GpuRates> Planner::gpu_rates() const {
  std::optional<GpuRates> rates = store().gpu_rates();
  if (rates && gpu) gpu->use_rates(*rates);
  return rates;
}

void Planner::hand_held_rates() const {
  if (const std::optional<GpuRates> rates = store().held_gpu_rates(); rates && gpu) gpu->use_rates(*rates);
}

}  // namespace gpufftw
