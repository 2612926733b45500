// What a solver's job would cost on a geometry (Solver::cost), estimated
// before anything is planned or allocated, from what it moves: the bytes
// it copies over the host link and the bytes its passes read and write in
// device memory. Every job is priced for host arrays: those cross the link
// for every solver, and the link is what orders them. The rates are
// nominal, not measured (a PCIe 4.0 x16 link's 32 GB/s each way, less its
// protocol's share; an HBM device's memory): only their ratio orders the
// solvers, and a byte over the link costs that many bytes of device passes.
#pragma once

#include "engine/engine.h"

namespace gpufftw::engine {

constexpr double kLinkBytesPerSecond = 25e9;
constexpr double kDeviceBytesPerSecond = 2e12;

struct Price {
  double link_bytes = 0;    // over the host link, in and out together
  double device_bytes = 0;  // read plus written by its passes on the device
  double seconds() const { return link_bytes / kLinkBytesPerSecond + device_bytes / kDeviceBytesPerSecond; }
};

// Bytes of g's input and output: every element the transform reads (or
// writes), loops included, times its size (a complex number's two reals,
// whether interleaved or split). What one copy of the arrays moves.
inline double array_bytes(const Geometry &g) {
  const double real_size = g.real == Real::F32 ? 4 : 8;
  double points = 1, complex_points = 1;  // the real side's, the complex side's
  for (const Axis &a : g.loops) points *= static_cast<double>(a.n), complex_points *= static_cast<double>(a.n);
  for (size_t i = 0; i < g.dims.size(); ++i) {
    const double n = static_cast<double>(g.dims[i].n);
    points *= n;
    const bool halved = (g.type == Type::R2C || g.type == Type::C2R) && i + 1 == g.dims.size();
    complex_points *= halved ? static_cast<double>(g.dims[i].n / 2 + 1) : n;
  }
  switch (g.type) {
    case Type::C2C: return 2 * 2 * real_size * points;
    case Type::R2C:
    case Type::C2R: return real_size * points + 2 * real_size * complex_points;
    case Type::R2R: break;
  }
  return 2 * real_size * points;
}

}  // namespace gpufftw::engine
