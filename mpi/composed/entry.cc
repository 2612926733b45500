#include "mpi/composed/entry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/laps.h"
#include "core/log.h"
#include "core/readings.h"
#include "core/time_limit.h"
#include "dispatch/cost_model.h"
#include "dispatch/measure_steps.h"
#include "dispatch/sides.h"
#include "mpi/composed/decide.h"
#include "mpi/composed/estimate.h"
#include "mpi/composed/exchange.h"
#include "mpi/composed/plan.h"
#include "mpi/composed/steps.h"
#include "mpi/composed/ways.h"

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
  Laps lap;
  std::shared_ptr<const NcclComm> nccl = nccl_of(comm, *api, gpu.device, why);
  if (!nccl) return nullptr;
  lap("NCCL's communicator");
  std::unique_ptr<Resident<R>> part =
      Resident<R>::build(layout, me, n_pes, gpu.device, std::move(nccl), sign, serial_flags(flags), why);
  if (!on_every_rank(part != nullptr, comm, "build its part on its GPU", why)) return nullptr;
  lap("its part on its GPU");
  GPUFFTW_LOG(Debug, "rank %d, GPU %d: %s", me, gpu.device, lap.text().c_str());
  return part;
}
#endif

// The key a measured choice is kept under in the dispatch store: the
// planner, the precision (".f32." or ".f64.", as the serial planner's
// keys name it, so that fftw(f)_forget_wisdom finds both), the layout,
// the ranks, the planner's threads and what else FFTW's plan depends on.
// Of the flags, the rigor alone: an FFTW_WISDOM_ONLY plan asks for the
// choice its rigor measured, FFTW_ESTIMATE's as FFTW_MEASURE's, as FFTW's
// wisdom of a measured plan serves a WISDOM_ONLY plan of either. No
// spaces.
std::string choice_key(const char *planner, char precision, const Layout &l, int n_pes, int threads, ptrdiff_t iblock,
                       ptrdiff_t oblock, unsigned flags, int sign, const void *in, const void *out) {
  std::string k = std::string("mpi.") + planner + (precision == 'f' ? ".f32" : ".f64") + ".n";
  for (ptrdiff_t d : l.n) k += std::to_string(d) + ",";
  k += ".h" + std::to_string(l.howmany) + ".b" + std::to_string(iblock) + "," + std::to_string(oblock);
  k += ".t" + std::to_string(l.in_dim) + std::to_string(l.out_dim) + ".r" + std::to_string(n_pes) + "@" +
       std::to_string(threads);
  k += sign == FFTW_FORWARD ? ".fwd" : ".bwd";
  k += in == out ? ".ip" : ".oop";
  k += (flags & FFTW_EXHAUSTIVE) == FFTW_EXHAUSTIVE ? ".exhaustive" : (flags & FFTW_PATIENT) ? ".patient" : ".measure";
  return k;
}

// A real FFTW MPI plan whose FFTW_ESTIMATE plan runs longer than this
// measures for seconds: the planner says what it is timing before it does.
constexpr double kSayAbove_ms = 20;

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

// The slowest rank's reading of `run`, in ms, under gpufftw's reading
// rule: each run between barriers, the ranks' longest. `runs` 2: once
// untimed, then the faster of two; 1: that one run alone (a rival whose
// every run may cost seconds). -1 where MPI failed.
double collective_ms(MPI_Comm comm, const std::function<void()> &run, int runs) {
  ReadingRule rule;
  rule.keep = ReadingRule::Keep::Least;
  rule.warm_up = runs > 1;
  rule.least_samples = rule.most_samples = runs > 1 ? 2 : 1;
  const double s = read_runs(
      [&] {
        if (MPI_Barrier(comm) != MPI_SUCCESS) return -1.0;
        const double t0 = MPI_Wtime();
        run();
        double t = MPI_Wtime() - t0;
        if (MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS) return -1.0;
        return t;
      },
      rule);
  return s < 0 ? -1 : s * 1e3;
}

// Collective: whether every rank has `plan`; the plans of a rank whose
// fellows lack theirs are destroyed.
template <class R>
bool on_all_ranks(void *&plan, MPI_Comm comm) {
  int all = plan != nullptr;
  if (MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) all = 0;
  if (!all && plan) Serial<R>::destroy(static_cast<typename Serial<R>::Plan>(plan)), plan = nullptr;
  return all != 0;
}

// FFTW_MEASURE's cut, dispatch's, by the points the serial planner counts.
double measure_cut(const Layout &l) { return estimate_loses_by(whole_points(l)); }

