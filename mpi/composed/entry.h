// fftw_mpi_plan_many_dft's, _dft_r2c's and _dft_c2r's way to a composed
// plan (plan.h). Collective on comm: every rank says whether it wants the
// composed path (GPUFFTW_MPI_PATH, whether it has a GPU) and then whether
// it could build its part; MPI_Allreduce takes the minimum of each, so all
// ranks take the same side, and a rank that cannot build its part sends
// every rank to the real FFTW MPI, never some. Under GPUFFTW_MPI_PATH=auto
// with FFTW_ESTIMATE the composed path is taken where every rank has a GPU,
// unpriced (entry.cc says why); with FFTW_MEASURE and up both sides are
// planned and timed (the slowest rank's time), the faster kept, and the
// choice remembered in gpufftw's dispatch store, rank 0's, for later plans
// and runs.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <string>

#include "shim/foreign.h"

namespace gpufftw {
namespace mpi {
namespace composed {

// The real FFTW MPI's side of a measured choice (FFTW_MEASURE and up under
// GPUFFTW_MPI_PATH=auto): `plan` makes its plan, collectively, on the same
// arguments but `flags`, its planner kept to `time_limit` seconds (negative:
// none) (gpufftw's handle of it, which the report shows with `why`, or
// NULL where it refuses); `ops` are the handle's functions, which run it
// without the report counting it.
struct RealSide {
  std::function<void *(unsigned flags, double time_limit, const std::string &why)> plan;
  const gpufftw_foreign_ops *ops;
};

// Where the composed path gives no plan: why the real FFTW MPI plans the
// problem (alike on every rank but for a rank's own failure, which names
// the rank), unless `refused`: NULL is the answer.
struct Declined {
  bool refused = false;
  std::string why;
};

// gpufftw's plan handle of a composed plan, or of the real FFTW MPI's plan
// where measuring chose it, or NULL: the real FFTW MPI
// plans the problem (on every rank alike; NULL where it refuses too),
// unless declined->refused says NULL is the answer (a layout the real FFTW MPI
// fails that the composed path could not build either).
// `in`/`out` are fftw_complex / fftwf_complex arrays by R.
template <class R>
void *plan_dft(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, void *in,
               void *out, MPI_Comm comm, int sign, unsigned flags, const RealSide &real, Declined *declined);

// The same for fftw_mpi_plan_many_dft_r2c: `in` the padded real array.
template <class R>
void *plan_dft_r2c(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, void *in,
                   void *out, MPI_Comm comm, unsigned flags, const RealSide &real, Declined *declined);
// And fftw_mpi_plan_many_dft_c2r: `out` the padded real array.
template <class R>
void *plan_dft_c2r(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, void *in,
                   void *out, MPI_Comm comm, unsigned flags, const RealSide &real, Declined *declined);

// The handle's functions; gpufftw_foreign_plan_real(plan, ops<R>()) finds
// a composed plan in a handle.
template <class R>
const gpufftw_foreign_ops *ops();

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
