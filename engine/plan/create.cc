// FftJob::create: the engine's planner over the table of its solvers
// (table.h), on the device set.
#include <string>

#include "engine/device/context.h"
#include "engine/plan/planner.h"
#include "engine/plan/table.h"
#include "engine/staging/gather_scatter.h"

namespace gpufftw::engine {
namespace {

const Planner &planner() {
  // Never destroyed: jobs spread over the set keep its one-GPU search for
  // their runs, which may come during exit.
  static const Planner *p = new Planner(solver_table(), [](std::string *why) {
    if (fault_injected("plan", why)) return false;
    return check(cudaSetDevice(device()), "cudaSetDevice", why);
  }, rates);
  return *p;
}

}  // namespace

std::unique_ptr<FftJob> FftJob::create(const Geometry &g, std::string *why) {
  if (!gpu_available(why)) return nullptr;
  if (g.dims.empty()) return *why = "rank 0", nullptr;
  if (g.type == Type::R2R && g.kinds.size() != g.dims.size()) return *why = "r2r: not one kind per dim", nullptr;
  if (g.dims.size() + g.loops.size() > static_cast<size_t>(kMaxAxes))
    return *why = "more than " + std::to_string(kMaxAxes) + " dims and loops", nullptr;
  for (const Axis &a : g.loops)
    if (a.n < 1) return *why = "an empty loop", nullptr;
  return planner().make(g, devices(), device(), why);
}

}  // namespace gpufftw::engine
