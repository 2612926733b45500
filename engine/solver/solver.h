// One way the engine can run a geometry, in the shape of an FFTW solver:
// a name, whether it takes the geometry (else a Reason: why not, typed),
// what its job would cost there (price.h), and the job it makes. The
// planner (engine/plan/) holds the table of them, prices every one that
// takes a geometry, offers them so priced (engine.h's offers) and makes
// the cheapest, or the one the geometry names; a solver knows nothing of
// the others, and reaches them only through what the planner hands its
// make.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "engine/solver/price.h"

namespace gpufftw::engine {

// What of a geometry a solver answers beyond the transform itself:
// Geometry::half, or our own kernels in place of cuFFT.
enum class Gives { Transform, Half, OwnKernels };

// The planner on one GPU, the current one.
using OneGpuPlanner = std::function<std::unique_ptr<FftJob>(const Geometry &, std::string *)>;

// Why a solver did not take a geometry, or took it and made no job: a code
// that the planner and the solvers asked after it branch on, and its words
// for the job's path and the log.
struct Reason {
  enum class Code {
    NotItsKind,  // not a geometry it takes: type, rank, layout, size, the device set
    NotAsked,    // the geometry does not ask for what it gives (half precision; our
                 // kernels where nothing measured them and FFTW_ESTIMATE measures nothing,
                 // or the program's time limit has passed)
    Slower,      // a measurement, recalled or made now, kept another way (cuFFT)
    NoJob,       // it took the geometry and made no job: cuFFT could not plan it, a
                 // CUDA call failed, the job passes the device memory cap
    Final,       // likewise, and no solver after it can make one: the search ends
  };
  Code code = Code::NoJob;
  std::string text;
};

// Sets *why to `code` and `text`; false, for a suits that declines.
inline bool decline(Reason *why, Reason::Code code, std::string text) {
  *why = {code, std::move(text)};
  return false;
}

struct Solver;

// A solver that did not take the geometry, or took it and made no job,
// and why.
struct Declined {
  const Solver *solver;
  Reason why;
};

// What a solver's make gets from the planner besides the geometry.
struct Ask {
  // The device set; one-GPU jobs run on its first GPU.
  std::vector<int> set;
  // Every solver that did not take the geometry, and those that took it
  // and made no job before this one was asked.
  std::vector<Declined> before;
  // What a job spread over the set runs on each GPU of it. Valid as long
  // as the process.
  OneGpuPlanner one_gpu;

  // Why the solver that gives `what` (Half, OwnKernels) did not take the
  // geometry or made no job; nullptr where it took it and was not made yet.
  inline const Reason *declined(Gives what) const;
};

struct Solver {
  const char *name;
  // Whether its jobs spread over the device set (else they run on one GPU).
  bool spreads;
  // What of the geometry it answers beyond the transform, which the
  // solvers after it name where they run the geometry without it.
  Gives gives;
  // Whether it takes the geometry on the device set; else why not. Cheap:
  // it plans nothing and allocates nothing. A preference that is no cost
  // (half precision only where asked, our kernels only where tuning found
  // them faster) is said here, as NotAsked or Slower.
  bool (*suits)(const Geometry &g, const std::vector<int> &set, Reason *why_not);
  // What its job would cost on the geometry, where it suits: as cheap to
  // ask as suits.
  Price (*cost)(const Geometry &g, const std::vector<int> &set);
  // The job; nullptr (with `why`) where it cannot make one after all
  // (cuFFT cannot plan it, it needs more than the device memory cap, ...).
  std::unique_ptr<FftJob> (*make)(const Geometry &g, const Ask &ask, Reason *why);
  // Whether it is there for when the cheaper solvers make no job (the
  // within-cap out-of-core paths): priced dearer, it runs only where they
  // fail, so a caller that times solvers against each other leaves it out
  // unless asked for every solver, as FFTW's FFTW_MEASURE leaves out the
  // plans it calls ugly and FFTW_PATIENT tries them.
  bool fallback = false;
};

const Reason *Ask::declined(Gives what) const {
  for (const Declined &d : before)
    if (d.solver->gives == what) return &d.why;
  return nullptr;
}

}  // namespace gpufftw::engine
