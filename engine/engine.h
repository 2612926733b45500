// The GPU engine: a lazy CUDA context and FFT jobs that run on it. Knows
// nothing of FFTW: it takes layouts in cuFFT's advanced form and pointers,
// host or device, and reports failure instead of throwing.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/kernel_pick.h"
#include "core/memory_kind.h"
#include "core/where.h"

namespace gpufftw::engine {

// True once a CUDA device is usable; the first call creates the context
// (device from GPUFFTW_DEVICE, else 0 of those CUDA_VISIBLE_DEVICES shows)
// and loads cuFFT. `why` says what is missing when it is false.
bool gpu_available(std::string *why = nullptr);
// True once a sticky CUDA error (a kernel that faulted or trapped, an
// uncorrectable ECC error, ...: engine/device/sticky.h) left a context of
// the device set unusable; `why` names the call that saw it. From then on
// gpu_available() is false, and nothing may call CUDA again but to ask
// what memory a pointer is: plans and executes go to the real FFTW, and
// what the engine holds is left to the process's end.
bool gpu_lost(std::string *why = nullptr);
// True once this process had a usable CUDA context (a lost one too);
// never creates one (creating it costs far more than a plan, which a
// process whose plans all stay on the CPU is spared).
bool gpu_started();
std::string device_name();

// The GPUs plans may spread over, by CUDA device number; the first also
// runs every plan that does not spread. GPUFFTW_DEVICES ("all" or a comma
// list) sets it, else GPUFFTW_DEVICE (one device), else every device of
// device 0's model. Empty where there is no usable GPU.
std::vector<int> devices();
// The set for plans made from now on; false (with `why`) where a number
// is not a device or is named twice, or the first cannot be opened.
bool set_devices(const std::vector<int> &set, std::string *why);
// What a calibration of this device stays valid for: name, compute
// capability, memory and driver version.
std::string device_identity();

enum class Type { C2C, R2C, C2R, R2R };
enum class Real { F32, F64 };

// The real-to-real kinds, with FFTW's definitions and scalings
// (unnormalised; REDFT00 needs n >= 2).
enum class R2rKind { R2HC, HC2R, DHT, REDFT00, REDFT01, REDFT10, REDFT11, RODFT00, RODFT01, RODFT10, RODFT11 };

// One axis of a transform or of the loops around it; strides count the
// elements of each side's array: complex numbers for an interleaved complex
// array, reals for a real array or for each array of a split pair.
struct Axis {
  long long n, is, os;
};

// How a half-precision job computes its transforms on the device's
// halves: our tensor-core kernels (c2c, every axis a power of two from 256
// to 4096), cuFFT's FP16 (c2c, r2c and c2r, every axis a power of two), or
// cuFFT's single precision on floats made from the halves (c2c, r2c and
// c2r, any size: the host arrays still cross the bus as halves). Dispatch
// prices each (dispatch/fp16_ways.h) and, under FFTW_MEASURE, times them.
enum class HalfWay { Ours, CufftHalf, SingleOnHalves };

struct Geometry {
  Type type = Type::C2C;
  Real real = Real::F32;
  int sign = -1;               // c2c only
  std::vector<R2rKind> kinds;  // r2r only, one per dim
  std::vector<Axis> dims;      // rank >= 1; n are the real-side sizes for r2c/c2r
  std::vector<Axis> loops;     // each n >= 1
  bool split_in = false;       // complex input as separate real/imaginary arrays
  bool split_out = false;      // complex output likewise
  bool in_place = false;       // as planned; FFTW's new-array execute keeps it
  // c2c, r2c and c2r f32: computed in half precision, the way half_way
  // names, where the FP16 job takes the problem that way
  // (engine/fp16/fp16_job.h); in single precision elsewhere, and path()
  // says why.
  bool half = false;
  HalfWay half_way = HalfWay::CufftHalf;
  // Whether our own kernels (engine/in_core/own_kernel.h) may replace
  // cuFFT: None (the cost model's calibration times cuFFT's path, and runs
  // with the dispatch store, which keeps the picks, busy), Recall (a pick
  // measured earlier only: FFTW_ESTIMATE measures nothing), Tune (measure
  // one now where none was made: FFTW_MEASURE and up).
  enum class OwnKernels { None, Recall, Tune } own_kernels = OwnKernels::Tune;
  // Where the job may run (core/where.h), so that a caller can weigh one
  // GPU against the whole device set.
  Spread spread = Spread::Auto;
  // The solver (Offer::solver) the planner makes first where it takes
  // the geometry, so that a caller that chose among offers() gets its
  // choice; where it makes no job, the others as without it, cheapest
  // first. Empty: cheapest first.
  std::string solver;
};

// A solver the planner would make a job of a geometry with, and its price
// there in seconds at the rates plans are priced by now (set_rates), from
// the bytes it moves (engine/solver/price.h): what a caller weighs the
// engine's solvers by.
struct Offer {
  const char *solver;  // its name
  double seconds;
  bool fallback;  // made only where the cheaper make no job (Solver::fallback)
};
// Those that take g on the device set at g.spread, as the planner's
// search asks them, cheapest first (equal prices in its table's order):
// at One the one-GPU solvers, at Set those that spread over the set, at
// Auto those that spread where one takes g, else the one-GPU solvers.
// Empty where the GPU cannot take g.
std::vector<Offer> offers(const Geometry &g);

class FftJob {
 public:
  // nullptr (with `why`) where the GPU cannot take the geometry or cuFFT
  // cannot plan it.
  static std::unique_ptr<FftJob> create(const Geometry &g, std::string *why);
  virtual ~FftJob() = default;
  // Runs once. in/out hold one pointer each, or {re, im} for a split side;
  // host or device memory, detected per call. false on any CUDA/cuFFT error
  // (`why` names the call): the caller recomputes on the CPU. The caller's
  // input is never modified unless it is also the output.
  virtual bool run(void *const in[2], void *const out[2], std::string *why) = 0;
  // "cuFFT" when cuFFT reads and writes the arrays as they lie; "cuFFT,
  // gathered" when a kernel first packs them densely (and why); "cuFFT,
  // out-of-core slabs+pencils" (2-D, 3-D) or "cuFFT, out-of-core
  // four-step" (1-D), and its chunks, when a single transform passes the
  // device memory cap; "r2r on cuFFT" for real-to-real. The in-core
  // jobs add the route they take for arrays of each kind ("; pinned
  // arrays: slabs then pencils, ...").
  virtual std::string path() const = 0;
  // Whether it computes in half precision (Geometry::half, taken).
  virtual bool half() const { return false; }
  // Which GPUs it runs on and why those: "GPU 0", or "GPUs 0,1: ..." where
  // it spreads, or why it does not where the device set has several.
  std::string placement;
  // The solver that made it (Offer::solver).
  std::string solver;
};

// Where an array lies (core/memory_kind.h), for choosing how to move it.
Memory memory_type(const void *p);

// From then on, our kernels' picks (core/kernel_pick.h) are recalled from
// and remembered in `store` as well as in this process.
void set_kernel_pick_store(KernelPickStore store);

// Pinned host memory for fftw_malloc, or nullptr. Freed by free_pinned,
// which also works after the device went away.
void *alloc_pinned(size_t bytes);
bool free_pinned(void *p);  // false: p was not from alloc_pinned
// The rates dispatch prices half precision by (dispatch/fp16_ways.h),
// each measured once per process at its first ask, in a few milliseconds:
// bytes of floats per second that the staging threads convert to halves
// and back; bytes read plus written per second by a device-to-device copy
// on the current GPU (0, with why, where a CUDA call failed).
double host_half_rate();
double device_copy_rate(std::string *why);

// The rates the engine's planner prices its solvers by
// (engine/solver/price.h), in bytes per second: over the host link, in
// and out together; read plus written in device memory; pulled by one GPU
// from another of the set. The defaults are nominal, for a machine not
// yet measured: a PCIe 4.0 x16 link's 32 GB/s each way, less its
// protocol's share; an HBM device's memory; an NVLink between two GPUs,
// a few hundred GB/s each way.
struct Rates {
  double link = 25e9;
  double device = 2e12;
  double peer = 300e9;
};
// This machine's rates, measured on the current GPU in a few tens of
// milliseconds (engine/device/rates.cc says how); false, with why (the
// CUDA call that failed), where they cannot be.
bool measure_rates(Rates *rates, std::string *why);
// The rates plans made from now on are priced by (the planner reads them
// at each search), and those it prices by now: the nominal ones until
// set_rates is called. Safe from any thread.
void set_rates(const Rates &rates);
Rates rates();

// Bytes alloc_pinned handed out and not freed, and bytes freed and kept.
void pinned_bytes(size_t *live, size_t *kept);
// Device memory in use on the set's first device (cudaMemGetInfo: every
// process's), or 0 where CUDA has not started or the engine was lost.
size_t device_memory_used();

}  // namespace gpufftw::engine
