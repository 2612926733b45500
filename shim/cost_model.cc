#include "shim/cost_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace gpufftw {
namespace {

// Linear in log2 of the size, flat beyond the ends.
double interpolate(const std::array<int, CpuRates::kSizes> &x, const std::array<double, CpuRates::kSizes> &y,
                   double at) {
  if (at <= x.front()) return y.front();
  for (size_t i = 1; i < x.size(); ++i)
    if (at <= x[i]) return y[i - 1] + (y[i] - y[i - 1]) * (at - x[i - 1]) / (x[i] - x[i - 1]);
  return y.back();
}

double real_bytes(const Problem &p) { return p.precision == Precision::F32 ? 4.0 : 8.0; }

// Points of the complex side of an r2c/c2r transform.
double half_points(const Problem &p) {
  if (p.dims.empty()) return 1.0;
  const double n_last = static_cast<double>(p.dims.back().n);
  return static_cast<double>(p.transform_size()) / n_last * (std::floor(n_last / 2) + 1);
}

bool positive(double v) { return std::isfinite(v) && v > 0; }

}  // namespace

const std::array<int, CpuRates::kSizes> &cpu_sizes(int rank) {
  static constexpr std::array<int, CpuRates::kSizes> sizes[3] = {
      {4, 7, 10, 13, 16, 20}, {8, 10, 12, 14, 16, 20}, {6, 9, 12, 15, 18, 20}};
  return sizes[std::clamp(rank, 1, 3) - 1];
}

bool GpuRates::valid() const {
  for (int m = 0; m < 2; ++m)
    if (!positive(latency_s[m]) || !positive(single_bps[m]) || !positive(batch_bps[m])) return false;
  return true;
}

bool CpuRates::valid() const {
  if (threads < 1) return false;
  for (const auto &row : single_ns)
    for (double v : row)
      if (!positive(v)) return false;
  for (double v : batch_ns)
    if (!positive(v)) return false;
  return true;
}

double bytes_in(const Problem &p) {
  const double points = static_cast<double>(p.transform_size()) * static_cast<double>(p.batch());
  switch (p.kind) {
    case Kind::R2C: return points * real_bytes(p);
    case Kind::C2R: return half_points(p) * static_cast<double>(p.batch()) * 2 * real_bytes(p);
    case Kind::R2R: return points * real_bytes(p);
    case Kind::C2C: break;
  }
  return points * 2 * real_bytes(p);
}

double bytes_out(const Problem &p) {
  const double points = static_cast<double>(p.transform_size()) * static_cast<double>(p.batch());
  switch (p.kind) {
    case Kind::R2C: return half_points(p) * static_cast<double>(p.batch()) * 2 * real_bytes(p);
    case Kind::C2R: return points * real_bytes(p);
    case Kind::R2R: return points * real_bytes(p);
    case Kind::C2C: break;
  }
  return points * 2 * real_bytes(p);
}

double gpu_seconds(const Problem &p, bool pinned, const GpuRates &r) {
  const int m = pinned ? 1 : 0;
  const double in = bytes_in(p), out = bytes_out(p);
  // A single transform's output depends on all its input, so the copies in
  // and out cannot overlap; a batch's chunks can (DESIGN.md, the PCIe floor).
  if (p.batch() <= 1) return r.latency_s[m] + (in + out) / r.single_bps[m];
  return r.latency_s[m] + std::max(in, out) / r.batch_bps[m];
}

double cpu_seconds(const Problem &p, const CpuRates &r) {
  const int rank = std::clamp(static_cast<int>(p.dims.size()), 1, 3);
  const double n = static_cast<double>(std::max<int64_t>(p.transform_size(), 2));
  const double batch = static_cast<double>(std::max<int64_t>(p.batch(), 1));
  const double log_n = std::log2(n), log_total = std::log2(n * batch);
  double ns;
  if (rank == 1) {
    const double single = interpolate(cpu_sizes(1), r.single_ns[0], log_n);
    const double batched = log_n < CpuRates::kBatchLog2 ? interpolate(cpu_sizes(1), r.batch_ns, log_n) : single;
    // Threads pay off with the batch: from a single transform's rate at
    // batch 1 to the batch row's at 2^kBatchLog2 points and beyond.
    const double w = log_n < CpuRates::kBatchLog2
                         ? std::clamp((log_total - log_n) / (CpuRates::kBatchLog2 - log_n), 0.0, 1.0)
                         : 0.0;
    ns = single + (batched - single) * w;
  } else {
    // A batch of multi-dimensional transforms parallelises like one
    // transform of as many points.
    ns = interpolate(cpu_sizes(rank), r.single_ns[rank - 1], log_total);
  }
  const double real_factor = p.kind == Kind::C2C ? 1.0 : 0.5;
  return ns * 1e-9 * n * batch * log_n * real_factor;
}

std::string format(const GpuRates &r) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "gpu %.6g %.6g %.6g %.6g %.6g %.6g", r.latency_s[0], r.latency_s[1], r.single_bps[0],
                r.single_bps[1], r.batch_bps[0], r.batch_bps[1]);
  return buf;
}

std::string format(const CpuRates &r) {
  std::ostringstream o;
  o.precision(6);
  o << "cpu " << (r.precision == Precision::F32 ? "f32" : "f64") << ' ' << r.threads;
  for (const auto &row : r.single_ns)
    for (double v : row) o << ' ' << v;
  for (double v : r.batch_ns) o << ' ' << v;
  return o.str();
}

bool parse(const std::string &line, GpuRates *r) {
  std::istringstream in(line);
  std::string tag;
  GpuRates g;
  in >> tag >> g.latency_s[0] >> g.latency_s[1] >> g.single_bps[0] >> g.single_bps[1] >> g.batch_bps[0] >>
      g.batch_bps[1];
  std::string rest;
  if (tag != "gpu" || in.fail() || (in >> rest) || !g.valid()) return false;
  *r = g;
  return true;
}

bool parse(const std::string &line, CpuRates *r) {
  std::istringstream in(line);
  std::string tag, precision;
  CpuRates c;
  in >> tag >> precision >> c.threads;
  c.precision = precision == "f64" ? Precision::F64 : Precision::F32;
  for (auto &row : c.single_ns)
    for (double &v : row) in >> v;
  for (double &v : c.batch_ns) in >> v;
  std::string rest;
  if (tag != "cpu" || (precision != "f32" && precision != "f64") || in.fail() || (in >> rest) || !c.valid())
    return false;
  *r = c;
  return true;
}

}  // namespace gpufftw

namespace gpufftw {

Verdict judge(const Problem &p, bool pinned, const GpuRates &g, const CpuRates &c) {
  Verdict v;
  v.gpu_s = gpu_seconds(p, pinned, g);
  v.cpu_s = cpu_seconds(p, c);
  v.gpu = v.gpu_s < v.cpu_s;
  v.sure = std::max(v.gpu_s, v.cpu_s) > kSureRatio * std::min(v.gpu_s, v.cpu_s);
  return v;
}

}  // namespace gpufftw
