// The choices a distributed plan makes before it is built: which path
// (GPUFFTW_MPI_PATH), and which GPU this rank's local transforms use.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

#include "mpi/composed/layout.h"

namespace gpufftw {
namespace mpi {
namespace composed {

enum class Path { Auto, Composed, Real };

// GPUFFTW_MPI_PATH, read at each distributed planner call (so a program
// may change it between plans, alike on every rank): auto (default),
// composed, real. An unknown value is said once and read as auto.
Path path_setting();

// What the real FFTW MPI is known to get wrong in the layout, planned in
// place or out of place; nullptr where nothing is known. Such a layout
// takes the composed path on every path and every machine, GPU or not,
// and where the composed plan cannot be built the plan is NULL. The real
// FFTW MPI
// - computes distributed DFTs with a dimension of size 1 wrongly, refuses
//   them (a NULL plan) or crashes while planning them, with and without
//   the transposed flags, on one rank and on several;
// - computes a c2r whose sides are neither transposed wrongly where a rank
//   holds another number of planes of the input than of the output (the
//   blocks cut them otherwise): on each rank it runs the c2r of the last
//   dimensions over as many planes as the rank holds of the input;
// - writes past local_size's arrays on the ranks holding nothing where
//   such a c2r, out of place, has all of its planes on one rank of
//   several (explicit blocks of all of dimension 0): it spreads the
//   transform over every rank there.
// (mpi/composed/real_fails.cc; docs/mpi.md, docs/results/mpi.md.)
const char *real_fftw_mpi_fails(const Layout &layout, bool in_place);

// The problems gpufftw leaves to the real FFTW MPI whole (1-D DFTs, r2r)
// on which it crashes or writes past local_size's arrays; nullptr where
// none is known. Such a plan is NULL, as FFTW answers a problem it cannot
// do, and the real FFTW MPI is never called. It crashes planning a 1-D
// DFT of size 1 on any number of ranks; on 2 or more ranks, an r2r of rank
// 2 and up, neither side transposed, whose dimension 0 is of size 1 under
// REDFT10, REDFT11, RODFT00, RODFT10 or RODFT11 (`kind0`, dimension 0's, as
// an fftw_r2r_kind's value) is spread over every rank and written past the
// one value local_size counts on the ranks holding nothing.
const char *real_fftw_mpi_breaks_dft_1d(ptrdiff_t n0);
const char *real_fftw_mpi_breaks_r2r(int rnk, const ptrdiff_t *n, int kind0, unsigned flags, int n_pes);

// 1 where gpufftw's GPU engine has a GPU and GPUFFTW_MODE is not cpu.
int gpu_here();

// GPUFFTW_MPI_EXCHANGE, read as GPUFFTW_MPI_PATH is: auto (default: GPU to
// GPU through NCCL where every rank can) or host (MPI on host memory).
enum class ExchangeSetting { Auto, Host };
ExchangeSetting exchange_setting();

// Both read at fftw_mpi_init, so that a bad value is said as the program
// starts, not first where a plan reads it.
void check_settings();

// This rank's GPU for its local transforms: -1 where it has none (or
// GPUFFTW_MODE=cpu); `shared` where the node has more ranks than GPUs.
struct Gpu {
  int device = -1;
  bool shared = false;
};

// Collective on comm: this rank's place among the ranks of its node (an
// MPI_COMM_TYPE_SHARED split of comm). The first distributed plan of the
// process then narrows gpufftw's device set (GPUFFTW_DEVICES, else the
// GPUs of device 0's model) to its one GPU: the set's (place mod size)-th.
// False, with why, where an MPI call failed.
bool pick_gpu(MPI_Comm comm, Gpu *gpu, std::string *why);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
