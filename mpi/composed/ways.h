// The distributed planner's two ways, the composed plan and the real FFTW
// MPI as its rival, each asked whether it applies, with a coded reason
// where not, as the serial planner's candidates are
// (dispatch/candidates.h). Drawn from what every rank said (the least of
// each rank's answer, one MPI_Allreduce) and the call's arguments alone,
// so that every rank draws the same. Where the composed plan does not
// apply, the real FFTW MPI plans the problem alone; where its rival does
// not, the composed plan is made unweighed; where both do, FFTW_MEASURE's
// steps weigh them (dispatch/measure_steps.h), or under FFTW_WISDOM_ONLY
// the store's record of an earlier weighing. Pure: no MPI, no GPU, so it
// is tested on the CPU.
#pragma once

#include <string>

namespace gpufftw {
namespace mpi {
namespace composed {

// What every rank said, each the least over the ranks.
struct Vote {
  bool none_real = false;     // no rank's GPUFFTW_MPI_PATH is real
  bool all_composed = false;  // every rank's is composed (or the layout asks for it)
  bool all_gpu = false;       // every rank has a GPU for it
  bool all_auto = false;      // every rank's is auto
};

enum class Unfit {
  None,
  PathReal,         // the composed plan: GPUFFTW_MPI_PATH=real on some rank
  NoGpuToEstimate,  // the composed plan: FFTW_ESTIMATE where not every rank has a GPU and the path is not composed
  RealFailsLayout,  // the rival: a layout the real FFTW MPI gets wrong (real_fftw_mpi_fails)
  PathNotAuto,      // the rival: GPUFFTW_MPI_PATH is not auto on every rank
  NotMeasuring,     // the rival: FFTW_ESTIMATE, under which it is not weighed
  NoRealPlanner,    // the rival: the real FFTW MPI's planner is not there to time
};

struct Way {
  Unfit unfit = Unfit::None;
  std::string why_not;
  bool applies() const { return unfit == Unfit::None; }
};

struct Ways {
  Way composed, real;
};

// `layout_fails_real`: the real FFTW MPI gets the layout wrong
// (real_fftw_mpi_fails); `weighed`: the flags weigh the two ways, FFTW_MEASURE
// and up by timing them (or recalling an earlier timing), FFTW_WISDOM_ONLY
// by recalling an earlier timing alone; `real_planner`: the real FFTW MPI's
// planner is loaded.
//
// Under FFTW_ESTIMATE the rival is not weighed: the model sees the real
// FFTW MPI only as its serial transform shared among the ranks and a floor
// of its exchanges, not its own fixed costs (its threads, its processes,
// its transposes through MPI), which are of the order of the composed
// plan's at the sizes where a verdict for it could be drawn. So the
// composed plan is made unpriced where every rank has a GPU, and
// FFTW_MEASURE, which reads both, is where the real FFTW MPI can win.
Ways mpi_ways(const Vote &vote, bool layout_fails_real, bool weighed, bool real_planner);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
