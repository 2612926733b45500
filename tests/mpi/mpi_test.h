// What the MPI test programs share: this rank and the number of ranks,
// the count of failed checks, MPI and both precisions of the FFTW MPI
// started, the relative L2 distance summed over every rank, and gpufftw's
// extension API looked up at run time (so a program also links without it).
#pragma once

#include <dlfcn.h>
#include <fftw3-mpi.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace mpi_test {

inline int me = 0, np = 1, bad = 0;

// Counts and reports a failed check.
inline void expect(bool ok, const std::string &what) {
  if (!ok) {
    ++bad;
    std::fprintf(stderr, "rank %d: FAILED %s\n", me, what.c_str());
  }
}

// MPI_Init, this rank and the number of ranks, and both precisions'
// fftw_mpi_init.
inline void start(int *argc, char ***argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  fftw_mpi_init();
  fftwf_mpi_init();
}

// Both precisions' fftw_mpi_cleanup (MPI_Finalize is the program's, after
// its last report).
inline void cleanup() {
  fftw_mpi_cleanup();
  fftwf_mpi_cleanup();
}

// sqrt(diff2 / want2) with both sums taken over every rank: the relative
// L2 distance of a distributed result from the wanted one.
inline double relative_l2(double diff2, double want2) {
  double s[2] = {diff2, want2};
  MPI_Allreduce(MPI_IN_PLACE, s, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return std::sqrt(s[0] / (s[1] > 0 ? s[1] : 1));
}

// The function `name` of gpufftw's extension API, or null where gpufftw is
// not in the process.
template <class F>
F ext(const char *name) {
  return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace mpi_test
