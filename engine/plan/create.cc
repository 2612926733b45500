// FftJob::create and offers: the engine's planner over the table of its
// solvers (table.h), on the device set.
#include <string>
#include <vector>

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

// Whether a GPU can be used and the planner's solvers may be asked of g;
// else why not.
bool askable(const Geometry &g, std::string *why) {
  if (!gpu_available(why)) return false;
  if (g.dims.empty()) return *why = "rank 0", false;
  if (g.type == Type::R2R && g.kinds.size() != g.dims.size()) return *why = "r2r: not one kind per dim", false;
  if (g.dims.size() + g.loops.size() > static_cast<size_t>(kMaxAxes))
    return *why = "more than " + std::to_string(kMaxAxes) + " dims and loops", false;
  for (const Axis &a : g.loops)
    if (a.n < 1) return *why = "an empty loop", false;
  return true;
}

}  // namespace

std::unique_ptr<FftJob> FftJob::create(const Geometry &g, std::string *why) {
  if (!askable(g, why)) return nullptr;
  return planner().make(g, devices(), device(), why);
}

std::vector<Offer> offers(const Geometry &g) {
  std::string why_not;
  if (!askable(g, &why_not)) return {};
  return planner().offers(g, devices());
}

}  // namespace gpufftw::engine
