#include "dispatch/calibrate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "core/log.h"
#include "core/time_limit.h"
#include "fallback/cpu_plan.h"
#include "fallback/real_fftw.h"
#if GPUFFTW_HAVE_CUDA
#include "engine/engine.h"
#endif

namespace gpufftw {
namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds per call of f: calls are grouped until a group takes 200 µs
// (clock resolution and loop cost vanish), then the fastest of that group
// and 5 more, or 1 more where a group takes over 10 ms (the biggest
// batches, milliseconds a call). The fastest, not the median: a slow
// spell of the host can last most of the groups and price a cell many
// times high, where the fastest reads the real FFTW a little low, which
// costs less (docs/dispatch-sweep.md, "The tables read in slow spells").
template <class F>
double seconds_per_call(F &&f) {
  f();  // warm: first-touch pages, plan caches
  int calls = 1;
  double t = 0;
  for (;;) {
    const double t0 = now();
    for (int i = 0; i < calls; ++i) f();
    t = now() - t0;
    if (t >= 2e-4 || calls >= (1 << 20)) break;
    calls *= 2;
  }
  double best = t / calls;
  const int groups = t > 1e-2 ? 1 : 5;
  for (int s = 0; s < groups; ++s) {
    const double t0 = now();
    for (int i = 0; i < calls; ++i) f();
    best = std::min(best, (now() - t0) / calls);
  }
  return best;
}

// How many times faster than their stored times a table check's cells run
// now: the largest ratio, or 1 where a cell cannot be timed (no grounds
// then to read the table again).
template <class Cells, class Stored, class Time>
double faster_now(const Cells &cells, Stored stored, Time time) {
  double faster = 0;
  for (const auto &c : cells) {
    const double t = time(c);
    if (t <= 0) return 1;
    faster = std::max(faster, stored(c) / t);
  }
  return faster;
}

struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};
using Buffer = std::unique_ptr<void, FreeDeleter>;

Buffer zeroed(size_t bytes) {
  void *p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (p) std::memset(p, 0, bytes);
  return Buffer(p);
}

// A dense problem of `kind` (c2c, or r2c out of place) with row-major dims
// of about equal size whose product is 2^log2: on the r2c output side the
// last dim holds n/2+1 complex numbers.
struct DenseShape {
  std::vector<Dim> dims;
  int64_t in_points = 1, out_points = 1;  // per transform, elements of each side
};
DenseShape dense_shape(Kind kind, int rank, int log2) {
  DenseShape s;
  s.dims.resize(rank);
  for (int i = rank - 1; i >= 0; --i) {
    const int bits = log2 / rank + (i < log2 % rank ? 1 : 0);
    const int64_t n = int64_t{1} << bits;
    s.dims[i] = {n, s.in_points, s.out_points};
    s.in_points *= n;
    s.out_points *= kind == Kind::R2C && i == rank - 1 ? n / 2 + 1 : n;
  }
  return s;
}

// Callers hold the planner lock (planner_mutex, fallback/cpu_plan.h):
// nothing else plans or touches wisdom meanwhile.
template <class R>
struct WisdomKeeper {
  const RealFftw<R> &f = real_fftw<R>();
  std::string saved;
  WisdomKeeper() {
    f.export_wisdom([](char c, void *s) { static_cast<std::string *>(s)->push_back(c); }, &saved);
  }
  ~WisdomKeeper() {
    f.forget_wisdom();
    f.import_wisdom_from_string(saved.c_str());
  }
};

// Zeroed arrays of `reals` each (transforms of zeros keep them zero). For
// every problem of the real FFTW's tables: up to 2^24 complex numbers, and
// r2c's half spectra of its smallest size, 9 complex numbers for 16 reals.
template <class R>
struct CpuArrays {
  static constexpr size_t kAllReals =
      (size_t{2} << CpuRates::kTotals.back()) + (size_t{1} << CpuRates::kTotals.back()) / 4;
  explicit CpuArrays(size_t n = kAllReals) : reals(n) {}
  size_t reals;
  Buffer in = zeroed(reals * sizeof(R)), out = zeroed(reals * sizeof(R));
};

