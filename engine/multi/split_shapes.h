// The three shapes of a split over the device set, each a solver of the
// engine's table (split_job.h): whether it takes a geometry and what it
// would cost there. Plain C++ with no CUDA, so that builds without a GPU
// test them and the planner's choice among them
// (tests/engine/split_solvers_test.cc); their makes are batch_split.cc's,
// slab_split.cc's and line_split.cc's.
//
// No geometry suits two of them: the batch split takes a loop, the slabs
// one 2-D or 3-D transform, the 1-D split one 1-D transform. Their prices
// still rank them as the bytes they move do, a batch's share below a
// slab's below a line's of the same size, so that a shape widened to
// another's geometries is chosen after it as long as it costs more there.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

// Bytes below which a problem stays on one GPU: splitting costs a thread
// start and a second device's synchronisation, tens of microseconds.
constexpr size_t kSplitMinBytes = size_t{8} << 20;
// The same for one transform split between its passes (slabs, the 1-D
// split): the GPUs wait for each other in the middle, and each pass' copies
// must be long enough to hide its FFTs.
constexpr size_t kSingleSplitMinBytes = size_t{32} << 20;

// g without its loops of one iteration (plan_many's howmany = 1): they
// move nothing, and leave a single transform single. Every shape judges,
// prices and makes this geometry.
Geometry without_unit_loops(const Geometry &g);

// The loop the batch split shares out: the one of most iterations.
size_t split_loop(const Geometry &g);

// A batch cut into one share of its largest loop per GPU, each share a
// one-GPU job of its own (a half job in half precision): each GPU's share
// over its own link and through one pass.
bool batch_split_suits(const Geometry &g, const std::vector<int> &set, Reason *why_not);
Price batch_split_cost(const Geometry &g, const std::vector<int> &set);

// One dense 2-D/3-D c2c, or out-of-place r2c, in slabs of dim 0: each
// GPU's share in, its first pass, its share of the output side pulled
// from the others over the peer links, its second pass, its share out.
bool slab_split_suits(const Geometry &g, const std::vector<int> &set, Reason *why_not);
Price slab_split_cost(const Geometry &g, const std::vector<int> &set);

// One long 1-D c2c by the four-step method (line_layout.h): as the slabs,
// with a third pass of twiddles and transposes.
bool line_split_suits(const Geometry &g, const std::vector<int> &set, Reason *why_not);
Price line_split_cost(const Geometry &g, const std::vector<int> &set);

}  // namespace gpufftw::engine
