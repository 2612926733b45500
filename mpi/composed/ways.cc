#include "mpi/composed/ways.h"

namespace gpufftw {
namespace mpi {
namespace composed {
namespace {

Way unfit(Unfit u, std::string why) { return Way{u, std::move(why)}; }

}  // namespace

Ways mpi_ways(const Vote &vote, bool layout_fails_real, bool weighed, bool real_planner) {
  Ways w;
  if (!vote.none_real)
    w.composed = unfit(Unfit::PathReal, "GPUFFTW_MPI_PATH=real");
  else if (!(vote.all_composed || vote.all_gpu || (vote.all_auto && weighed)))
    w.composed = unfit(Unfit::NoGpuToEstimate,
                       "FFTW_ESTIMATE, not every rank has a GPU, and GPUFFTW_MPI_PATH is not composed");
  if (layout_fails_real)
    w.real = unfit(Unfit::RealFailsLayout, "a layout the real FFTW MPI gets wrong (real_fftw_mpi_fails)");
  else if (!vote.all_auto)
    w.real = unfit(Unfit::PathNotAuto, "GPUFFTW_MPI_PATH is not auto on every rank");
  else if (!weighed)
    w.real = unfit(Unfit::NotMeasuring, "FFTW_ESTIMATE: the real FFTW MPI is not weighed against it");
  else if (!real_planner)
    w.real = unfit(Unfit::NoRealPlanner, "the real FFTW MPI's planner is not there to time");
  return w;
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
