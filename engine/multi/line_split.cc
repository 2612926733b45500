// One long 1-D c2c over several GPUs by the four-step method; the
// arithmetic and the blocks each step copies are line_layout.h's. GPU k
// reads its columns of the input's [n1][n2] view over its own link,
// transposes them, transforms them along n1, and twiddles and transposes
// them back; then pulls its rows of k1 from every GPU, GPU to GPU (NVLink,
// or through the host where there is no peer access), a part of them at a
// time, and transforms each part along n2 as soon as it has arrived; once
// every GPU has pulled its rows, transposes the parts and writes them as
// its columns of the output's [n2][n1] view, joined into rows of
// kMinRowBytes or more.
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "engine/cufft/plan_cache.h"
#include "engine/device/context.h"
#include "engine/device/device_set.h"
#include "engine/multi/line_layout.h"
#include "engine/multi/peer_copy.h"
#include "engine/multi/phases.h"
#include "engine/multi/split_job.h"
#include "engine/multi/split_shapes.h"
#include "engine/staging/host_copy.h"
#include "engine/staging/sides.h"
#include "engine/staging/twiddle_transpose.h"

namespace gpufftw::engine {
namespace {

class LineSplitJob final : public HalvesJob {
 public:
  struct Gpu {
    int device = 0;
    // st: the copies in and out, the first pass, the exchange and the
    // transposes out; fft: the second pass's FFTs, beside the exchange.
    cudaStream_t st = nullptr, fft = nullptr;
    cudaEvent_t twiddled = nullptr;  // its columns are twiddled into a
    cudaEvent_t pulled = nullptr;    // it has pulled its rows from every GPU
    std::vector<Share> parts;        // the second pass's parts of its rows
    // Per part: it has arrived in t; it is transformed along n2.
    std::vector<cudaEvent_t> arrived, transformed;
    std::optional<Step> columns_plan;     // along n1 on its columns
    std::map<long long, Step> row_plans;  // along n2 on a part of its rows, by the part's size
    HostCopier copier;
    std::unique_ptr<Phases> phases;  // of the run under way
    // a: its columns [n1][columns]; then, twiddled, what the other GPUs
    // pull from; then its rows transposed, [n2][rows]. t: its columns
    // [columns][n1] for the FFTs along n1, then its rows [rows][n2].
    void *a = nullptr, *t = nullptr;
  };

  LineSplitJob(const Geometry &g, LineSplit s, int first_device, OneGpuPlanner one_gpu)
      : HalvesJob(g, first_device, std::move(one_gpu)), g_(g), s_(std::move(s)) {
    cbytes_ = 2 * (g.real == Real::F32 ? sizeof(float) : sizeof(double));
  }

  ~LineSplitJob() override {
    for (Gpu &gpu : gpus_) {
      DeviceScope on(gpu.device);
      for (cudaStream_t s : {gpu.st, gpu.fft})
        if (s) cudaStreamDestroy(s);
      for (cudaEvent_t e : {gpu.twiddled, gpu.pulled})
        if (e) cudaEventDestroy(e);
      for (auto *events : {&gpu.arrived, &gpu.transformed})
        for (cudaEvent_t e : *events)
          if (e) cudaEventDestroy(e);
      if (gpu.columns_plan) retire_plan(*gpu.columns_plan);
      for (const auto &p : gpu.row_plans) retire_plan(p.second);
    }
  }