// Seconds of the real FFTW on `batch` transforms of `kind` (c2c, or r2c of
// reals) with 2^log2 points each, planned with FFTW_ESTIMATE and `threads`
// threads; 0 where it gives no plan or the arrays are too small.
template <class R>
double cpu_time(const CpuArrays<R> &buffers, int threads, Kind kind, int rank, int log2, int64_t batch) {
  const DenseShape shape = dense_shape(kind, rank, log2);
  Problem p;
  p.kind = kind;
  p.precision = precision_of<R>();
  p.dims = shape.dims;
  p.howmany.push_back({batch, shape.in_points, shape.out_points});
  p.flags = FFTW_ESTIMATE;
  const size_t in_reals = static_cast<size_t>(shape.in_points * batch) * (kind == Kind::C2C ? 2 : 1);
  const size_t out_reals = static_cast<size_t>(shape.out_points * batch) * 2;
  if (!buffers.in || !buffers.out || std::max(in_reals, out_reals) > buffers.reals) return 0;
  p.in[0] = buffers.in.get();
  p.out[0] = buffers.out.get();
  std::unique_ptr<Plan> plan = cpu_plan_with_threads(p, threads, time_limit(p.precision));
  if (!plan) return 0;
  const Arrays arrays;
  return seconds_per_call([&] { plan->execute(arrays); });
}

template <class R>
double cpu_time(const CpuArrays<R> &buffers, int threads, const CpuCell &c) {
  return cpu_time<R>(buffers, threads, c.c2c ? Kind::C2C : Kind::R2C, c.rank, c.log2(), c.batch());
}

template <class R>
CpuRates calibrate_cpu_typed(int threads) {
  CpuRates r;
  r.precision = precision_of<R>();
  r.threads = threads;
  if (!real_fftw<R>().loaded) return r;
  WisdomKeeper<R> keep;
  const CpuArrays<R> buffers;
  for (int i = 0; i < CpuRates::kMultiSizes; ++i) {
    for (Kind kind : {Kind::C2C, Kind::R2C}) {
      const bool c2c = kind == Kind::C2C;
      if (i < CpuRates::kSizes)
        fill_one_d_row(c2c ? &r.one_d : &r.one_d_r2c, i, threads, [&](int64_t batch) {
          return cpu_time<R>(buffers, threads, kind, 1, CpuRates::kLog2[i], batch);
        });
      for (int rank : {2, 3})
        fill_multi_d_cell(&r, CpuCell{c2c, rank, static_cast<size_t>(i), 0},
                          [&](const CpuCell &c) { return cpu_time<R>(buffers, threads, c); });
    }
  }
  reread_outliers(&r, [&](const CpuCell &c) { return cpu_time<R>(buffers, threads, c); });
  return r;
}

// The cells check_cpu times: c2c only (the real FFTW's first r2c plan of a
// size costs milliseconds), of at most 2^kCheckedLog2 points (a call takes
// microseconds), spread over the calibration's order (size by size) so
// that a slow spell of the host over any part of it shows in one: two
// cells of 2^12 points (n = 16 and 1024) are too few, since a spell can
// read a table slow from n = 2^10 on and leave both right
// (docs/dispatch-sweep.md, "The tables read in slow spells").
constexpr CpuCell kCheckedCells[] = {{true, 1, 0, 1}, {true, 1, 2, 1}, {true, 1, 2, 2},
                                     {true, 2, 2, 0}, {true, 3, 3, 0}, {true, 1, 4, 0}};
constexpr int kCheckedLog2 = 16;

