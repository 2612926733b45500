// The precision-generic bodies behind mpi/api.inc's entry points.
#pragma once

#include <fftw3-mpi.h>

#include <chrono>
#include <cstddef>
#include <mutex>
#include <set>
#include <string>

#include "core/log.h"
#include "mpi/composed/decide.h"
#include "mpi/composed/entry.h"
#include "mpi/real_fftw_mpi.h"
#include "shim/foreign.h"

namespace gpufftw {
namespace mpi {

template <class R>
const RealFftwMpi<R> *real() {
  const RealFftwMpi<R> &t = real_fftw_mpi<R>();
  return t.loaded ? &t : nullptr;
}

template <class R>
struct PlanOf;
template <>
struct PlanOf<double> {
  using type = fftw_plan;
  static constexpr char precision = 'd';
};
template <>
struct PlanOf<float> {
  using type = fftwf_plan;
  static constexpr char precision = 'f';
};

// The why of the real FFTW MPI's plan that wrap is handing to gpufftw (the
// handle asks for it once, as it is made), kept for the process: a handle's
// why must outlive it, and the texts are few.
inline thread_local const char *wrapping_why = nullptr;
inline const char *kept(const std::string &why) {
  static std::mutex mutex;
  static auto *texts = new std::set<std::string>;  // never destroyed: plans may outlive static destructors
  std::lock_guard<std::mutex> lock(mutex);
  return texts->insert("the real FFTW MPI: " + why).first->c_str();
}

// The report's heading names this rank of MPI_COMM_WORLD (fftw_mpi_init
// comes after MPI_Init).
inline void label_report() {
  int rank = 0, size = 0;
  if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && MPI_Comm_size(MPI_COMM_WORLD, &size) == MPI_SUCCESS)
    gpufftw_foreign_report_rank(rank, size);
}

// The real serial FFTW's functions on the real FFTW MPI's plans, for the
// plan handles gpufftw hands out (shim/foreign.h).
template <class R>
const gpufftw_foreign_ops *foreign_ops() {
  using P = typename PlanOf<R>::type;
  static const gpufftw_foreign_ops ops = {
      "the real FFTW MPI",
      [](void *p) { real_fftw_mpi<R>().serial_execute(static_cast<P>(p)); },
      [](void *p, void *in, void *out) {
        real_fftw_mpi<R>().serial_execute_r2r(static_cast<P>(p), static_cast<R *>(in), static_cast<R *>(out));
      },
      [](void *p) { real_fftw_mpi<R>().serial_destroy_plan(static_cast<P>(p)); },
      [](void *p, FILE *f) { real_fftw_mpi<R>().serial_fprint_plan(static_cast<P>(p), f); },
      [](void *p, double *a, double *m, double *f) { real_fftw_mpi<R>().serial_flops(static_cast<P>(p), a, m, f); },
      [](void *p) { return real_fftw_mpi<R>().serial_cost(static_cast<P>(p)); },
      [](void *p) { return real_fftw_mpi<R>().serial_estimate_cost(static_cast<P>(p)); },
      nullptr,
      [](void *) { return wrapping_why; },
  };
  return &ops;
}

// When the distributed planner call now running on this thread began (the
// outermost: one planner reduces to another): the plan time the report
// shows for the plan it returns.
class PlannerCall {
 public:
  PlannerCall() {
    if (depth_++ == 0) started_ = std::chrono::steady_clock::now();
  }
  ~PlannerCall() { --depth_; }
  PlannerCall(const PlannerCall &) = delete;
  PlannerCall &operator=(const PlannerCall &) = delete;
  static double ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
  }

 private:
  static inline thread_local int depth_ = 0;
  static inline thread_local std::chrono::steady_clock::time_point started_;
};

// The real plan in gpufftw's handle (NULL stays NULL): every rank gets a
// NULL plan where the real FFTW MPI gives one, as it decides collectively.
// `sign`, `in` and `out` as the program planned them, and why the real
// FFTW MPI planned it (for the report).
template <class R>
typename PlanOf<R>::type wrap(typename PlanOf<R>::type real_plan, gpufftw_foreign_kind kind, int rank,
                              const ptrdiff_t *n, ptrdiff_t howmany, int sign, void *in, void *out,
                              const std::string &why) {
  if (!real_plan) return nullptr;
  long dims[8];
  int r = rank < 0 ? 0 : (rank > 8 ? 8 : rank);
  for (int i = 0; i < r; ++i) dims[i] = static_cast<long>(n[i]);
  wrapping_why = kept(why);
  return static_cast<typename PlanOf<R>::type>(gpufftw_foreign_plan(foreign_ops<R>(), real_plan, PlanOf<R>::precision,
                                                                    kind, r, dims, howmany, sign, in, out,
                                                                    PlannerCall::ms()));
}

// True, with a warning, where `breaks` names what the real FFTW MPI
// crashes on or writes past its arrays on (composed/decide.h): the planner
// `entry` then returns NULL, as FFTW answers a problem it cannot do,
// without calling it.
inline bool never_to_real(const char *entry, const char *breaks) {
  if (!breaks) return false;
  GPUFFTW_LOG(Warn, "%s: no plan: %s", entry, breaks);
  return true;
}

// real_fftw_mpi_breaks_r2r on comm's ranks.
template <class K>
const char *r2r_breaks_real(int rnk, const ptrdiff_t *n, const K *kind, unsigned flags, MPI_Comm comm) {
  int n_pes = 1;
  if (MPI_Comm_size(comm, &n_pes) != MPI_SUCCESS) return nullptr;  // the real FFTW MPI's own answer then
  return composed::real_fftw_mpi_breaks_r2r(rnk, n, static_cast<int>(kind[0]), flags, n_pes);
}

// fftw_mpi_execute_*: true where `p` is a plan of fftw_mpi_plan_* (the real
// FFTW MPI's or a composed one), which gpufftw's serial execute of the same
// kind then runs and counts for the report (the real FFTW MPI's execute
// calls fftw_execute_r2r through the PLT, which is gpufftw's: its plan's
// rdft apply on the new arrays, as gpufftw's handle runs it); else a warning.
template <class R>
bool distributed(typename PlanOf<R>::type p, const char *entry) {
  if (p && (gpufftw_foreign_plan_real(p, composed::ops<R>()) || gpufftw_foreign_plan_real(p, foreign_ops<R>())))
    return true;
  GPUFFTW_LOG(Warn, "%s called with %s; nothing done", entry, p ? "a plan not made by fftw_mpi_plan_*" : "a NULL plan");
  return false;
}

}  // namespace mpi
}  // namespace gpufftw
