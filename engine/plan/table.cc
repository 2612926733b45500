#include "engine/plan/table.h"

#include "engine/fp16/fp16_job.h"
#include "engine/in_core/cufft_job.h"
#include "engine/multi/split_job.h"
#include "engine/out_of_core/four_step.h"
#include "engine/out_of_core/out_of_core.h"

namespace gpufftw::engine {

std::vector<Solver> solver_table() {
  // The planner makes the cheapest of those that take a geometry (or the
  // one the geometry names first); at equal prices, the one listed first.
  return {
      kBatchSplitSolver,         // a batch over the device set, where large enough to gain from it
      kSlabSplitSolver,          // one 2-D/3-D transform likewise, in slabs
      kLineSplitSolver,          // one 1-D transform likewise, in four steps
      kFp16Solver,               // Geometry::half
      kFourStepOverCapSolver,    // one 1-D transform whose arrays alone pass the cap
      kOutOfCoreOverCapSolver,   // one 2-D/3-D transform likewise
      kOwnKernelSolver,          // our kernels within the cap, where tuning found them faster or is to measure them
      kInCoreSolver,             // cuFFT within the cap (on the arrays as they lie, or gathered)
      kR2rSolver,                // r2r within the cap: a pass per dimension on cuFFT
      kFourStepSolver,           // within the cap, where in core could not be planned or passed it
      kOutOfCoreSolver,          // likewise, 2-D/3-D
  };
}

}  // namespace gpufftw::engine