template <class R>
double check_cpu_typed(const CpuRates &stored) {
  if (!real_fftw<R>().loaded) return 1;
  WisdomKeeper<R> keep;
  const CpuArrays<R> buffers(size_t{2} << kCheckedLog2);
  return faster_now(
      kCheckedCells, [&](const CpuCell &c) { return c.in(stored); },
      [&](const CpuCell &c) { return cpu_time<R>(buffers, stored.threads, c); });
}

#if GPUFFTW_HAVE_CUDA
struct PinnedDeleter {
  void operator()(void *p) const { engine::free_pinned(p); }
};

// Seconds of one c2c f32 job of n × batch on the two arrays, spread so;
// 0 on failure.
double gpu_job_seconds(long long n, long long batch, Spread spread, void *in, void *out,
                       std::string *why) {
  engine::Geometry g;
  g.own_kernels = engine::Geometry::OwnKernels::None;
  g.spread = spread;
  g.dims.push_back({n, 1, 1});
  g.loops.push_back({batch, n, n});  // as the API states it, batch 1 included
  auto job = engine::FftJob::create(g, why);
  if (!job) return 0;
  void *const i2[2] = {in, nullptr}, *const o2[2] = {out, nullptr};
  bool ok = true;
  const double t = seconds_per_call([&] { ok = ok && job->run(i2, o2, why); });
  return ok ? t : 0;
}
#endif

}  // namespace

CpuRates calibrate_cpu(Precision precision, int threads) {
  const double t0 = now();
  CpuRates r = precision == Precision::F32 ? calibrate_cpu_typed<float>(threads) : calibrate_cpu_typed<double>(threads);
  GPUFFTW_LOG(Info, "calibrated the real FFTW (%s, %d threads) in %.0f ms: %s",
              precision == Precision::F32 ? "f32" : "f64", threads, 1e3 * (now() - t0), format(r).c_str());
  return r;
}

double check_cpu(const CpuRates &stored) {
  const double t0 = now();
  const double faster =
      stored.precision == Precision::F32 ? check_cpu_typed<float>(stored) : check_cpu_typed<double>(stored);
  GPUFFTW_LOG(Info, "checked the real FFTW's table (%s, %d threads, %d reading%s) in %.1f ms: %.2fx as fast now",
              stored.precision == Precision::F32 ? "f32" : "f64", stored.threads, stored.readings,
              stored.readings == 1 ? "" : "s", 1e3 * (now() - t0), faster);
  return faster;
}

#if GPUFFTW_HAVE_CUDA
namespace {

// Arrays for GPU cells, c2c f32, the inputs zeroed: pinned ones for up to
// 2^pinned_log2 points, pageable ones for up to 2^pageable_log2.
struct GpuArrays {
  GpuArrays(int pinned_log2, int pageable_log2)
      : pinned_bytes((size_t{1} << pinned_log2) * 8), pageable_bytes((size_t{1} << pageable_log2) * 8) {
    if (pin_in) std::memset(pin_in.get(), 0, pinned_bytes);
  }
  const size_t pinned_bytes, pageable_bytes;
  std::unique_ptr<void, PinnedDeleter> pin_in{engine::alloc_pinned(pinned_bytes)},
      pin_out{engine::alloc_pinned(pinned_bytes)};
  Buffer page_in = zeroed(pageable_bytes), page_out = zeroed(pageable_bytes);
  bool ok() const { return pin_in && pin_out && page_in && page_out; }
};

// Seconds of the cell [pinned][batched][k] of GpuRates::seconds (one GPU)
// or, `set`, of set_seconds (the device set's split, 0 where it takes no
// such job); 0 on failure.
double gpu_cell_seconds(const GpuArrays &a, int pinned, int batched, int k, bool set, std::string *why) {
  void *in = pinned ? a.pin_in.get() : a.page_in.get(), *out = pinned ? a.pin_out.get() : a.page_out.get();
  const long long points = 1LL << GpuRates::kLog2[k];
  const long long n = batched ? std::min<long long>(GpuRates::kBatchN, points / 4) : points;
  return gpu_job_seconds(n, points / n, set ? Spread::Set : Spread::One, in, out, why);
}

// The cells check_gpu times: one transform and batches, pinned up to 2^22
// points (32 MiB each way), pageable up to 2^19: cells in each row that a
// slow spell can read slow while the others read as usual (the pinned
// rows, the big pinned batches, the pageable transform of 2^16 points),
// any of which sends problems to the CPU that the GPU runs faster
// (docs/dispatch-sweep.md, "The tables read in slow spells").
struct GpuCell {
  int pinned, batched, k;
};
// The table is read in kGpuSweeps sweeps, each cell keeping its fastest:
// the first cells read just after CUDA started can run slow (the small
// pageable transforms most), under what the next process's check reads
// again for (docs/how-it-works.md, FFTW_MEASURE's rules: "The GPU's table
// in two sweeps"). The second sweep is paid once a machine.
constexpr int kGpuSweeps = 2;

constexpr GpuCell kCheckedGpuCells[] = {{1, 0, 1}, {1, 1, 2}, {1, 1, 3}, {1, 1, 4}, {0, 0, 2}, {0, 1, 3}};
constexpr int kCheckedPinnedLog2 = 22, kCheckedPageableLog2 = 19;

}  // namespace

