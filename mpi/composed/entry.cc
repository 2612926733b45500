#include "mpi/composed/entry.h"

#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "core/log.h"
#include "mpi/composed/decide.h"
#include "mpi/composed/exchange.h"
#include "mpi/composed/plan.h"
#include "mpi/composed/steps.h"

namespace gpufftw {
namespace mpi {
namespace composed {

template <class R>
const gpufftw_foreign_ops *ops() {
  using P = Plan<R>;
  static const gpufftw_foreign_ops table = {
      "gpufftw's composed distributed DFT",
      [](void *p) { static_cast<P *>(p)->execute(); },
      [](void *p, void *in, void *out) { static_cast<P *>(p)->execute(in, out); },
      [](void *p) { delete static_cast<P *>(p); },
      [](void *p, FILE *f) { static_cast<P *>(p)->fprint(f); },
      [](void *p, double *a, double *m, double *f) { static_cast<P *>(p)->flops(a, m, f); },
      [](void *p) { return static_cast<P *>(p)->cost(); },
      [](void *p) { return static_cast<P *>(p)->estimate_cost(); },
      [](void *p) { return static_cast<P *>(p)->where(); },
      [](void *p) { return static_cast<P *>(p)->why(); },
  };
  return &table;
}

namespace {

using MakeLayout = bool (*)(int, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, unsigned, int, Layout *,
                            std::string *);

#ifdef GPUFFTW_HAVE_CUDA
// Collective on comm: this rank's device-resident part where every rank
// can build one (its own GPU, NCCL, a layout it takes), else nullptr on
// every rank with why (the host route's reason, as this rank sees it).
template <class R>
std::unique_ptr<Resident<R>> resident_part(const Layout &layout, int me, int n_pes, MPI_Comm comm, Gpu gpu, int sign,
                                           unsigned flags, std::string *why) {
  const NcclApi *api = nullptr;
  if (exchange_setting() == ExchangeSetting::Host)
    *why = "GPUFFTW_MPI_EXCHANGE=host";
  else if (!resident_suits(layout, n_pes, why)) {
  } else if (gpu.device < 0)
    *why = "no GPU on rank " + std::to_string(me);
  else if (gpu.shared)
    *why = "ranks share a GPU, and NCCL takes one GPU per rank";
  else
    api = nccl_api(why);
  if (!on_every_rank(api != nullptr, comm, "use NCCL", why)) return nullptr;
  std::shared_ptr<const NcclComm> nccl = nccl_of(comm, *api, gpu.device, why);
  if (!nccl) return nullptr;
  std::unique_ptr<Resident<R>> part =
      Resident<R>::build(layout, me, n_pes, gpu.device, std::move(nccl), sign, serial_flags(flags), why);
  if (!on_every_rank(part != nullptr, comm, "build its part on its GPU", why)) return nullptr;
  return part;
}
#endif

// The key a measured choice is kept under in the dispatch store: the
// planner, the precision, the layout, the ranks, the planner's threads and
// what else FFTW's plan depends on. No spaces.
std::string choice_key(const char *planner, char precision, const Layout &l, int n_pes, int threads, ptrdiff_t iblock,
                       ptrdiff_t oblock, unsigned flags, int sign, const void *in, const void *out) {
  std::string k = std::string("mpi.") + planner + "." + precision + ".n";
  for (ptrdiff_t d : l.n) k += std::to_string(d) + ",";
  k += ".h" + std::to_string(l.howmany) + ".b" + std::to_string(iblock) + "," + std::to_string(oblock);
  k += ".t" + std::to_string(l.in_dim) + std::to_string(l.out_dim) + ".r" + std::to_string(n_pes) + "@" +
       std::to_string(threads);
  k += sign == FFTW_FORWARD ? ".fwd" : ".bwd";
  k += in == out ? ".ip" : ".oop";
  k += (flags & FFTW_EXHAUSTIVE) == FFTW_EXHAUSTIVE ? ".exhaustive" : (flags & FFTW_PATIENT) ? ".patient" : ".measure";
  return k;
}

std::string ms_text(double ms) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g ms", ms);
  return b;
}

struct Remembered {
  bool found = false, composed = false;
  double composed_ms = 0, real_ms = 0;
};

// Collective: rank 0's store's choice for `key`, on every rank.
bool recall(const std::string &key, MPI_Comm comm, Remembered *out, std::string *why) {
  int me = 0;
  double v[4] = {0, 0, 0, 0};  // found, composed, composed ms, real ms
  if (MPI_Comm_rank(comm, &me) == MPI_SUCCESS && me == 0) {
    int composed = 0;
    v[0] = gpufftw_foreign_recall(key.c_str(), &composed, &v[2], &v[3]);
    v[1] = composed;
  }
  const int rc = MPI_Bcast(v, 4, MPI_DOUBLE, 0, comm);
  if (rc != MPI_SUCCESS) return *why = mpi_error("MPI_Bcast", rc), false;
  *out = {v[0] != 0, v[1] != 0, v[2], v[3]};
  return true;
}

// The slowest rank's time of `run`, in ms: once untimed, then the faster of
// two; -1 where MPI failed.
double best_ms(MPI_Comm comm, const std::function<void()> &run) {
  run();
  double best = -1;
  for (int k = 0; k < 2; ++k) {
    if (MPI_Barrier(comm) != MPI_SUCCESS) return -1;
    const double t0 = MPI_Wtime();
    run();
    double ms = (MPI_Wtime() - t0) * 1e3;
    if (MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS) return -1;
    if (best < 0 || ms < best) best = ms;
  }
  return best;
}

// The way to a composed plan of either kind; `planner` (plan_many_dft, ...)
// names the planner in the log, with the precision's prefix.
template <class R>
void *compose(const char *planner, gpufftw_foreign_kind kind, MakeLayout make, int rnk, const ptrdiff_t *n,
              ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, void *in, void *out, MPI_Comm comm, int sign,
              unsigned flags, const RealSide &real, Declined *declined) {
  const std::string named = std::string(Serial<R>::precision == 'f' ? "fftwf_mpi_" : "fftw_mpi_") + planner;
  const char *entry = named.c_str();
  // The report shows the real FFTW MPI's plan with this why.
  auto decline = [declined](std::string why) -> void * {
    declined->why = std::move(why);
    return nullptr;
  };
  int n_pes = 0, me = 0, rc;
  if ((rc = MPI_Comm_size(comm, &n_pes)) != MPI_SUCCESS || (rc = MPI_Comm_rank(comm, &me)) != MPI_SUCCESS) {
    GPUFFTW_LOG(Warn, "%s: %s", entry, mpi_error("MPI_Comm_size/MPI_Comm_rank", rc).c_str());
    return decline(mpi_error("MPI_Comm_size/MPI_Comm_rank", rc));
  }
  // The arguments are the same on every rank, so whatever is decided from
  // them alone is too, without a word between the ranks.
  Layout layout;
  std::string why;
  if (!make(rnk, n, howmany, iblock, oblock, flags, n_pes, &layout, &why)) {
    GPUFFTW_LOG(Debug, "%s: the real FFTW MPI: %s", entry, why.c_str());
    return decline(why);
  }
  // Vote 1: composed where every rank's setting allows it and either every
  // rank forces it or every rank has a GPU; always where the real FFTW MPI
  // would fail the layout (the same on every rank: it follows from the
  // arguments).
  const bool required = real_fftw_mpi_fails(layout);
  if (required) {
    static std::once_flag said;
    std::call_once(said, [entry] {
      GPUFFTW_LOG(Info, "%s: a dimension of size 1, which the real FFTW MPI computes wrongly, refuses or crashes "
                  "on: such plans are composed on every path", entry);
    });
  }
  const Path path = required ? Path::Composed : path_setting();
  const bool measuring = !(flags & (FFTW_ESTIMATE | FFTW_WISDOM_ONLY));
  int vote[4] = {path != Path::Real, path == Path::Composed, path == Path::Real ? 0 : gpu_here(),
                 path == Path::Auto && measuring};
  if ((rc = MPI_Allreduce(MPI_IN_PLACE, vote, 4, MPI_INT, MPI_MIN, comm)) != MPI_SUCCESS) {
    GPUFFTW_LOG(Warn, "%s: %s", entry, mpi_error("MPI_Allreduce", rc).c_str());
    return decline(mpi_error("MPI_Allreduce", rc));
  }
  if (!vote[0] || !(vote[1] || vote[2] || vote[3])) {
    why = !vote[0] ? "GPUFFTW_MPI_PATH=real"
                   : "FFTW_ESTIMATE, not every rank has a GPU, and GPUFFTW_MPI_PATH is not composed";
    GPUFFTW_LOG(Debug, "%s: the real FFTW MPI (%s)", entry, why.c_str());
    return decline(why);
  }
  // Vote 1b: under auto with FFTW_MEASURE and up, the two sides are timed,
  // unless rank 0's store remembers which won.
  bool timed = vote[3] && !vote[1] && real.plan;
  const std::string key =
      timed ? choice_key(planner, Serial<R>::precision, layout, n_pes, Serial<R>::planner_nthreads(), iblock, oblock,
                         flags, sign, in, out)
            : "";
  std::string measured;
  if (timed) {
    Remembered earlier;
    if (!recall(key, comm, &earlier, &why)) {
      GPUFFTW_LOG(Warn, "%s: %s", entry, why.c_str());
      return decline(why);
    }
    if (earlier.found) {
      timed = false;
      measured = "; measured earlier: composed " + ms_text(earlier.composed_ms) + ", the real FFTW MPI " +
                 ms_text(earlier.real_ms);
      if (!earlier.composed) {
        GPUFFTW_LOG(Info, "%s: the real FFTW MPI (%s)", entry, measured.substr(2).c_str());
        return decline(measured.substr(2));
      }
    }
  }
  // Vote 2: every rank built its part, on the device-resident route where
  // every rank can (every rank calls the collective steps alike), else on
  // the host route.
  Gpu gpu;
  const bool picked = pick_gpu(comm, &gpu, &why);
  std::string host_why;
  std::unique_ptr<Plan<R>> plan;
#ifdef GPUFFTW_HAVE_CUDA
  if (std::unique_ptr<Resident<R>> part = resident_part<R>(layout, me, n_pes, comm, picked ? gpu : Gpu{}, sign,
                                                           flags, &host_why))
    plan = Plan<R>::build(layout, me, n_pes, in, out, std::move(part));
#else
  host_why = "gpufftw was built without CUDA";
#endif
  if (!plan && picked) plan = Plan<R>::build(layout, me, n_pes, in, out, sign, flags, host_why, &why);
  int built = plan != nullptr;
  if ((rc = MPI_Allreduce(MPI_IN_PLACE, &built, 1, MPI_INT, MPI_MIN, comm)) != MPI_SUCCESS) {
    GPUFFTW_LOG(Warn, "%s: %s", entry, mpi_error("MPI_Allreduce", rc).c_str());
    return decline(mpi_error("MPI_Allreduce", rc));
  }
  if (!built) {
    // Where the real FFTW MPI would be wrong, no plan is FFTW's own answer.
    const char *whose = plan ? "another rank could not build its part" : why.c_str();
    if (required)
      GPUFFTW_LOG(Warn, "%s: no plan: the real FFTW MPI fails a dimension of size 1 (rank %d: %s)", entry, me, whose);
    else
      GPUFFTW_LOG(Info, "%s: the real FFTW MPI (rank %d: %s)", entry, me, whose);
    declined->refused = required;
    return decline("rank " + std::to_string(me) + ": " + whose);
  }
  MPI_Comm own = MPI_COMM_NULL;
  if ((rc = MPI_Comm_dup(comm, &own)) != MPI_SUCCESS) {
    GPUFFTW_LOG(Warn, "%s: %s", entry, mpi_error("MPI_Comm_dup", rc).c_str());
    return decline(mpi_error("MPI_Comm_dup", rc));
  }
  plan->adopt(own);
  if (timed) {
    // The real FFTW MPI's plan of the same problem (it plans collectively),
    // each side run once and then timed twice, the slowest rank's time.
    // It is kept only where it measures faster.
    void *rival = real.plan("FFTW_MEASURE under GPUFFTW_MPI_PATH=auto: faster than the composed plan");
    int both = rival != nullptr;
    if ((rc = MPI_Allreduce(MPI_IN_PLACE, &both, 1, MPI_INT, MPI_MIN, comm)) != MPI_SUCCESS) both = 0;
    if (both) {
      void *raw = gpufftw_foreign_plan_real(rival, real.ops);
      const double mine = best_ms(comm, [&plan] { plan->execute(); });
      const double theirs = best_ms(comm, [&real, raw] { real.ops->execute(raw); });
      const bool composed_wins = !(theirs > 0 && theirs < mine);
      if (me == 0) gpufftw_foreign_remember(key.c_str(), composed_wins, mine, theirs);
      measured = "; measured: composed " + ms_text(mine) + ", the real FFTW MPI " + ms_text(theirs);
      if (!composed_wins) {
        GPUFFTW_LOG(Info, "%s: the real FFTW MPI (%s)", entry, measured.substr(2).c_str());
        return rival;
      }
    }
    if (rival) Serial<R>::destroy(static_cast<typename Serial<R>::Plan>(rival));
  }
  plan->note(measured);
  GPUFFTW_LOG(Info, "%s, rank %d: %s on %s", entry, me, plan->why(), plan->where());
  long dims[8];
  const int r = rnk > 8 ? 8 : rnk;
  for (int i = 0; i < r; ++i) dims[i] = static_cast<long>(n[i]);
  return gpufftw_foreign_plan(ops<R>(), plan.release(), Serial<R>::precision, kind, r, dims,
                              static_cast<long>(howmany), sign, in, out);
}

}  // namespace

template <class R>
void *plan_dft(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, void *in,
               void *out, MPI_Comm comm, int sign, unsigned flags, const RealSide &real, Declined *declined) {
  *declined = Declined{};
  if (rnk < 2) return declined->why = "one dimension: the composed path takes two and up", nullptr;
  if (sign != FFTW_FORWARD && sign != FFTW_BACKWARD)
    return declined->why = "a sign other than FFTW_FORWARD or FFTW_BACKWARD", nullptr;
  return compose<R>("plan_many_dft", GPUFFTW_FOREIGN_C2C, make_layout, rnk, n, howmany, iblock, oblock, in,
                    out, comm, sign, flags, real, declined);
}

template <class R>
void *plan_dft_c2r(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, void *in,
                   void *out, MPI_Comm comm, unsigned flags, const RealSide &real, Declined *declined) {
  *declined = Declined{};
  if (rnk < 2) return declined->why = "one dimension: the composed path takes two and up", nullptr;
  return compose<R>("plan_many_dft_c2r", GPUFFTW_FOREIGN_C2R, make_layout_c2r, rnk, n, howmany, iblock,
                    oblock, in, out, comm, FFTW_BACKWARD, flags, real, declined);
}

template <class R>
void *plan_dft_r2c(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, void *in,
                   void *out, MPI_Comm comm, unsigned flags, const RealSide &real, Declined *declined) {
  *declined = Declined{};
  if (rnk < 2) return declined->why = "one dimension: the composed path takes two and up", nullptr;
  return compose<R>("plan_many_dft_r2c", GPUFFTW_FOREIGN_R2C, make_layout_r2c, rnk, n, howmany, iblock,
                    oblock, in, out, comm, FFTW_FORWARD, flags, real, declined);
}

template void *plan_dft<double>(int, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, void *, void *, MPI_Comm,
                                int, unsigned, const RealSide &, Declined *);
template void *plan_dft<float>(int, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, void *, void *, MPI_Comm, int,
                               unsigned, const RealSide &, Declined *);
template void *plan_dft_c2r<double>(int, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, void *, void *, MPI_Comm,
                                    unsigned, const RealSide &, Declined *);
template void *plan_dft_c2r<float>(int, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, void *, void *, MPI_Comm,
                                   unsigned, const RealSide &, Declined *);
template void *plan_dft_r2c<double>(int, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, void *, void *, MPI_Comm,
                                    unsigned, const RealSide &, Declined *);
template void *plan_dft_r2c<float>(int, const ptrdiff_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, void *, void *, MPI_Comm,
                                   unsigned, const RealSide &, Declined *);
template const gpufftw_foreign_ops *ops<double>();
template const gpufftw_foreign_ops *ops<float>();

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
