// The real FFTW, reached through a typed table of its functions.
//
// The real libraries are opened with dlmopen into a private link-map
// namespace, whichever way gpufftw came in (preload, relink, drop-in). Inside
// that namespace the real FFTW's own calls between its public functions (its
// plan_dft_1d calls plan_many_dft, its threads library links to libfftw3 by
// SONAME) resolve to the real FFTW and never back into gpufftw, so no call is
// wrapped twice; and the drop-in libfftw3*_threads.so.3 of gpufftw cannot be
// mistaken for the real one by the loader.
#pragma once

#include <fftw3.h>

#include <cstdint>
#include <string>

namespace gpufftw {

// X-macro lists: the real functions gpufftw calls. Only guru64 planners and
// functions that call no other public FFTW function: the real FFTW's calls
// to its own public names land back in gpufftw (docs/design.md, "Re-entry").
#define GPUFFTW_REAL_CORE_FUNCS(F, P) \
  F(P, plan_guru64_dft)               \
  F(P, plan_guru64_split_dft)         \
  F(P, plan_guru64_dft_r2c)           \
  F(P, plan_guru64_split_dft_r2c)     \
  F(P, plan_guru64_dft_c2r)           \
  F(P, plan_guru64_split_dft_c2r)     \
  F(P, plan_guru64_r2r)               \
  F(P, execute)                       \
  F(P, execute_dft)                   \
  F(P, execute_split_dft)             \
  F(P, execute_dft_r2c)               \
  F(P, execute_split_dft_r2c)         \
  F(P, execute_dft_c2r)               \
  F(P, execute_split_dft_c2r)         \
  F(P, execute_r2r)                   \
  F(P, destroy_plan)                  \
  F(P, fprint_plan)                   \
  F(P, flops)                         \
  F(P, cost)                          \
  F(P, estimate_cost)                 \
  F(P, alignment_of)                  \
  F(P, forget_wisdom)                 \
  F(P, cleanup)                       \
  F(P, set_timelimit)                 \
  F(P, export_wisdom_to_file)         \
  F(P, export_wisdom)                 \
  F(P, import_wisdom_from_file)       \
  F(P, import_wisdom_from_string)     \
  F(P, import_wisdom)

#define GPUFFTW_REAL_THREADS_FUNCS(F, P) \
  F(P, init_threads)                     \
  F(P, cleanup_threads)                  \
  F(P, plan_with_nthreads)               \
  F(P, planner_nthreads)                 \
  F(P, threads_set_callback)             \
  F(P, make_planner_thread_safe)

#define GPUFFTW_REAL_FIELD(P, name) decltype(&::P##name) name = nullptr;

template <class R>
struct RealFftw;

// Each table is filled once, on first use, and never changes afterwards.
// Long double: never exported by gpufftw, only the reference of the
// comparison mode for double-precision plans.
#define GPUFFTW_REAL_TABLE(R_, P)                     \
  template <>                                         \
  struct RealFftw<R_> {                               \
    GPUFFTW_REAL_CORE_FUNCS(GPUFFTW_REAL_FIELD, P)    \
    GPUFFTW_REAL_THREADS_FUNCS(GPUFFTW_REAL_FIELD, P) \
    bool loaded = false;                              \
    bool threads_loaded = false;                      \
    std::string path;                                 \
  };
GPUFFTW_REAL_TABLE(float, fftwf_)
GPUFFTW_REAL_TABLE(double, fftw_)
GPUFFTW_REAL_TABLE(long double, fftwl_)
#undef GPUFFTW_REAL_TABLE
#undef GPUFFTW_REAL_FIELD

// The table of the real FFTW of precision R; `loaded` is false when it could
// not be found (said once in the log, naming every place searched).
template <class R>
const RealFftw<R> &real_fftw();

// How many times the table's cleanup (the program's fftw(f)_cleanup) has
// run for precision R: each leaves the plans made before it undefined.
template <class R>
uint64_t real_cleanups();

}  // namespace gpufftw