  bool init(const std::vector<int> &set, std::string *why) {
    gpus_ = std::vector<Gpu>(s_.columns.size());
    for (size_t k = 0; k < gpus_.size(); ++k) {
      Gpu &gpu = gpus_[k];
      gpu.device = set[k];
      DeviceScope on(gpu.device);
      if (!on.ok()) return *why = on.why(), false;
      for (cudaStream_t *st : {&gpu.st, &gpu.fft})
        GPUFFTW_CK(cudaStreamCreateWithFlags(st, cudaStreamNonBlocking), why);
      for (cudaEvent_t *e : {&gpu.twiddled, &gpu.pulled})
        GPUFFTW_CK(cudaEventCreateWithFlags(e, cudaEventDisableTiming), why);
      const long long cols = s_.columns[k].size(), rows = s_.rows[k].size();
      if (!(gpu.columns_plan = lines(s_.n1, cols, why))) return false;
      gpu.parts = split_evenly(rows, kSplitChunks);
      for (auto *events : {&gpu.arrived, &gpu.transformed}) {
        events->assign(gpu.parts.size(), nullptr);
        for (cudaEvent_t &e : *events) GPUFFTW_CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), why);
      }
      for (const Share &part : gpu.parts) {
        if (gpu.row_plans.count(part.size())) continue;
        const std::optional<Step> plan = lines(s_.n2, part.size(), why);
        if (!plan) return false;
        gpu.row_plans[part.size()] = *plan;
      }
      if (!fits(gpu.device, device_bytes(gpu, k), why)) return false;
      devices_.push_back(gpu.device);
    }
    peer_ = enable_peer_access(devices_);
    placement = "GPUs " + device_list(devices_) + ": 1-D as " + std::to_string(s_.n1) + " x " + std::to_string(s_.n2) +
                ", columns in, exchanged " + (peer_ ? "GPU to GPU" : "through the host") + ", columns out";
    return true;
  }

  std::string path() const override { return "cuFFT, 1-D over GPUs in four steps"; }

  Halves halves(const char *in, char *out) override {
    Halves halves;
    halves.first = [=](int k, std::string *w) {
      Gpu &gpu = gpus_[k];
      gpu.phases = std::make_unique<Phases>(
          gpu.st, "1-D split",
          std::vector<std::string>{"columns in", "along n1, twiddled", "waiting for the others", "exchange",
                                   "along n2, transposed", "columns out"});
      const bool ok = alloc(&gpu, k, w) && first_pass(&gpu, k, in, w);
      gpu.phases->mark();
      return ok;
    };
    halves.second = [=](int k, std::string *w) {
      Gpu &gpu = gpus_[k];
      return exchange(&gpu, k, w) && (gpu.phases->mark(), true) && along_n2(&gpu, w);
    };
    // An in-place transform's input is all read before any GPU's third
    // step, so the columns written out overwrite none unread.
    halves.third = [=](int k, std::string *w) { return columns_out(&gpus_[k], k, out, w); };
    halves.settle = [=](int k, std::string *w) {
      Gpu &gpu = gpus_[k];
      if (gpu.phases) gpu.phases->mark();
      bool ok = true;
      for (cudaStream_t s : {gpu.st, gpu.fft})
        if (!check(cudaStreamSynchronize(s), "cudaStreamSynchronize", w)) ok = false;
      return ok;
    };
    halves.release = [=](int k) {
      Gpu &gpu = gpus_[k];
      if (gpu.phases) gpu.phases->print(gpu.device);
      gpu.phases.reset();
      for (void *p : {gpu.a, gpu.t})
        if (p) cudaFreeAsync(p, gpu.st);
      cudaStreamSynchronize(gpu.st);
      gpu.a = gpu.t = nullptr;
    };
    return halves;
  }

 private:
  // `count` transforms of length n along adjacent rows, in place.
  std::optional<Step> lines(long long n, long long count, std::string *why) {
    long long len = n, embed = n;
    Step s;
    s.type = complex_type(g_.real);
    s.sign = g_.sign;
    if (!make_plan(&s, 1, &len, &embed, 1, n, &embed, 1, n, count, why)) return std::nullopt;
    return s;
  }

  // Either buffer holds its columns, then its rows.
  size_t buffer_bytes(int k) const {
    return static_cast<size_t>(std::max(s_.n1 * s_.columns[k].size(), s_.n2 * s_.rows[k].size())) * cbytes_;
  }

