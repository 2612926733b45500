// The planner: the solvers of a table asked in order of preference, in
// the shape of FFTW's (each solver says whether it takes the problem, and
// the first that makes a job wins; one whose make fails with a Final
// reason ends the search). Plain C++ with no CUDA: the table and
// what comes before a job on one GPU are handed in (engine/plan/create.cc
// hands the engine's), so that builds without a GPU test the search.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

class Planner {
 public:
  // `ready_one_gpu` runs before the one-GPU solvers are asked; false (with
  // why) where no job may be made on the current GPU.
  Planner(std::vector<Solver> table, std::function<bool(std::string *)> ready_one_gpu);

  // The job on the current GPU alone, as on a machine of one: the first
  // one-GPU solver that takes g and makes a job. nullptr with the why of
  // the last that failed (or of those that did not take it).
  std::unique_ptr<FftJob> one_gpu(const Geometry &g, const std::vector<int> &set, std::string *why) const;

  // The job g.spread asks for over `set`, its placement written: Auto,
  // the first spreading solver that makes a job, else one_gpu(); One,
  // one_gpu(); Set, a spreading solver's job or nullptr. `gpu`: the
  // current GPU, where one-GPU jobs run.
  std::unique_ptr<FftJob> make(const Geometry &g, const std::vector<int> &set, int gpu, std::string *why) const;

 private:
  std::unique_ptr<FftJob> search(const Geometry &g, const std::vector<int> &set, bool spreads,
                                 std::string *why) const;

  std::vector<Solver> table_;
  std::function<bool(std::string *)> ready_one_gpu_;
};

}  // namespace gpufftw::engine
