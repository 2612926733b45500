#include "dispatch/planner.h"

#include "core/time_limit.h"
#include "dispatch/why.h"

namespace gpufftw {

Dispatched Planner::on_cpu(const Problem &p, std::string why, int threads) const {
  return {cpu->plan(p, threads, plan_deadline().fftw_limit()), std::move(why)};
}

Dispatched Planner::wisdom_only_on_cpu(const Problem &p, const std::string &why, int threads, int program) const {
  const double limit = plan_deadline().fftw_limit();
  std::unique_ptr<Plan> at_program = cpu->plan(p, program, limit);
  if (!at_program) return {nullptr, why + "; FFTW_WISDOM_ONLY: no wisdom at " + threads_text(program)};
  if (threads == program) return {std::move(at_program), why};
  if (std::unique_ptr<Plan> at = cpu->plan(p, threads, limit)) return {std::move(at), why};
  return {std::move(at_program), why + "; FFTW_WISDOM_ONLY: the wisdom at " + threads_text(program)};
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
