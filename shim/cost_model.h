// The cost model behind FFTW_ESTIMATE dispatch: the execute time of a
// problem on the GPU (host arrays over PCIe) and on the real FFTW with a
// given thread count, from rates calibrated once per machine (calibrate.h).
// Pure functions of the rates, so tests can inject them.
#pragma once

#include <array>
#include <string>

#include "shim/problem.h"

namespace gpufftw {

// End-to-end rates of the GPU path, measured through the engine itself, per
// kind of host memory: index 0 pageable, 1 pinned.
struct GpuRates {
  std::array<double, 2> latency_s{};  // a tiny transform, copies and sync included
  std::array<double, 2> single_bps{};  // one transform: (bytes in + out) / time
  std::array<double, 2> batch_bps{};   // a batch: max(bytes in, bytes out) / time
  bool valid() const;
};

// The real FFTW's time per point and per log2 of the transform size, in
// nanoseconds, with FFTW_ESTIMATE plans, one precision and one thread
// count (a precision's library has its own fftw_plan_with_nthreads): for single
// transforms of each rank at the total sizes cpu_sizes(rank) gives, and for
// 1-D batches of n = 2^cpu_sizes(1)[i] and 2^kBatchLog2 points in all.
struct CpuRates {
  static constexpr int kSizes = 6;
  static constexpr int kBatchLog2 = 18;
  Precision precision = Precision::F32;
  int threads = 1;
  std::array<std::array<double, kSizes>, 3> single_ns{};  // [rank - 1][size]
  std::array<double, kSizes> batch_ns{};                  // 1-D batches of n = 2^cpu_sizes(1)[i]
  bool valid() const;
};

// The log2 sizes a rank's single-transform row is measured at.
const std::array<int, CpuRates::kSizes> &cpu_sizes(int rank);

// Bytes the transform reads and writes on the host (each side's elements
// times their size: what crosses PCIe).
double bytes_in(const Problem &p);
double bytes_out(const Problem &p);

// Predicted execute times in seconds; r's precision is p's.
double gpu_seconds(const Problem &p, bool pinned, const GpuRates &r);
double cpu_seconds(const Problem &p, const CpuRates &r);

// One line each, for the store and the log; parse returns false on
// anything malformed.
std::string format(const GpuRates &r);
std::string format(const CpuRates &r);
bool parse(const std::string &line, GpuRates *r);
bool parse(const std::string &line, CpuRates *r);

}  // namespace gpufftw

namespace gpufftw {

// The model's verdict on one problem: the side it predicts faster, and
// whether by so wide a margin (kSureRatio) that FFTW_MEASURE need not time
// both (the real FFTW's MEASURE alone can take 20 s on a big problem).
struct Verdict {
  bool gpu = false, sure = false;
  double gpu_s = 0, cpu_s = 0;
};
constexpr double kSureRatio = 4.0;
Verdict judge(const Problem &p, bool pinned, const GpuRates &g, const CpuRates &c);

}  // namespace gpufftw
