// One way the engine can run a geometry, in the shape of an FFTW solver:
// a name, whether it takes the geometry, and the job it makes. The
// planner (engine/plan/) holds the table of them in order of preference
// and asks each in turn; a solver knows nothing of the others, and reaches
// them only through what the planner hands its make.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace gpufftw::engine {

// The planner on one GPU, the current one.
using OneGpuPlanner = std::function<std::unique_ptr<FftJob>(const Geometry &, std::string *)>;

// A solver that did not take the geometry, and why.
struct Declined {
  std::string solver, why;
};

// What a solver's make gets from the planner besides the geometry.
struct Ask {
  // The device set; one-GPU jobs run on its first GPU.
  std::vector<int> set;
  // The solvers asked before this one that did not take the geometry.
  std::vector<Declined> before;
  // What a job spread over the set runs on each GPU of it. Valid as long
  // as the process.
  OneGpuPlanner one_gpu;

  // Why `solver` did not take the geometry; empty where it was not asked
  // before this one.
  std::string why_not(const std::string &solver) const {
    for (const Declined &d : before)
      if (d.solver == solver) return d.why;
    return "";
  }
};

struct Solver {
  const char *name;
  // Whether its jobs spread over the device set (else they run on one GPU).
  bool spreads;
  // Whether, where it takes the geometry, the planner asks no solver after
  // it, its make's answer being final.
  bool last_where_it_suits;
  // Whether it takes the geometry on the device set; else why not. Cheap:
  // it plans nothing and allocates nothing.
  bool (*suits)(const Geometry &g, const std::vector<int> &set, std::string *why_not);
  // The job; nullptr (with `why`) where it cannot make one after all
  // (cuFFT cannot plan it, it needs more than the device memory cap, ...).
  std::unique_ptr<FftJob> (*make)(const Geometry &g, const Ask &ask, std::string *why);
};

}  // namespace gpufftw::engine