// Collective: `price_ms` asked of rank 0 alone (its model, calibrated
// there at first need), on every rank; negative where it has none or
// MPI failed.
double from_rank_0(int me, MPI_Comm comm, const std::function<double()> &price_ms) {
  double ms = me == 0 ? price_ms() : -1;
  return MPI_Bcast(&ms, 1, MPI_DOUBLE, 0, comm) == MPI_SUCCESS ? ms : -1;
}

// The bytes, in all, of the MPI all-to-all that reads the floor of one of
// the real FFTW MPI's exchanges: enough to pass the exchange's fixed
// costs, small enough that the reading takes no planning time to speak of.
constexpr size_t kAlltoallCap = size_t{1} << 20;

// Collective: the least time, in ms, of an MPI_Alltoall of `each` bytes to
// every rank (after one that opens the connections), the largest of every
// rank's least: a floor of each of the real FFTW MPI's exchanges, which
// send at least as many bytes between the same ranks. 0 on one rank; a
// rank whose call fails reads 0 and stops reading, and the others' floor
// stands, so that the price stays low.
double alltoall_floor_ms(size_t each, int n_pes, MPI_Comm comm) {
  if (n_pes < 2 || each == 0) return 0;
  constexpr int kReadings = 3;
  const size_t all = each * static_cast<size_t>(n_pes);
  std::vector<char> send(all), recv(all);
  double least = HUGE_VAL;
  for (int i = 0; i <= kReadings; ++i) {
    const double t0 = MPI_Wtime();
    if (MPI_Alltoall(send.data(), static_cast<int>(each), MPI_BYTE, recv.data(), static_cast<int>(each), MPI_BYTE,
                     comm) != MPI_SUCCESS) {
      least = 0;
      break;
    }
    if (i > 0) least = std::min(least, MPI_Wtime() - t0);
  }
  double ms = least * 1e3;
  return MPI_Allreduce(MPI_IN_PLACE, &ms, 1, MPI_DOUBLE, MPI_MAX, comm) == MPI_SUCCESS ? ms : 0;
}

// Collective: the price, in ms, of the real FFTW MPI computing `layout` on
// n_pes ranks of `threads` each: its serial transform at that count
// shared among the ranks (rank 0's model), and each of its exchanges at
// the floor an MPI all-to-all between the ranks reads now
// (alltoall_floor_ms). Both parts low, never high: the model's serial
// price leaves out what running across processes adds, and a bare
// all-to-all is the least an exchange costs. So only a far-slower or
// past-the-limit verdict is drawn from it (time_real_side), and where the
// exchange's fixed costs are the whole time (small transforms on several
// ranks) it is not priced as if the ranks shared one memory. Negative
// where the model has none.
template <class R>
double real_side_model_ms(const Layout &layout, gpufftw_foreign_kind kind, int me, int n_pes, int threads,
                          MPI_Comm comm) {
  const double serial_ms = from_rank_0(me, comm, [&] {
    const std::vector<long> n = whole_sizes(layout);
    const double s = gpufftw_foreign_cpu_seconds(Serial<R>::precision, kind, static_cast<int>(n.size()), n.data(),
                                                 static_cast<long>(layout.howmany), threads);
    return s > 0 ? s * 1e3 / n_pes : -1;
  });
  if (serial_ms < 0) return serial_ms;
  const size_t each = alltoall_bytes_each(layout, n_pes, sizeof(typename Serial<R>::C), kAlltoallCap);
  return serial_ms + exchange_count(layout, n_pes) * alltoall_floor_ms(each, n_pes, comm);
}

// Collective: the seconds the program's time limit leaves this plan, the
// least any rank has left (HUGE_VAL under no limit; 0 where MPI failed, so
// that nothing more is timed). Each rank's clock started at its own call
// and ran on through its own part, so a branch taken on its deadline alone
// could part the ranks: some planning and timing the real FFTW MPI's plan,
// collectives, while the others return.
double left_on_every_rank(const Deadline &deadline, MPI_Comm comm) {
  double left = deadline.left();
  return MPI_Allreduce(MPI_IN_PLACE, &left, 1, MPI_DOUBLE, MPI_MIN, comm) == MPI_SUCCESS ? left : 0;
}

