// One large dense 2-D or 3-D c2c, or out-of-place r2c, over several GPUs.
// GPU k takes planes [a_k, b_k) of dim 0 over its own link and transforms
// their trailing dims as they arrive (two streams, so one chunk's FFT runs
// under the next one's copy). Then each GPU pulls from every other the
// rows [c_k, e_k) of dim 1 of their planes, GPU to GPU (NVLink, or through
// the host where there is no peer access), a chunk of columns at a time,
// transforms dim 0 on each chunk in place as soon as it has arrived, and
// sends the chunks back over its own link as they are done. Every input
// byte crosses PCIe once and every output byte once, spread over all the
// links. In half precision (Geometry::half, single precision on halves)
// the links carry halves: the host converts each slab to halves on its
// way in and back to floats on its way out (engine/staging/half_staging.h),
// a kernel converts them where they land, and the passes and the exchange
// run in single precision between.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "engine/cufft/plan_cache.h"
#include "engine/device/context.h"
#include "engine/device/device_set.h"
#include "engine/kernels/device_half.h"
#include "engine/multi/partition.h"
#include "engine/multi/peer_copy.h"
#include "engine/multi/phases.h"
#include "engine/multi/split_job.h"
#include "engine/multi/split_shapes.h"
#include "engine/staging/half_staging.h"
#include "engine/staging/host_copy.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine {
namespace {

class SlabSplitJob final : public HalvesJob {
 public:
  struct Gpu {
    int device = 0;
    Share planes, rows;
    std::vector<Share> columns;  // the second pass's chunks of its rows * row columns
    cudaStream_t st[2] = {nullptr, nullptr};
    cudaEvent_t passed = nullptr;  // its first pass is done
    // Per column chunk: it has arrived in recv; its dim 0 is transformed.
    std::vector<cudaEvent_t> arrived, transformed;
    // By (stream, batch): a plan's work area serves one stream at a time.
    // The pencils all run on the second stream: by batch.
    std::map<std::pair<int, long long>, Step> slab_plans;
    std::map<long long, Step> pencil_plans;
    HostCopier copier;
    std::unique_ptr<Phases> phases;  // of the run under way
    void *in = nullptr, *buf = nullptr, *recv = nullptr;
    // In half precision: the slabs' halves as they land, then the output's
    // on their way out (the first pass is done before the second begins).
    uint16_t *halves = nullptr;
  };

  SlabSplitJob(const Geometry &g, int first_device, OneGpuPlanner one_gpu)
      : HalvesJob(g, first_device, std::move(one_gpu)), g_(g), half_(g.half) {
    in_ = make_side(g, false);
    out_ = make_side(g, true);
    cbytes_ = 2 * (g.real == Real::F32 ? sizeof(float) : sizeof(double));
    n0_ = g.dims[0].n;
    plane_in_ = product(in_.n, 1, in_.n.size());
    plane_out_ = product(out_.n, 1, out_.n.size());
    n1_ = out_.n[1];
    row_ = plane_out_ / n1_;
  }

  ~SlabSplitJob() override {
    for (Gpu &gpu : gpus_) {
      DeviceScope on(gpu.device);
      for (cudaStream_t s : gpu.st)
        if (s) cudaStreamDestroy(s);
      if (gpu.passed) cudaEventDestroy(gpu.passed);
      for (auto *events : {&gpu.arrived, &gpu.transformed})
        for (cudaEvent_t e : *events)
          if (e) cudaEventDestroy(e);
      for (auto &p : gpu.slab_plans) retire_plan(p.second);
      for (auto &p : gpu.pencil_plans) retire_plan(p.second);
    }
  }

