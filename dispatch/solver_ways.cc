#include "dispatch/solver_ways.h"

#include <algorithm>

namespace gpufftw {

bool asks_every_plan(const Problem &p) { return p.flags & (FFTW_PATIENT | FFTW_EXHAUSTIVE); }

std::vector<Candidate> solver_ways(const Planner &pl, const Problem &p, const std::vector<Candidate> &ways) {
  std::vector<Candidate> out;
  for (const Candidate &c : ways) {
    std::vector<SolverOffer> offers;
    if (c.gpu && c.applies() && c.way == Fp16Way::Single && c.solver.empty()) offers = pl.gpu->offers(p, c.spread);
    if (!asks_every_plan(p))
      offers.erase(std::remove_if(offers.begin(), offers.end(), [](const SolverOffer &o) { return o.fallback; }),
                   offers.end());
    if (offers.size() < 2) {
      out.push_back(c);
      continue;
    }
    const double cheapest =
        std::min_element(offers.begin(), offers.end(), [](const SolverOffer &a, const SolverOffer &b) {
          return a.seconds < b.seconds;
        })->seconds;
    for (const SolverOffer &o : offers) {
      Candidate s = c;
      s.solver = o.solver;
      s.price = c.price ? *c.price * (cheapest > 0 ? o.seconds / cheapest : 1) : o.seconds;
      out.push_back(s);
    }
  }
  return out;
}

bool has_solver_ways(const std::vector<Candidate> &ways) {
  return std::any_of(ways.begin(), ways.end(), [](const Candidate &c) { return !c.solver.empty(); });
}

std::string way_label(const Candidate &c, bool half) {
  if (c.solver.empty()) return way_name(c.way);
  return half ? std::string(way_name(c.way)) + " (" + c.solver + ")" : c.solver;
}

std::string way_variant(const Candidate &c) {
  std::string variant = way_tag(c.way);
  if (c.solver.empty()) return variant;
  variant += ":" + c.solver;
  std::replace(variant.begin(), variant.end(), ' ', '_');
  return variant;
}

}  // namespace gpufftw
