// The choices a distributed plan makes before it is built: which path
// (GPUFFTW_MPI_PATH), and which GPU this rank's local transforms use.
#pragma once

#include <mpi.h>

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

// True where the real FFTW MPI is known to fail the layout: it computes
// distributed DFTs with a dimension of size 1 wrongly, refuses them (a NULL
// plan) or crashes while planning them, with and without the transposed
// flags, on one rank and on several. Such a layout takes the composed path
// on every path and every machine, GPU or not.
bool real_fftw_mpi_fails(const Layout &layout);

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