  bool init(const std::vector<int> &set, std::string *why) {
    const std::vector<Share> planes = split_evenly(n0_, static_cast<int>(set.size()));
    const std::vector<Share> rows = split_evenly(n1_, static_cast<int>(set.size()));
    const size_t gpus = std::min(planes.size(), rows.size());
    gpus_ = std::vector<Gpu>(gpus);
    for (size_t k = 0; k < gpus; ++k) {
      Gpu &gpu = gpus_[k];
      gpu.device = set[k];
      gpu.planes = planes.size() == gpus ? planes[k] : split_evenly(n0_, static_cast<int>(gpus))[k];
      gpu.rows = rows.size() == gpus ? rows[k] : split_evenly(n1_, static_cast<int>(gpus))[k];
      DeviceScope on(gpu.device);
      if (!on.ok()) return *why = on.why(), false;
      for (cudaStream_t &s : gpu.st) GPUFFTW_CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), why);
      GPUFFTW_CK(cudaEventCreateWithFlags(&gpu.passed, cudaEventDisableTiming), why);
      const std::vector<Share> slabs = split_evenly(gpu.planes.size(), kSplitChunks);
      for (size_t c = 0; c < slabs.size(); ++c)
        if (!slab_plan(&gpu, {static_cast<int>(c % 2), slabs[c].size()}, why)) return false;
      gpu.columns = split_evenly(gpu.rows.size() * row_, kSplitChunks);
      for (auto *events : {&gpu.arrived, &gpu.transformed}) {
        events->assign(gpu.columns.size(), nullptr);
        for (cudaEvent_t &e : *events) GPUFFTW_CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), why);
      }
      for (const Share &chunk : gpu.columns)
        if (!pencil_plan(&gpu, chunk.size(), why)) return false;
      if (!fits(gpu.device, device_bytes(gpu), why)) return false;
      devices_.push_back(gpu.device);
    }
    peer_ = enable_peer_access(devices_);
    placement = "GPUs " + device_list(devices_) + ": slabs of dim 0 in, dim 1 exchanged " +
                (peer_ ? "GPU to GPU" : "through the host") + ", slabs out";
    return true;
  }

  std::string path() const override { return half_ ? "cuFFT fp32 on halves, slabs over GPUs" : "cuFFT, slabs over GPUs"; }
  bool half() const override { return half_; }

  Halves halves(const char *in, char *out) override {
    Halves halves;
    halves.first = [=](int k, std::string *w) {
      Gpu &gpu = gpus_[k];
      gpu.phases = std::make_unique<Phases>(gpu.st[0], "slab split",
                                            std::vector<std::string>{"first pass", "exchange", "second pass"});
      const bool ok = alloc(&gpu, w) && first_pass(&gpu, in, w);
      gpu.phases->mark();
      return ok;
    };
    halves.second = [=](int k, std::string *w) {
      Gpu &gpu = gpus_[k];
      return exchange(&gpu, w) && (gpu.phases->mark(), true) && second_pass(&gpu, out, w);
    };
    halves.settle = [=](int k, std::string *w) {
      Gpu &gpu = gpus_[k];
      if (gpu.phases) gpu.phases->mark();
      bool ok = true;
      for (cudaStream_t s : gpu.st)
        if (!check(cudaStreamSynchronize(s), "cudaStreamSynchronize", w)) ok = false;
      return ok;
    };
    halves.release = [=](int k) {
      Gpu &gpu = gpus_[k];
      if (gpu.phases) gpu.phases->print(gpu.device);
      gpu.phases.reset();
      for (void *p : {gpu.in == gpu.buf ? nullptr : gpu.in, gpu.buf, gpu.recv, static_cast<void *>(gpu.halves)})
        if (p) cudaFreeAsync(p, gpu.st[0]);
      cudaStreamSynchronize(gpu.st[0]);
      gpu.in = gpu.buf = gpu.recv = nullptr;
      gpu.halves = nullptr;
    };
    return halves;
  }

 private:
  bool slab_plan(Gpu *gpu, std::pair<int, long long> key, std::string *why) {
    if (gpu->slab_plans.count(key)) return true;
    const long long batch = key.second;
    std::vector<long long> trailing(g_.dims.size() - 1);
    for (size_t i = 1; i < g_.dims.size(); ++i) trailing[i - 1] = g_.dims[i].n;
    Step s;
    s.type = cufft_type(g_.type, g_.real);
    s.sign = g_.sign;
    if (!make_plan(&s, static_cast<int>(trailing.size()), trailing.data(), nullptr, 1, plane_in_, nullptr, 1,
                   plane_out_, batch, why))
      return false;
    gpu->slab_plans[key] = s;
    return true;
  }

  // Dim 0 of `batch` columns of the received block [n0][rows * row], in
  // place.
  bool pencil_plan(Gpu *gpu, long long batch, std::string *why) {
    if (gpu->pencil_plans.count(batch)) return true;
    const long long cols = gpu->rows.size() * row_;
    long long n0 = n0_, embed = n0_;
    Step s;
    s.type = complex_type(g_.real);
    s.sign = g_.type == Type::C2C ? g_.sign : CUFFT_FORWARD;
    if (!make_plan(&s, 1, &n0, &embed, cols, 1, &embed, cols, 1, batch, why)) return false;
    gpu->pencil_plans[batch] = s;
    return true;
  }

  size_t device_bytes(const Gpu &gpu) const {
    const size_t local = static_cast<size_t>(gpu.planes.size());
    size_t b = local * plane_out_ * cbytes_ + static_cast<size_t>(n0_ * gpu.rows.size() * row_) * cbytes_;
    if (g_.type != Type::C2C) b += local * plane_in_ * in_.elem;
    b += halves_bytes(gpu);
    for (const auto &p : gpu.slab_plans) b += p.second.work;
    for (const auto &p : gpu.pencil_plans) b += p.second.work;
    return b;
  }

  // The halves a GPU's slabs take on their way in, or its output's on
  // their way out, whichever is more; none in single precision.
  size_t halves_bytes(const Gpu &gpu) const {
    if (!half_) return 0;
    const size_t in = static_cast<size_t>(gpu.planes.size() * plane_in_) * in_.elem,
                 out = static_cast<size_t>(n0_ * gpu.rows.size() * row_) * cbytes_;
    return std::max(in, out) / 2;
  }

  bool alloc(Gpu *gpu, std::string *why) {
    const size_t local = static_cast<size_t>(gpu->planes.size());
    GPUFFTW_CK(cudaMallocAsync(&gpu->buf, local * plane_out_ * cbytes_, gpu->st[0]), why);
    gpu->in = gpu->buf;
    if (g_.type != Type::C2C) GPUFFTW_CK(cudaMallocAsync(&gpu->in, local * plane_in_ * in_.elem, gpu->st[0]), why);
    GPUFFTW_CK(cudaMallocAsync(&gpu->recv, static_cast<size_t>(n0_ * gpu->rows.size() * row_) * cbytes_, gpu->st[0]),
               why);
    if (half_) GPUFFTW_CK(cudaMallocAsync(reinterpret_cast<void **>(&gpu->halves), halves_bytes(*gpu), gpu->st[0]), why);
    // The second stream must not touch them before they exist.
    GPUFFTW_CK(cudaEventRecord(gpu->passed, gpu->st[0]), why);
    GPUFFTW_CK(cudaStreamWaitEvent(gpu->st[1], gpu->passed, 0), why);
    return true;
  }

  bool first_pass(Gpu *gpu, const char *in, std::string *why) {
    if (fault_injected("execute", why)) return false;
    const std::vector<Share> chunks = split_evenly(gpu->planes.size(), kSplitChunks);
    for (size_t c = 0; c < chunks.size(); ++c) {
      cudaStream_t s = gpu->st[c % 2];
      const long long first = gpu->planes.begin + chunks[c].begin;
      char *d_in = static_cast<char *>(gpu->in) + chunks[c].begin * plane_in_ * in_.elem;
      char *d_out = static_cast<char *>(gpu->buf) + chunks[c].begin * plane_out_ * cbytes_;
      if (!copy_in(gpu, d_in, in + first * plane_in_ * in_.elem, chunks[c].begin * plane_in_,
                   chunks[c].size() * plane_in_, s, why))
        return false;
      if (!exec_plan(gpu->slab_plans.at({static_cast<int>(c % 2), chunks[c].size()}), s, d_in, d_out, why)) return false;
    }
    cudaEvent_t other;
    GPUFFTW_CK(cudaEventCreateWithFlags(&other, cudaEventDisableTiming), why);
    const bool ok = check(cudaEventRecord(other, gpu->st[1]), "cudaEventRecord", why) &&
                    check(cudaStreamWaitEvent(gpu->st[0], other, 0), "cudaStreamWaitEvent", why) &&
                    check(cudaEventRecord(gpu->passed, gpu->st[0]), "cudaEventRecord", why);
    cudaEventDestroy(other);
    return ok;
  }

  // Rows [c_k, e_k) of every plane, from the GPU that holds the plane,
  // into recv as [n0][rows * row], on the first stream a chunk of columns
  // at a time: the second pass transforms a chunk while the next arrives.
  bool exchange(Gpu *gpu, std::string *why) {
    const size_t pitch = static_cast<size_t>(gpu->rows.size() * row_) * cbytes_;
    const size_t plane = static_cast<size_t>(plane_out_) * cbytes_;
    for (const Gpu &from : gpus_) GPUFFTW_CK(cudaStreamWaitEvent(gpu->st[0], from.passed, 0), why);
    for (size_t c = 0; c < gpu->columns.size(); ++c) {
      const Share &chunk = gpu->columns[c];
      const size_t width = static_cast<size_t>(chunk.size()) * cbytes_;
      for (const Gpu &from : gpus_) {
        char *src = static_cast<char *>(from.buf) + (gpu->rows.begin * row_ + chunk.begin) * cbytes_;
        char *dst = static_cast<char *>(gpu->recv) + from.planes.begin * pitch + chunk.begin * cbytes_;
        if (!pull_rows(dst, pitch, from.device, src, plane, width, static_cast<size_t>(from.planes.size()), peer_,
                       gpu->st[0], why))
          return false;
      }
      GPUFFTW_CK(cudaEventRecord(gpu->arrived[c], gpu->st[0]), why);
    }
    return true;
  }

  // Each chunk's dim 0 on the second stream once it has arrived; then, on
  // the first, the chunks go out joined into rows of kMinRowBytes or more,
  // each run once its last chunk is transformed. A pageable output is
  // drained by the host, which holds this thread until it is written: every
  // FFT is queued before.
  bool second_pass(Gpu *gpu, char *out, std::string *why) {
    const size_t pitch = static_cast<size_t>(gpu->rows.size() * row_) * cbytes_;
    char *recv = static_cast<char *>(gpu->recv);
    for (size_t c = 0; c < gpu->columns.size(); ++c) {
      const Share &chunk = gpu->columns[c];
      char *at = recv + chunk.begin * cbytes_;
      GPUFFTW_CK(cudaStreamWaitEvent(gpu->st[1], gpu->arrived[c], 0), why);
      if (!exec_plan(gpu->pencil_plans.at(chunk.size()), gpu->st[1], at, at, why)) return false;
      GPUFFTW_CK(cudaEventRecord(gpu->transformed[c], gpu->st[1]), why);
    }
    const long long least = static_cast<long long>((kMinRowBytes + cbytes_ - 1) / cbytes_);
    size_t c = 0;
    for (const Share &run : join_until(gpu->columns, least)) {
      while (gpu->columns[c].end < run.end) ++c;
      GPUFFTW_CK(cudaStreamWaitEvent(gpu->st[0], gpu->transformed[c], 0), why);
      char *dst = out + (gpu->rows.begin * row_ + run.begin) * cbytes_;
      if (!copy_out(gpu, dst, run, pitch, why)) return false;
    }
    return true;
  }

  // `count` elements of the input from the host at `src` to `d_in`, the
  // `at`-th element of the GPU's slabs, on `s`: as they are, or as halves
  // made floats where they land.
  bool copy_in(Gpu *gpu, char *d_in, const char *src, long long at, long long count, cudaStream_t s,
               std::string *why) {
    if (!half_) return gpu->copier.to_device(d_in, src, static_cast<size_t>(count) * in_.elem, s, why);
    const size_t values = in_.elem / sizeof(float);
    uint16_t *h = gpu->halves + static_cast<size_t>(at) * values;
    const size_t n = static_cast<size_t>(count) * values;
    if (!fp16::to_device_halves(gpu->copier, h, reinterpret_cast<const float *>(src), n, s, why)) return false;
    GPUFFTW_CK(fp16::device_to_float(h, reinterpret_cast<float *>(d_in), static_cast<long long>(n), s), why);
    return true;
  }

  // The columns `run` of the received block (rows `pitch` bytes apart) to
  // the host at `dst`, its rows a plane apart, on the first stream: as
  // they are, or made halves where they lie and floats again on the host.
  bool copy_out(Gpu *gpu, char *dst, const Share &run, size_t pitch, std::string *why) {
    const char *src = static_cast<const char *>(gpu->recv) + run.begin * cbytes_;
    if (!half_)
      return gpu->copier.rows_to_host(dst, static_cast<size_t>(plane_out_) * cbytes_, src, pitch,
                                      static_cast<size_t>(run.size()) * cbytes_, static_cast<size_t>(n0_), gpu->st[0],
                                      why);
    const size_t values = cbytes_ / sizeof(float), row_values = pitch / sizeof(float);
    const size_t width = static_cast<size_t>(run.size()) * values;
    uint16_t *h = gpu->halves + static_cast<size_t>(run.begin) * values;
    GPUFFTW_CK(fp16::device_rows_to_half(reinterpret_cast<const float *>(src), static_cast<long long>(row_values), h,
                                         static_cast<long long>(row_values), static_cast<long long>(width), n0_,
                                         gpu->st[0]),
               why);
    return fp16::rows_to_host_floats(gpu->copier, reinterpret_cast<float *>(dst), static_cast<size_t>(plane_out_) * values,
                                     h, row_values, width, static_cast<size_t>(n0_), gpu->st[0], why);
  }

  Geometry g_;
  const bool half_;
  Side in_, out_;
  size_t cbytes_ = 0;
  long long n0_ = 0, n1_ = 0, plane_in_ = 0, plane_out_ = 0, row_ = 0;
  std::vector<Gpu> gpus_;
  bool peer_ = false;  // every GPU of the split reads the others' memory directly
};

std::unique_ptr<FftJob> make_slab_split(const Geometry &g, const Ask &ask, Reason *why_not) {
  const Geometry h = without_unit_loops(g);
  auto job = std::make_unique<SlabSplitJob>(h, ask.set[0], ask.one_gpu);
  std::string why;
  if (!job->init(ask.set, &why)) return *why_not = {Reason::Code::NoJob, "slabs: " + why}, nullptr;
  return job;
}

}  // namespace

const Solver kSlabSplitSolver = {"slab split", true, Gives::Transform, slab_split_suits, slab_split_cost,
                                 make_slab_split};

}  // namespace gpufftw::engine
