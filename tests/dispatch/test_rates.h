// What the dispatch tests build their problems and the model's tables
// from: a c2c f32 problem of a shape, and tables of a GPU and a CPU of
// known speeds.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "dispatch/cost_model.h"

namespace gpufftw {

inline Problem c2c_f32(std::vector<int64_t> n, int64_t batch = 1) {
  Problem p;
  p.kind = Kind::C2C;
  p.precision = Precision::F32;
  int64_t stride = 1;
  p.dims.resize(n.size());
  for (size_t i = n.size(); i-- > 0;) {
    p.dims[i] = {n[i], stride, stride};
    stride *= n[i];
  }
  if (batch > 1) p.howmany.push_back({batch, stride, stride});
  return p;
}

// A GPU 30 µs away with 40 GB/s pinned (60 µs and 10 GB/s pageable),
// the engine's rates each unlike its nominal one; a CPU at `ns` per point
// and log2 n everywhere.
inline GpuRates gpu_rates() {
  GpuRates g;
  g.link_rate = 40e9;
  g.device_rate = 3e12;
  g.peer_rate = 150e9;
  for (int pinned = 0; pinned < 2; ++pinned)
    for (int batched = 0; batched < 2; ++batched)
      for (int k = 0; k < GpuRates::kSizes; ++k) {
        const double points = std::exp2(GpuRates::kLog2[k]);
        // One transform moves its 8 bytes a point in, then out; a batch overlaps them.
        const double bytes = (batched ? 8 : 16) * points;
        g.seconds[pinned][batched][k] = (pinned ? 30e-6 : 60e-6) + bytes / (pinned ? 40e9 : 10e9);
      }
  return g;
}

inline CpuRates cpu_rates(double ns = 0.5) {
  CpuRates c;
  for (int i = 0; i < CpuRates::kSizes; ++i) {
    const int log_n = CpuRates::kLog2[i];
    // r2c at 0.75 of the c2c of as many points: between the half-size
    // c2c price and the c2c's.
    for (CpuRates::OneD *table : {&c.one_d, &c.one_d_r2c}) {
      const double f = table == &c.one_d ? 1.0 : 0.75;
      (*table)[i][0] = f * ns * 1e-9 * std::exp2(log_n) * log_n;
      for (size_t j = 0; j < CpuRates::kTotals.size(); ++j)
        if (CpuRates::kTotals[j] > log_n) (*table)[i][1 + j] = f * ns * 1e-9 * std::exp2(CpuRates::kTotals[j]) * log_n;
    }
  }
  for (int i = 0; i < CpuRates::kMultiSizes; ++i)
    for (CpuRates::MultiD *table : {&c.multi_d, &c.multi_d_r2c}) {
      const double f = table == &c.multi_d ? 1.0 : 0.75;
      (*table)[0][i] = f * ns * 1e-9 * std::exp2(CpuRates::kLog2Rank2[i]) * CpuRates::kLog2Rank2[i];
      (*table)[1][i] = f * ns * 1e-9 * std::exp2(CpuRates::kLog2Rank3[i]) * CpuRates::kLog2Rank3[i];
    }
  return c;
}

}  // namespace gpufftw