// The real FFTW MPI's side timed against the composed plan (`mine` ms), by
// FFTW_MEASURE's steps as the serial planner takes them
// (dispatch/measure_steps.h). Each hand is collective and answers alike on
// every rank (rank 0's price, the ranks' slowest readings, the least time
// any rank has left), so every rank takes the same steps. The model's low
// price of the real FFTW MPI is weighed against the composed plan's
// reading: where sure to be slower (judge, as dispatch leaves a sure
// verdict of the model untimed: the real FFTW MPI's FFTW_ESTIMATE plan
// runs several times slower than its measured one at these sizes, so its
// one run alone can outlast the program's whole time limit), or its one
// run alone past the program's time limit, it is not run at all. Else its
// FFTW_ESTIMATE plan, one run, first (a plan some rank lacks reads as
// never ending: past FFTW_MEASURE's cut); only where that does not lose
// by the cut, and the limit is not yet passed, its plan with the
// program's flags, within what is left of the limit. The fastest is kept:
// nullptr for the composed plan, else the real plan to return. `measured`
// gets the readings for the why; the choice is stored unless the limit
// cut the timing short.
template <class R>
void *time_real_side(const char *entry, const std::string &key, const Layout &layout, gpufftw_foreign_kind kind,
                     int me, int n_pes, MPI_Comm comm, unsigned flags, const RealSide &real, const Deadline &deadline,
                     double mine, std::string *measured) {
  const double priced = real_side_model_ms<R>(layout, kind, me, n_pes, Serial<R>::planner_nthreads(), comm);
  const std::string why = "FFTW_MEASURE under GPUFFTW_MPI_PATH=auto: faster than the composed plan";
  void *quick = nullptr, *rival = nullptr;
  double quick_ms = HUGE_VAL, theirs = HUGE_VAL, left = 0;
  // In ms, as the readings are; `left` keeps the seconds for the real
  // FFTW MPI's planner.
  RealSideHands hands;
  hands.left = [&] { return (left = left_on_every_rank(deadline, comm)) * 1e3; };
  hands.estimated = [&](double) -> std::optional<double> {
    const unsigned estimate_flags =
        (flags & ~unsigned{FFTW_PATIENT | FFTW_EXHAUSTIVE | FFTW_WISDOM_ONLY}) | FFTW_ESTIMATE;
    left = left_on_every_rank(deadline, comm);
    quick = real.plan(estimate_flags, Deadline::in_fftw_form(left), why + " (its FFTW_ESTIMATE plan)");
    if (on_all_ranks<R>(quick, comm)) {
      void *raw = gpufftw_foreign_plan_real(quick, real.ops);
      quick_ms = collective_ms(comm, [&real, raw] { real.ops->execute(raw); }, 1);
      if (quick_ms < 0) quick_ms = HUGE_VAL;
    }
    return quick_ms;
  };
  hands.measured = [&]() -> std::optional<double> {
    if (me == 0 && quick_ms > kSayAbove_ms)
      GPUFFTW_LOG(Warn, "%s: timing the real FFTW MPI's FFTW_MEASURE plan against gpufftw's composed plan (%s) "
                  "for up to %s; the faster is kept for later runs", entry, ms_text(mine).c_str(),
                  deadline.bound_text("what the real FFTW MPI's own measuring takes (minutes at large sizes)").c_str());
    rival = real.plan(flags, Deadline::in_fftw_form(left), why);
    if (on_all_ranks<R>(rival, comm)) {
      void *raw = gpufftw_foreign_plan_real(rival, real.ops);
      theirs = collective_ms(comm, [&real, raw] { real.ops->execute(raw); }, 2);
      if (theirs < 0) theirs = HUGE_VAL;
    }
    // A plan some rank lacks reads as never ending: the faster of the
    // others is kept, and stored.
    return theirs;
  };
  const MeasureSteps steps = measure_steps(mine, priced, measure_cut(layout), hands);
  if (steps.end == MeasureEnd::Untimed) {
    *measured = "; measured: composed " + ms_text(mine) + "; the model prices the real FFTW MPI at " +
                ms_text(priced) +
                (steps.store ? ", sure to be slower: not timed" : ", past the time limit: not timed");
    if (me == 0 && steps.store) gpufftw_foreign_remember(key.c_str(), 1, mine, priced);
    return nullptr;
  }
  *measured = "; measured: composed " + ms_text(mine) + ", the real FFTW MPI's FFTW_ESTIMATE plan " +
              (quick ? ms_text(quick_ms) : std::string("none"));
  if (steps.end == MeasureEnd::Cut)
    *measured += " (past FFTW_MEASURE's cut: its measured plan not made)";
  else if (steps.end == MeasureEnd::LimitPassed)
    *measured += "; the time limit passed: its measured plan not made";
  else if (rival)
    *measured += ", its FFTW_MEASURE plan " + ms_text(theirs);
  if (me == 0 && steps.store)
    gpufftw_foreign_remember(key.c_str(), steps.kept == Kept::Ours, mine, std::min(quick_ms, theirs));
  if (!steps.store) *measured += " (kept for this plan only)";
  void *kept = steps.kept == Kept::Measured ? rival : steps.kept == Kept::Estimated ? quick : nullptr;
  for (void *p : {quick, rival})
    if (p && p != kept) Serial<R>::destroy(static_cast<typename Serial<R>::Plan>(p));
  return kept;
}

