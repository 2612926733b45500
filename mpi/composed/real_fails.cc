// What the real FFTW MPI (3.3.10) computes wrongly, crashes on or writes
// past its own allocation on (mpi/composed/decide.h). Pure: from the
// arguments alone, the same on every rank.
#include <fftw3-mpi.h>

#include <cstddef>

#include "mpi/composed/decide.h"

namespace gpufftw {
namespace mpi {
namespace composed {

const char *real_fftw_mpi_fails(const Layout &layout, bool in_place) {
  for (ptrdiff_t size : layout.n)
    if (size == 1) return "a dimension of size 1, which the real FFTW MPI computes wrongly, refuses or crashes on";
  // A c2r neither of whose sides is transposed: the real FFTW MPI
  // transforms dimension 0 across the ranks first, then, on each rank, the
  // c2r of the rest over as many planes as the rank holds of the input,
  // in the output (its mpi-rdft2-rank-geq2 counts the planes by the
  // input's block). Where a rank holds another count of the output's
  // planes, it transforms too few of them (the rest are left as they were)
  // or too many.
  if (layout.kind != Kind::C2R || layout.in_dim != 0 || layout.out_dim != 0) return nullptr;
  const size_t n_pes = layout.in.count.size();
  for (size_t q = 0; q < n_pes && q < layout.out.count.size(); ++q)
    if (layout.in.count[q] != layout.out.count[q])
      return "a c2r whose ranks hold other numbers of planes of its input than of its output, which the real FFTW MPI "
             "computes wrongly";
  // All of it on one rank of several, out of place: the real FFTW MPI
  // spreads the transform of dimension 0 over every rank, and on the ranks
  // holding nothing it writes past the one value that local_size counts
  // there.
  if (!in_place && n_pes > 1)
    for (size_t q = 0; q < n_pes; ++q)
      if (layout.in.count[q] == layout.n[0])
        return "an out-of-place c2r whose planes are all on one rank, where the real FFTW MPI writes past the "
               "arrays local_size gives the other ranks";
  return nullptr;
}

const char *real_fftw_mpi_breaks_dft_1d(ptrdiff_t n0) {
  return n0 == 1 ? "a one-dimensional DFT of size 1, which the real FFTW MPI crashes planning, on any number of ranks"
                 : nullptr;
}

const char *real_fftw_mpi_breaks_r2r(int rnk, const ptrdiff_t *n, int kind0, unsigned flags, int n_pes) {
  if (rnk < 2 || n[0] != 1 || n_pes < 2 || (flags & (FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT))) return nullptr;
  // The kinds whose transform of size 1 is more than a copy (it scales):
  // the real FFTW MPI then spreads the other dimensions over every rank,
  // and on the ranks holding nothing writes past the one value that
  // local_size counts there.
  switch (kind0) {
    case FFTW_REDFT10:
    case FFTW_REDFT11:
    case FFTW_RODFT00:
    case FFTW_RODFT10:
    case FFTW_RODFT11:
      return "an r2r whose dimension 0 is of size 1 under a kind that scales it (REDFT10, REDFT11, RODFT00, RODFT10, "
             "RODFT11), where the real FFTW MPI writes past the arrays local_size gives the ranks holding nothing";
    default:
      return nullptr;
  }
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