bool calibrate_gpu(GpuRates *rates, std::string *why) {
  const double t0 = now();
  const GpuArrays arrays(GpuRates::kLog2.back(), GpuRates::kLog2.back());
  if (!arrays.ok()) return *why = "no memory to calibrate with", false;
  GpuRates r;
  engine::Rates moved;
  if (!engine::measure_rates(&moved, why)) return false;
  r.link_rate = moved.link;
  r.device_rate = moved.device;
  r.peer_rate = moved.peer;
  // The set's cells in the same sweeps, each right after one GPU's: a cell
  // the split does not take (no job) stays 0, and costs no timing.
  for (int sweep = 0; sweep < kGpuSweeps; ++sweep)
    for (int pinned = 0; pinned < 2; ++pinned)
      for (int batched = 0; batched < 2; ++batched)
        for (int k = 0; k < GpuRates::kSizes; ++k) {
          const double t = gpu_cell_seconds(arrays, pinned, batched, k, false, why);
          if (t <= 0) return false;
          double &cell = r.seconds[pinned][batched][k];
          cell = sweep == 0 ? t : std::min(cell, t);
          std::string not_split;
          const double s = gpu_cell_seconds(arrays, pinned, batched, k, true, &not_split);
          double &set_cell = r.set_seconds[pinned][batched][k];
          if (s > 0) set_cell = set_cell == 0 ? s : std::min(set_cell, s);
        }
  *rates = r;
  GPUFFTW_LOG(Info, "calibrated the GPU in %.0f ms (GB/s: link %.1f, device memory %.0f, peer %.1f): %s",
              1e3 * (now() - t0), 1e-9 * r.link_rate, 1e-9 * r.device_rate, 1e-9 * r.peer_rate, format(r).c_str());
  return true;
}

double check_gpu(const GpuRates &stored) {
  if (!engine::gpu_started()) return 0;
  const double t0 = now();
  const GpuArrays arrays(kCheckedPinnedLog2, kCheckedPageableLog2);
  if (!arrays.ok()) return 1;
  std::string why;
  const double faster = faster_now(
      kCheckedGpuCells, [&](const GpuCell &c) { return stored.seconds[c.pinned][c.batched][c.k]; },
      [&](const GpuCell &c) { return gpu_cell_seconds(arrays, c.pinned, c.batched, c.k, false, &why); });
  GPUFFTW_LOG(Info, "checked the GPU's table (%d reading%s) in %.1f ms: %.2fx as fast now", stored.readings,
              stored.readings == 1 ? "" : "s", 1e3 * (now() - t0), faster);
  return faster;
}
#endif

}  // namespace gpufftw