// Said once a process, at info, for each thing the real FFTW MPI gets
// wrong (real_fftw_mpi_fails's texts, which are constants).
void say_once(const char *entry, const char *fails) {
  static std::mutex mutex;
  static std::set<const char *> said;
  std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(fails).second)
    GPUFFTW_LOG(Info, "%s: %s: such plans are composed on every path", entry, fails);
}

// The way to a composed plan of either kind; `planner` (plan_many_dft, ...)
// names the planner in the log, with the precision's prefix.
template <class R>
void *compose(const char *planner, gpufftw_foreign_kind kind, MakeLayout make, int rnk, const ptrdiff_t *n,
              ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, void *in, void *out, MPI_Comm comm, int sign,
              unsigned flags, const RealSide &real, Declined *declined) {
  const Deadline deadline(gpufftw_foreign_time_limit(Serial<R>::precision));
  // The plan being made on this thread, for gpufftw's planner too: the
  // serial plans the composed plan's steps make keep to what it leaves.
  const std::unique_ptr<void, void (*)(void *)> plan_deadline(gpufftw_foreign_plan_begin(deadline.fftw_limit()),
                                                              gpufftw_foreign_plan_end);
  // Where the plan's time goes, said at the debug level: a recalled plan's
  // is all building (CUDA, NCCL's communicator, the steps' plans).
  Laps stage;
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
  // Whether a c2r is in place, the same on every rank: a rank holding
  // nothing may pass its arrays otherwise than the others (one buffer for
  // both), and a branch taken on its own answer would part the ranks
  // before the collectives below. A rank out of place makes the plan out
  // of place, where the real FFTW MPI writes past its arrays.
  int in_place = in == out;
  if (kind == GPUFFTW_FOREIGN_C2R &&
      (rc = MPI_Allreduce(MPI_IN_PLACE, &in_place, 1, MPI_INT, MPI_MIN, comm)) != MPI_SUCCESS) {
    GPUFFTW_LOG(Warn, "%s: %s", entry, mpi_error("MPI_Allreduce", rc).c_str());
    return decline(mpi_error("MPI_Allreduce", rc));
  }
  // Vote 1: what every rank's setting and GPU allow, and from it which of
  // the two ways applies (ways.h): the composed plan always where the real
  // FFTW MPI would fail the layout (the same on every rank: it follows
  // from the arguments and the ranks' in-place answer).
  const char *const fails = real_fftw_mpi_fails(layout, in_place != 0);
  const bool required = fails != nullptr;
  if (required) say_once(entry, fails);
  // The composed c2r overwrites its input: FFTW_PRESERVE_INPUT is the real
  // FFTW MPI's, but where that computes the layout wrongly (the same on
  // every rank: it follows from the arguments and the ranks' in-place
  // vote), no plan is FFTW's own answer.
  if (kind == GPUFFTW_FOREIGN_C2R && (flags & FFTW_PRESERVE_INPUT)) {
    const std::string preserve = "FFTW_PRESERVE_INPUT, which the composed c2r cannot keep (it overwrites its input)";
    if (!required) {
      GPUFFTW_LOG(Debug, "%s: the real FFTW MPI: %s", entry, preserve.c_str());
      return decline(preserve);
    }
    GPUFFTW_LOG(Warn, "%s: no plan: %s, and %s", entry, fails, preserve.c_str());
    declined->refused = true;
    return decline(preserve);
  }
  const Path path = required ? Path::Composed : path_setting();
  // FFTW_WISDOM_ONLY weighs the two ways by the store's record of an
  // earlier timing alone: a plan comes back where that record or the real
  // FFTW MPI's wisdom has one, as FFTW's comes back where its wisdom has.
  const bool wisdom_only = (flags & FFTW_WISDOM_ONLY) != 0;
  const bool weighed = wisdom_only || !(flags & FFTW_ESTIMATE);
  int vote[4] = {path != Path::Real, path == Path::Composed, path == Path::Real ? 0 : gpu_here(), path == Path::Auto};
  if ((rc = MPI_Allreduce(MPI_IN_PLACE, vote, 4, MPI_INT, MPI_MIN, comm)) != MPI_SUCCESS) {
    GPUFFTW_LOG(Warn, "%s: %s", entry, mpi_error("MPI_Allreduce", rc).c_str());
    return decline(mpi_error("MPI_Allreduce", rc));
  }
  const Ways ways =
      mpi_ways(Vote{vote[0] != 0, vote[1] != 0, vote[2] != 0, vote[3] != 0}, required, weighed, real.plan != nullptr);
  // Vote 1b, where both ways apply: rank 0's store asked which won an
  // earlier weighing (a collective, which every rank makes alike, the
  // ways being drawn from the vote). From there the serial planner's
  // start (dispatch/sides.h): a way alone made unweighed, a recalled
  // choice kept, FFTW_WISDOM_ONLY without one left to the real FFTW MPI's
  // wisdom, else the two timed.
  std::string key;
  Remembered earlier;
  bool recall_failed = false;
  const SidesStart start = sides_start(ways.composed.applies(), ways.real.applies(), wisdom_only, [&] {
    key = choice_key(planner, Serial<R>::precision, layout, n_pes, Serial<R>::planner_nthreads(), iblock, oblock,
                     flags, sign, in, out);
    recall_failed = !recall(key, comm, &earlier, &why);
    return earlier.found;
  });
  if (recall_failed) {
    GPUFFTW_LOG(Warn, "%s: %s", entry, why.c_str());
    return decline(why);
  }
  std::string measured;
  switch (start) {
    case SidesStart::Theirs:
      GPUFFTW_LOG(Debug, "%s: the real FFTW MPI (%s)", entry, ways.composed.why_not.c_str());
      return decline(ways.composed.why_not);
    case SidesStart::Ours:
      GPUFFTW_LOG(Debug, "%s: the composed plan, unweighed (%s)", entry, ways.real.why_not.c_str());
      break;
    case SidesStart::Recalled:
      measured = "; measured earlier: composed " + ms_text(earlier.composed_ms) + ", the real FFTW MPI " +
                 ms_text(earlier.real_ms);
      if (!earlier.composed) {
        GPUFFTW_LOG(Info, "%s: the real FFTW MPI (%s)", entry, measured.substr(2).c_str());
        return decline(measured.substr(2));
      }
      break;
    case SidesStart::TheirWisdom: {
      const std::string none = "FFTW_WISDOM_ONLY, no choice stored: the real FFTW MPI's wisdom decides";
      GPUFFTW_LOG(Debug, "%s: %s", entry, none.c_str());
      return decline(none);
    }
    case SidesStart::Weigh:
      break;
  }
  const bool timed = start == SidesStart::Weigh;
  stage("the layout and the store");
  Gpu gpu;
  const bool picked = pick_gpu(comm, &gpu, &why);
  stage("the GPU picked");
  // Vote 2: every rank built its part, on the device-resident route where
  // every rank can (every rank calls the collective steps alike), else on
  // the host route.
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
  stage("built");
  int built = plan != nullptr;
  if ((rc = MPI_Allreduce(MPI_IN_PLACE, &built, 1, MPI_INT, MPI_MIN, comm)) != MPI_SUCCESS) {
    GPUFFTW_LOG(Warn, "%s: %s", entry, mpi_error("MPI_Allreduce", rc).c_str());
    return decline(mpi_error("MPI_Allreduce", rc));
  }
  if (!built) {
    // Where the real FFTW MPI would be wrong, no plan is FFTW's own answer.
    const char *whose = plan ? "another rank could not build its part" : why.c_str();
    if (required)
      GPUFFTW_LOG(Warn, "%s: no plan: %s, and the composed path could not build it (rank %d: %s)", entry, fails, me,
                  whose);
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
    const double mine = collective_ms(comm, [&plan] { plan->execute(); }, 2);
    if (void *rival =
            time_real_side<R>(entry, key, layout, kind, me, n_pes, comm, flags, real, deadline, mine, &measured)) {
      GPUFFTW_LOG(Info, "%s: the real FFTW MPI (%s)", entry, measured.substr(2).c_str());
      return rival;
    }
  }
  if (timed) stage("timed");
  plan->note(measured);
  GPUFFTW_LOG(Info, "%s, rank %d: %s on %s", entry, me, plan->why(), plan->where());
  GPUFFTW_LOG(Debug, "%s, rank %d: planned in %s: %s", entry, me, ms_text(1e3 * deadline.spent()).c_str(),
              stage.text().c_str());
  long dims[8];
  const int r = rnk > 8 ? 8 : rnk;
  for (int i = 0; i < r; ++i) dims[i] = static_cast<long>(n[i]);
  return gpufftw_foreign_plan(ops<R>(), plan.release(), Serial<R>::precision, kind, r, dims,
                              static_cast<long>(howmany), sign, in, out, deadline.spent() * 1e3);
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
