#include "engine/multi/split_shapes.h"

#include <algorithm>

#include "engine/multi/line_layout.h"
#include "engine/multi/partition.h"
#include "engine/staging/side.h"

namespace gpufftw::engine {
namespace {

// Whether the set has GPUs to split over; else why not, in the same words
// for every shape, so that the planner says them once.
bool several(const std::vector<int> &set, Reason *why_not) {
  return set.size() >= 2 || decline(why_not, Reason::Code::NotItsKind, "one GPU in the set");
}

// Each GPU's share of a batch is a half job of its own. The slabs carry
// halves over the links and compute in single precision between
// (Geometry's SingleOnHalves), as the one-GPU way does; the 1-D split
// stages floats.
bool slabs_precision(const Geometry &g, Reason *why_not) {
  return !g.half || g.half_way == HalfWay::SingleOnHalves ||
         decline(why_not, Reason::Code::NotItsKind, "slabs in half: single precision on halves only");
}

bool line_precision(const Geometry &g, Reason *why_not) {
  return !g.half || decline(why_not, Reason::Code::NotItsKind, "1-D in half: its split stages floats");
}

// Takes the geometry where `why` is empty; else declines with `shape`'s
// name before `why`.
bool judged(const char *shape, const std::string &why, Reason *why_not) {
  return why.empty() || decline(why_not, Reason::Code::NotItsKind, std::string(shape) + ": " + why);
}

std::string under(size_t bytes) { return "under " + std::to_string(bytes >> 20) + " MiB"; }

std::string not_a_batch_split(const Geometry &h) {
  if (h.loops.empty()) return "no loop";
  if (array_bytes(h) < kSplitMinBytes) return under(kSplitMinBytes);
  // Each share's bytes apart from the others', on both sides and between
  // them where in place.
  const size_t loop = split_loop(h);
  Geometry one = h;
  one.loops[loop].n = 1;
  const Side in1 = make_side(one, false), out1 = make_side(one, true);
  if (!shares_apart(h.loops[loop].is, in1.min_offset(), in1.max_offset()) ||
      !shares_apart(h.loops[loop].os, out1.min_offset(), out1.max_offset()))
    return "the loop's iterations interleave in memory";
  if (h.in_place && h.loops[loop].is * static_cast<long long>(in1.elem) !=
                        h.loops[loop].os * static_cast<long long>(out1.elem))
    return "in place with different input and output loop strides";
  return "";
}

std::string not_slabs(const Geometry &h) {
  const size_t rank = h.dims.size();
  if (!h.loops.empty()) return "a batch";
  if (rank < 2 || rank > 3) return "rank " + std::to_string(rank);
  if (h.type == Type::C2R || h.type == Type::R2R || (h.type == Type::R2C && h.in_place))
    return "c2c and out-of-place r2c only";
  if (h.split_in || h.split_out) return "split arrays";
  const Side in = make_side(h, false), out = make_side(h, true);
  if (!in.dense() || !out.dense()) return "not dense row-major";
  if (array_bytes(h) < kSingleSplitMinBytes) return under(kSingleSplitMinBytes);
  if (h.dims[0].n < 2 || out.n[1] < 2) return "dims 0 and 1 need 2 or more";
  return "";
}

std::string not_a_line_split(const Geometry &h, size_t gpus) {
  if (!h.loops.empty()) return "a batch";
  if (h.dims.size() != 1) return "rank " + std::to_string(h.dims.size());
  if (h.type != Type::C2C) return "c2c only";
  if (h.split_in || h.split_out) return "split arrays";
  if (h.dims[0].is != 1 || h.dims[0].os != 1) return "not unit stride";
  if (array_bytes(h) < kSingleSplitMinBytes) return under(kSingleSplitMinBytes);
  if (!line_split(h.dims[0].n, static_cast<int>(gpus)))
    return std::to_string(h.dims[0].n) + " has no factors both " + std::to_string(gpus) + " or more";
  return "";
}

// One GPU's share of the output side, pulled from the others: the
// exchange of a transform split between its passes.
double exchanged(const Geometry &g, size_t gpus) {
  const double n = static_cast<double>(gpus);
  return side_bytes(g, true) / n * (n - 1) / n;
}

}  // namespace

Geometry without_unit_loops(const Geometry &g) {
  Geometry h = g;
  h.loops.erase(std::remove_if(h.loops.begin(), h.loops.end(), [](const Axis &a) { return a.n == 1; }),
                h.loops.end());
  return h;
}

size_t split_loop(const Geometry &g) {
  size_t loop = 0;
  for (size_t i = 1; i < g.loops.size(); ++i)
    if (g.loops[i].n > g.loops[loop].n) loop = i;
  return loop;
}

bool batch_split_suits(const Geometry &g, const std::vector<int> &set, Reason *why_not) {
  return several(set, why_not) && judged("batch", not_a_batch_split(without_unit_loops(g)), why_not);
}

bool slab_split_suits(const Geometry &g, const std::vector<int> &set, Reason *why_not) {
  return several(set, why_not) && judged("slabs", not_slabs(without_unit_loops(g)), why_not) &&
         slabs_precision(g, why_not);
}

bool line_split_suits(const Geometry &g, const std::vector<int> &set, Reason *why_not) {
  return several(set, why_not) && judged("1-D", not_a_line_split(without_unit_loops(g), set.size()), why_not) &&
         line_precision(g, why_not);
}

Price batch_split_cost(const Geometry &g, const std::vector<int> &set) {
  const double share = array_bytes(g) / static_cast<double>(set.size());
  return {share, share, 0};
}

Price slab_split_cost(const Geometry &g, const std::vector<int> &set) {
  const double share = array_bytes(g) / static_cast<double>(set.size());
  return {share, 2 * share, exchanged(g, set.size())};
}

Price line_split_cost(const Geometry &g, const std::vector<int> &set) {
  const double share = array_bytes(g) / static_cast<double>(set.size());
  return {share, 3 * share, exchanged(g, set.size())};
}

}  // namespace gpufftw::engine
