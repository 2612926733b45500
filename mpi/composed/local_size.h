// gpufftw's own copy of the real FFTW MPI's data distribution (FFTW 3.3.10
// mpi/api.c local_size_guru and its helpers in block.c, dtensor.c and
// choose-radix.c): what fftw_mpi_local_size_* return. Used where the real
// FFTW MPI is not there, and what a GPU path's slabs will be cut by; a test
// (tests/mpi/local_size_main.cc) holds it equal to the real one.
// Precision-independent: the layout does not depend on the real type.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace gpufftw {
namespace mpi {

// As FFTW's: dims[i] = {n, input block, output block}, 0 = default block.
struct DDim {
  ptrdiff_t n, ib, ob;
};

// The arithmetic alone, for rank `my_pe` of `n_pes`: no MPI call.
ptrdiff_t local_size_guru(int rnk, const DDim *dims, ptrdiff_t howmany, int my_pe, int n_pes,
                          ptrdiff_t *local_n_in, ptrdiff_t *local_start_in, ptrdiff_t *local_n_out,
                          ptrdiff_t *local_start_out, int sign, unsigned flags);

ptrdiff_t local_size_many_transposed(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t block0,
                                     ptrdiff_t block1, int my_pe, int n_pes, ptrdiff_t *local_n0,
                                     ptrdiff_t *local_0_start, ptrdiff_t *local_n1, ptrdiff_t *local_1_start);
ptrdiff_t local_size_many_1d(ptrdiff_t n0, ptrdiff_t howmany, int my_pe, int n_pes, int sign, unsigned flags,
                             ptrdiff_t *local_ni, ptrdiff_t *local_i_start, ptrdiff_t *local_no,
                             ptrdiff_t *local_o_start);

// The same on a communicator (its size and this process's rank in it).
ptrdiff_t own_local_size_many_transposed(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t block0,
                                         ptrdiff_t block1, MPI_Comm comm, ptrdiff_t *local_n0,
                                         ptrdiff_t *local_0_start, ptrdiff_t *local_n1, ptrdiff_t *local_1_start);
ptrdiff_t own_local_size_many(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t block0, MPI_Comm comm,
                              ptrdiff_t *local_n0, ptrdiff_t *local_0_start);
ptrdiff_t own_local_size_many_1d(ptrdiff_t n0, ptrdiff_t howmany, MPI_Comm comm, int sign, unsigned flags,
                                 ptrdiff_t *local_ni, ptrdiff_t *local_i_start, ptrdiff_t *local_no,
                                 ptrdiff_t *local_o_start);

}  // namespace mpi
}  // namespace gpufftw