  size_t device_bytes(const Gpu &gpu, int k) const {
    size_t b = 2 * buffer_bytes(k) + gpu.columns_plan->work;
    for (const auto &p : gpu.row_plans) b += p.second.work;
    return b;
  }

  bool alloc(Gpu *gpu, int k, std::string *why) {
    GPUFFTW_CK(cudaMallocAsync(&gpu->a, buffer_bytes(k), gpu->st), why);
    GPUFFTW_CK(cudaMallocAsync(&gpu->t, buffer_bytes(k), gpu->st), why);
    // The second stream must not touch them before they exist.
    GPUFFTW_CK(cudaEventRecord(gpu->twiddled, gpu->st), why);
    GPUFFTW_CK(cudaStreamWaitEvent(gpu->fft, gpu->twiddled, 0), why);
    return true;
  }

  bool first_pass(Gpu *gpu, int k, const char *in, std::string *why) {
    if (fault_injected("execute", why)) return false;
    const Block b = line_in(s_, k);
    if (!gpu->copier.rows_to_device(gpu->a, in + b.src * cbytes_, static_cast<size_t>(b.spitch) * cbytes_,
                                    static_cast<size_t>(b.width) * cbytes_, static_cast<size_t>(b.rows), gpu->st, why))
      return false;
    gpu->phases->mark();
    const long long n = s_.n1 * s_.n2, cols = s_.columns[k].size(), col0 = s_.columns[k].begin;
    const bool f32 = g_.real == Real::F32;
    const cudaError_t transposed =
        f32 ? transpose(static_cast<const float *>(gpu->a), static_cast<float *>(gpu->t), s_.n1, cols, s_.n1, gpu->st)
            : transpose(static_cast<const double *>(gpu->a), static_cast<double *>(gpu->t), s_.n1, cols, s_.n1,
                        gpu->st);
    if (!check(transposed, "transpose (kernel launch)", why)) return false;
    if (!exec_plan(*gpu->columns_plan, gpu->st, gpu->t, gpu->t, why)) return false;
    const cudaError_t twiddled =
        f32 ? twiddle_transpose(static_cast<const float *>(gpu->t), static_cast<float *>(gpu->a), cols, s_.n1, col0,
                                0, n, g_.sign, gpu->st)
            : twiddle_transpose(static_cast<const double *>(gpu->t), static_cast<double *>(gpu->a), cols, s_.n1,
                                col0, 0, n, g_.sign, gpu->st);
    if (!check(twiddled, "twiddle_transpose (kernel launch)", why)) return false;
    GPUFFTW_CK(cudaEventRecord(gpu->twiddled, gpu->st), why);
    return true;
  }

  // Its rows of k1 from every GPU's a into t, as [rows][n2], a part at a
  // time: t's columns were consumed by its own twiddle, earlier on the
  // same stream.
  bool exchange(Gpu *gpu, int k, std::string *why) {
    for (const Gpu &from : gpus_) GPUFFTW_CK(cudaStreamWaitEvent(gpu->st, from.twiddled, 0), why);
    gpu->phases->mark();
    for (size_t p = 0; p < gpu->parts.size(); ++p) {
      for (size_t h = 0; h < gpus_.size(); ++h) {
        const Gpu &from = gpus_[h];
        const Block b = line_exchange(s_, static_cast<int>(h), k, gpu->parts[p]);
        if (!pull_rows(static_cast<char *>(gpu->t) + b.dst * cbytes_, static_cast<size_t>(b.dpitch) * cbytes_,
                       from.device, static_cast<const char *>(from.a) + b.src * cbytes_,
                       static_cast<size_t>(b.spitch) * cbytes_, static_cast<size_t>(b.width) * cbytes_,
                       static_cast<size_t>(b.rows), peer_, gpu->st, why))
          return false;
      }
      GPUFFTW_CK(cudaEventRecord(gpu->arrived[p], gpu->st), why);
    }
    GPUFFTW_CK(cudaEventRecord(gpu->pulled, gpu->st), why);
    return true;
  }

