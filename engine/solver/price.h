// What a solver's job would cost on a geometry (Solver::cost), estimated
// before anything is planned or allocated, from what it moves: the bytes
// it copies over the host link, the bytes its passes read and write in
// device memory, and, split over the device set, the bytes a GPU pulls
// from the others. Every job is priced for host arrays: those cross the
// link for every solver, and the link is what orders them. The bytes are
// turned into seconds by the machine's rates (engine.h's Rates): those its
// calibration measured, or nominal ones where none was, and only their
// ratios order the solvers. A split is priced for one GPU of the set, its
// links and passes running beside the others'.
#pragma once

#include "engine/engine.h"

namespace gpufftw::engine {

struct Price {
  double link_bytes = 0;    // over the host link, in and out together
  double device_bytes = 0;  // read plus written by its passes on the device
  double peer_bytes = 0;    // from the set's other GPUs, over their peer links
  double seconds(const Rates &r) const {
    return link_bytes / r.link + device_bytes / r.device + peer_bytes / r.peer;
  }
};

// Bytes of one side of g, its input or (`output`) its output: every
// element it holds, loops included, times its size (a complex number's
// two reals, whether interleaved or split).
inline double side_bytes(const Geometry &g, bool output) {
  const double real_size = g.real == Real::F32 ? 4 : 8;
  const bool complex = g.type == Type::C2C || (output ? g.type == Type::R2C : g.type == Type::C2R);
  double points = 1;
  for (const Axis &a : g.loops) points *= static_cast<double>(a.n);
  for (size_t i = 0; i < g.dims.size(); ++i) {
    // The complex side of an r2c or c2r holds n/2 + 1 of its last dim.
    const bool halved = complex && g.type != Type::C2C && i + 1 == g.dims.size();
    points *= static_cast<double>(halved ? g.dims[i].n / 2 + 1 : g.dims[i].n);
  }
  return (complex ? 2 : 1) * real_size * points;
}

// Bytes of g's input and output: what one copy of the arrays moves.
inline double array_bytes(const Geometry &g) { return side_bytes(g, false) + side_bytes(g, true); }

}  // namespace gpufftw::engine
