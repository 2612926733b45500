#include "dispatch/planner.h"

#include "core/time_limit.h"

namespace gpufftw {

Dispatched Planner::on_cpu(const Problem &p, std::string why, int threads) const {
  return {cpu->plan(p, threads, plan_deadline().fftw_limit()), std::move(why)};
}

}  // namespace gpufftw
