#include "dispatch/planner.h"

namespace gpufftw {

Dispatched Planner::on_cpu(const Problem &p, std::string why, int threads) const {
  return {cpu->plan(p, threads), std::move(why)};
}

Dispatched Planner::on_gpu(const Problem &p, const std::string &why, Spread spread) const {
  std::string why_not;
  if (auto plan = gpu->plan(p, spread, &why_not)) return {std::move(plan), why};
  return on_cpu(p, why_not);
}

}  // namespace gpufftw
