// The engine's solvers, each with its price: the only place that knows
// them all. A new way to run a geometry is a folder of its own under
// engine/ and a line in table.cc.
#pragma once

#include <vector>

#include "engine/solver/solver.h"

namespace gpufftw::engine {

std::vector<Solver> solver_table();

}  // namespace gpufftw::engine