  // Each part along n2 on the second stream once it has arrived.
  bool along_n2(Gpu *gpu, std::string *why) {
    for (size_t p = 0; p < gpu->parts.size(); ++p) {
      char *at = static_cast<char *>(gpu->t) + gpu->parts[p].begin * s_.n2 * cbytes_;
      GPUFFTW_CK(cudaStreamWaitEvent(gpu->fft, gpu->arrived[p], 0), why);
      if (!exec_plan(gpu->row_plans.at(gpu->parts[p].size()), gpu->fft, at, at, why)) return false;
      GPUFFTW_CK(cudaEventRecord(gpu->transformed[p], gpu->fft), why);
    }
    return true;
  }

  // Once every GPU has pulled its rows from a, each part transposed into a
  // as [n2][rows] once it is transformed; then the parts go out joined
  // into rows of kMinRowBytes or more. A pageable output is drained by
  // the host, which holds this thread until it is written: every
  // transpose is queued before.
  bool columns_out(Gpu *gpu, int k, char *out, std::string *why) {
    for (const Gpu &other : gpus_) GPUFFTW_CK(cudaStreamWaitEvent(gpu->st, other.pulled, 0), why);
    const long long rows = s_.rows[k].size();
    for (size_t p = 0; p < gpu->parts.size(); ++p) {
      const Share &part = gpu->parts[p];
      GPUFFTW_CK(cudaStreamWaitEvent(gpu->st, gpu->transformed[p], 0), why);
      const long long from = part.begin * s_.n2;
      const cudaError_t launched =
          g_.real == Real::F32
              ? transpose(static_cast<const float *>(gpu->t) + 2 * from, static_cast<float *>(gpu->a) + 2 * part.begin,
                          part.size(), s_.n2, rows, gpu->st)
              : transpose(static_cast<const double *>(gpu->t) + 2 * from,
                          static_cast<double *>(gpu->a) + 2 * part.begin, part.size(), s_.n2, rows, gpu->st);
      if (!check(launched, "transpose (kernel launch)", why)) return false;
    }
    gpu->phases->mark();
    const char *a = static_cast<const char *>(gpu->a);
    for (const Share &run : join_until(gpu->parts, static_cast<long long>((kMinRowBytes + cbytes_ - 1) / cbytes_))) {
      const Block b = line_out(s_, k, run);
      if (!gpu->copier.rows_to_host(out + b.dst * cbytes_, static_cast<size_t>(b.dpitch) * cbytes_,
                                    a + b.src * cbytes_, static_cast<size_t>(b.spitch) * cbytes_,
                                    static_cast<size_t>(b.width) * cbytes_, static_cast<size_t>(b.rows), gpu->st, why))
        return false;
    }
    return true;
  }

  Geometry g_;
  LineSplit s_;
  size_t cbytes_ = 0;
  std::vector<Gpu> gpus_;
  bool peer_ = false;  // every GPU of the split reads the others' memory directly
};

std::unique_ptr<FftJob> make_line_split(const Geometry &g, const Ask &ask, Reason *why_not) {
  const Geometry h = without_unit_loops(g);
  // Its suits found the factors.
  LineSplit s = *line_split(h.dims[0].n, static_cast<int>(ask.set.size()));
  auto job = std::make_unique<LineSplitJob>(h, std::move(s), ask.set[0], ask.one_gpu);
  std::string why;
  if (!job->init(ask.set, &why)) return *why_not = {Reason::Code::NoJob, "1-D: " + why}, nullptr;
  return job;
}

}  // namespace

const Solver kLineSplitSolver = {"line split", true, Gives::Transform, line_split_suits, line_split_cost,
                                 make_line_split};

}  // namespace gpufftw::engine
