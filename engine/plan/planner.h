// The planner, in the shape of FFTW's (kernel/planner.c): every solver of
// a table says whether it takes the problem (else a typed reason), those
// that do are priced (Solver::cost, read by the machine's rates), and the
// cheapest is made, or the one Geometry::solver names; where its make
// fails, the next cheapest, unless it failed with a Final reason, which
// ends the search. What it would make a job with, priced, it offers
// (offers()) to a caller that weighs the solvers itself. Plain C++ with no
// CUDA: the table, what comes before a job on one GPU and the rates are
// handed in (engine/plan/create.cc hands the engine's), so that builds
// without a GPU test the search.
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
  // why) where no job may be made on the current GPU. `rates`, asked at
  // each search, gives the rates the solvers' prices are read by.
  Planner(std::vector<Solver> table, std::function<bool(std::string *)> ready_one_gpu,
          std::function<Rates()> rates);

  // The job on the current GPU alone, as on a machine of one: the
  // cheapest one-GPU solver that takes g and makes a job. nullptr with why
  // those that took it made none (or why none took it).
  std::unique_ptr<FftJob> one_gpu(const Geometry &g, const std::vector<int> &set, std::string *why) const;

  // The job g.spread asks for over `set`, its placement written: Auto,
  // the cheapest spreading solver that makes a job, else one_gpu(); One,
  // one_gpu(); Set, a spreading solver's job or nullptr. `gpu`: the
  // current GPU, where one-GPU jobs run.
  std::unique_ptr<FftJob> make(const Geometry &g, const std::vector<int> &set, int gpu, std::string *why) const;

  // The solvers make() would ask of g over `set`, each priced, cheapest
  // first: at One the one-GPU solvers, at Set the spreading ones, at Auto
  // the spreading ones where one takes g, else the one-GPU ones.
  std::vector<Offer> offers(const Geometry &g, const std::vector<int> &set) const;

 private:
  struct Priced {
    const Solver *solver;
    double seconds;
  };
  // The solvers of one search (`spreads`: those that spread, else the
  // one-GPU ones) that take g, priced at the rates now, cheapest first,
  // equal prices in the table's order; each that does not, and why, in
  // `declined`.
  std::vector<Priced> takers(const Geometry &g, const std::vector<int> &set, bool spreads,
                             std::vector<Declined> *declined) const;
  std::unique_ptr<FftJob> search(const Geometry &g, const std::vector<int> &set, bool spreads,
                                 std::string *why) const;

  std::vector<Solver> table_;
  std::function<bool(std::string *)> ready_one_gpu_;
  std::function<Rates()> rates_;
};

}  // namespace gpufftw::engine
