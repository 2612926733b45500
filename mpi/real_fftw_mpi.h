// The real FFTW MPI (libfftw3_mpi.so.3, libfftw3f_mpi.so.3), reached through
// a typed table of its functions (plain dlsym), and the real serial FFTW that
// serves it.
//
// Unlike the serial fallback (fallback/real_fftw.h), these are opened in the
// program's own link-map namespace: the real FFTW MPI must call the program's
// MPI, the one instance MPI_Init started (a copy in a private dlmopen
// namespace would bring its own, uninitialised libmpi). It needs about 47 of
// the real serial FFTW's internal symbols (fftw_mkapiplan, fftw_the_planner,
// ...), which gpufftw does not define; under drop-in the loader would bind its
// DT_NEEDED libfftw3.so.3 to gpufftw's drop-in name. So the real serial
// library is opened first, by absolute path and RTLD_GLOBAL: every symbol the
// real FFTW MPI imports then resolves in the global scope, the public ones
// (fftw_execute_r2r, fftw_cleanup, the wisdom strings, fftw_free) to gpufftw,
// which comes first, and the internal ones to that real serial FFTW
// (docs/mpi.md).
#pragma once

#include <fftw3-mpi.h>

#include <string>

namespace gpufftw {
namespace mpi {

// The C functions of fftw3-mpi.h (the Fortran 2003 *_f03 wrappers are
// gpufftw's own: MPI_Comm_f2c, then the C entry). All are looked up, so a
// real library that lacks one is said in the log; api.inc calls only the
// roots (see there why).
#define GPUFFTW_MPI_FUNCS(F, P)          \
  F(P, init)                             \
  F(P, cleanup)                          \
  F(P, local_size_many_transposed)       \
  F(P, local_size_many)                  \
  F(P, local_size_transposed)            \
  F(P, local_size)                       \
  F(P, local_size_many_1d)               \
  F(P, local_size_1d)                    \
  F(P, local_size_2d)                    \
  F(P, local_size_2d_transposed)         \
  F(P, local_size_3d)                    \
  F(P, local_size_3d_transposed)         \
  F(P, plan_many_transpose)              \
  F(P, plan_transpose)                   \
  F(P, plan_many_dft)                    \
  F(P, plan_dft)                         \
  F(P, plan_dft_1d)                      \
  F(P, plan_dft_2d)                      \
  F(P, plan_dft_3d)                      \
  F(P, plan_many_r2r)                    \
  F(P, plan_r2r)                         \
  F(P, plan_r2r_2d)                      \
  F(P, plan_r2r_3d)                      \
  F(P, plan_many_dft_r2c)                \
  F(P, plan_dft_r2c)                     \
  F(P, plan_dft_r2c_2d)                  \
  F(P, plan_dft_r2c_3d)                  \
  F(P, plan_many_dft_c2r)                \
  F(P, plan_dft_c2r)                     \
  F(P, plan_dft_c2r_2d)                  \
  F(P, plan_dft_c2r_3d)                  \
  F(P, gather_wisdom)                    \
  F(P, broadcast_wisdom)

// The real serial FFTW's functions on the real FFTW MPI's plans and its
// planner: none of them calls another public FFTW function.
#define GPUFFTW_MPI_SERIAL_FUNCS(F, P) \
  F(P, execute)                        \
  F(P, execute_r2r)                    \
  F(P, destroy_plan)                   \
  F(P, fprint_plan)                    \
  F(P, flops)                          \
  F(P, cost)                           \
  F(P, estimate_cost)                  \
  F(P, forget_wisdom)                  \
  F(P, cleanup)                        \
  F(P, set_timelimit)

#define GPUFFTW_MPI_FIELD(P, name) decltype(&::P##mpi_##name) name = nullptr;
#define GPUFFTW_MPI_SERIAL_FIELD(P, name) decltype(&::P##name) serial_##name = nullptr;

template <class R>
struct RealFftwMpi;

// The real serial FFTW's threads library beside it, where there is one: its
// MPI plans get the threads the program asked gpufftw for.
#define GPUFFTW_MPI_THREADS_FUNCS(F, P) \
  F(P, init_threads)                    \
  F(P, plan_with_nthreads)

#define GPUFFTW_MPI_TABLE(R_, P)                           \
  template <>                                              \
  struct RealFftwMpi<R_> {                                 \
    GPUFFTW_MPI_FUNCS(GPUFFTW_MPI_FIELD, P)                \
    GPUFFTW_MPI_SERIAL_FUNCS(GPUFFTW_MPI_SERIAL_FIELD, P)  \
    GPUFFTW_MPI_THREADS_FUNCS(GPUFFTW_MPI_SERIAL_FIELD, P) \
    bool loaded = false;                                   \
    std::string path, serial_path;                         \
  };
GPUFFTW_MPI_TABLE(double, fftw_)
GPUFFTW_MPI_TABLE(float, fftwf_)
#undef GPUFFTW_MPI_TABLE
#undef GPUFFTW_MPI_FIELD
#undef GPUFFTW_MPI_SERIAL_FIELD

// The table for precision R, opened on first use (never in a constructor);
// `loaded` is false where the real FFTW MPI was not found (said once in
// the log with every place searched).
template <class R>
const RealFftwMpi<R> &real_fftw_mpi();

// Before each real planner call: the real serial FFTW under the MPI plans
// plans with as many threads as the program last asked gpufftw for
// (fftw_plan_with_nthreads, read back with fftw_planner_nthreads); its
// threads are started the first time more than one is asked for. Its
// planner keeps to the program's time limit (fftw_set_timelimit), or to
// what is left of it where a TimeLimitWithin is open on this thread.
template <class R>
void sync_serial();

// While it lives, the real FFTW MPI's plans of precision R on this thread
// keep to `seconds` (what the program's limit leaves after gpufftw's own
// timing of the same plan call).
template <class R>
class TimeLimitWithin {
 public:
  explicit TimeLimitWithin(double seconds);
  ~TimeLimitWithin();
  TimeLimitWithin(const TimeLimitWithin &) = delete;
  TimeLimitWithin &operator=(const TimeLimitWithin &) = delete;

 private:
  double outer_;
};

}  // namespace mpi
}  // namespace gpufftw
