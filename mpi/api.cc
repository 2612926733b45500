// The exported C API of fftw3-mpi.h, single and double precision from one
// source (api.inc). Compiled against the real fftw3-mpi.h, so every
// signature is checked against FFTW's own declarations; the *_f03 wrappers
// are declared here as FFTW's mpi/f03-wrap.c declares them.
#include <fftw3-mpi.h>

#include "mpi/api_impl.h"
#include "mpi/composed/local_size.h"

#define GPUFFTW_MPI_STR_(x) #x
#define GPUFFTW_MPI_STR(x) GPUFFTW_MPI_STR_(x)
#define GPUFFTW_MPI_NAME(n) GPUFFTW_MPI_STR(XM(n))

#pragma GCC visibility push(default)

#define XM(name) fftwf_mpi_##name
#define X(name) fftwf_##name
#define R float
#define C fftwf_complex
#define P fftwf_plan
#include "mpi/api.inc"
#undef XM
#undef X
#undef R
#undef C
#undef P

#define XM(name) fftw_mpi_##name
#define X(name) fftw_##name
#define R double
#define C fftw_complex
#define P fftw_plan
#include "mpi/api.inc"

#pragma GCC visibility pop

namespace {
// This library is gpufftw's own code to libgpufftw (shim/foreign.h), said
// as it loads, before any of its lookups or calls.
__attribute__((constructor)) void say_own_library() {
  gpufftw_own_library(reinterpret_cast<const void *>(&say_own_library));
}
}  // namespace
