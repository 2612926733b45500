// GPUFFTW_PRECISION=fp16's ways for one problem: our tensor-core kernels,
// cuFFT's FP16, cuFFT's single precision on halves, and the problem's
// single-precision plan (f32), each asked whether it takes the problem and
// priced by a model of the bytes it moves (the bus in halves or in floats,
// the host's conversion, the device's passes). Each is a candidate of
// dispatch's planner (fp16_candidates.h), chosen as the other ways are
// (docs/fp16.md, "The choice"). Plain C++, tested without a GPU.
#pragma once

#include <string>
#include <vector>

#include "core/memory_kind.h"
#include "core/problem.h"
#include "core/where.h"
#include "dispatch/cost_model.h"

namespace gpufftw {

enum class Fp16Way { Ours, CufftHalf, SingleOnHalves, Single };
constexpr Fp16Way kFp16Ways[] = {Fp16Way::Ours, Fp16Way::CufftHalf, Fp16Way::SingleOnHalves, Fp16Way::Single};

// For the why: "ours (tensor cores)", "cuFFT fp16", ...
const char *way_name(Fp16Way w);
// For the store and GPUFFTW_FP16_WAY: "ours", "cufft-fp16", "fp32-on-halves", "fp32".
const char *way_tag(Fp16Way w);
bool parse_way(const std::string &tag, Fp16Way *w);

// Where the plan's arrays lie, as the prices see it (managed arrays as
// device ones).
enum class ArraysAt { Pageable, Pinned, Device };
ArraysAt arrays_at(Memory in, Memory out);

// What the prices are made of, measured on this machine: bytes per second.
struct HalfRates {
  // gpufftw's single-precision path on host arrays, end to end: bytes in
  // plus out per second, pinned (the DMA engines on the arrays) and
  // pageable (through the copy threads' staging).
  double pinned = 0, pageable = 0;
  // The host's F16C conversion on the staging threads: bytes of floats
  // per second, to halves and back.
  double convert = 0;
  // The device's memory: bytes read plus written per second by a copy.
  double device = 0;
};

// From the calibrated single-precision table (its largest batched cells,
// 2^24 points each way) and the two rates measured in this process.
HalfRates half_rates(const GpuRates &g, double convert, double device);

// The device's time of each way in copies of the bytes it reads and writes
// per pass (a copy reads and writes each byte once), by rank: cuFFT's FP32
// and FP16 and our kernels on the fp16 benchmark's standard set
// (docs/results/fp16.md, "The kernels on device data"). cuFFT's FP16 on 2-D
// and 3-D runs several passes; ours takes a pass per axis at about half a
// copy's speed; r2c and c2r take c2c's factors on their bytes, our r2c
// on those of the c2c of the reals.
struct DeviceFactors {
  double single[3] = {1.0, 2.5, 3.4};
  double cufft_half[3] = {1.05, 9.3, 18.6};
  double ours[3] = {2.0, 5.0, 7.4};
};

// The device set as the prices see it. `gain`: the set's split's speed-up
// on the problem in single precision, from the calibrated tables (one
// GPU's time over the set's; 1 where it runs on one GPU). `only`: the plan
// must spread over the set (Spread::Set). f32 spreads wherever the set's
// split takes the problem; a way in half only on a batch: the batch split
// runs each GPU's share as a half job of its own, staged by that GPU's own
// threads, while the slab and 1-D splits of one transform stage and
// exchange floats.
struct OverGpus {
  double gain = 1;
  bool only = false;
};

// The set as a plan spread so sees it: the gain where the table has a set
// cell as large as the problem (where the set's split takes such a
// problem, and the one price the set has; Spread::Auto, the engine's
// placement, spreads it there too); 1 on one GPU (Spread::One) or
// without a cell. `only` where Spread::Set.
OverGpus over_gpus(const Problem &p, bool pinned, Spread spread, const GpuRates *g);

struct WayPrice {
  Fp16Way way = Fp16Way::Single;
  bool offered = false;
  std::string why_not;  // where not offered
  double seconds = 0;   // the model's, where offered
};

// Every way, whether it takes the problem's sizes (why not where it does
// not) and, where it does, the model's seconds:
// - f32: the bus in floats, pinned or pageable at its rate, plus the
//   device's passes on floats; on device arrays the passes alone.
// - a way in half on host arrays: the host converts every float both ways
//   while the DMA moves the halves behind it, so the slower of the two,
//   plus the device's passes on halves; on device arrays, a kernel
//   converts each side (reads a float, writes a half: 1.5 times a side's
//   float bytes) before and after them. Single precision on halves adds
//   those conversions on the device to f32's passes.
// Ours takes c2c and r2c (the c2c of the reals as complex numbers, its
// passes on the complex halves) of rank 1 to 3, every axis 256 to 4096
// and a power of two; cuFFT's FP16 c2c, r2c and c2r, every axis a power
// of two; single precision on halves c2c, r2c and c2r of any size. f32
// takes everything.
// Over the set (`over`), a way that spreads costs its price over the
// split's gain: each GPU converts its share on staging threads of its own,
// so the host's conversion divides as f32's staging does in the tables.
// Every way spreads a batch; one 2-D or 3-D transform spreads in half as
// single precision on halves only, one 1-D transform in f32 only. A way
// that does not spread is not offered where the plan must, and costs one
// GPU's price elsewhere. Device arrays stay where they lie
// (the split transforms them whole on their GPU): no gain.
std::vector<WayPrice> price_ways(const Problem &p, ArraysAt at, const HalfRates &r, const OverGpus &over = {},
                                 const DeviceFactors &f = DeviceFactors());

// FFTW_MEASURE times only the ways priced within this factor of the
// cheapest: the model's factors are from measurements, and a way priced
// that far off costs planning time for nothing (cuFFT's FP16 on 3-D).
constexpr double kWayTimedWithin = 4.0;

// The store's key of the way FFTW_MEASURE chose for the problem on arrays
// `at`, placed so: the ways' readings differ between one GPU, the set and
// the engine's placement. An fp16 way, or one of the engine's solvers
// (solver_ways.h), each problem under a key of its own kind ("fp16way."
// for a problem half_wanted() asks for, else "gpuway."). Kept as a kernel
// pick (solver_ways.h's way_variant, its reading and, of an fp16 problem,
// f32's), apart from the choice between the GPU and the real FFTW, since
// the GPU alone (GPUFFTW_MODE=gpu, device arrays) chooses a way too.
std::string way_key(const Problem &p, ArraysAt at, Spread spread);

}  // namespace gpufftw
