#include "engine/fp16/fp16_job.h"

#include <vector>

#include "engine/cufft/plan_cache.h"
#include "engine/device/context.h"
#include "engine/fp16/device_half.h"
#include "engine/fp16/fp16_fft.h"
#include "engine/fp16/half_staging.h"
#include "engine/fp16/host_half.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine::fp16 {
namespace {

// The sizes and batch of a dense layout: each side row-major over the
// dims, unit stride, the loop's transforms back to back.
bool dense(const Geometry &g, std::vector<long long> *n, long long *batch, std::string *why_not) {
  if (g.type != Type::C2C || g.real != Real::F32) return *why_not = "not a c2c f32 transform", false;
  if (g.split_in || g.split_out) return *why_not = "split arrays", false;
  if (g.dims.empty() || g.dims.size() > 3) return *why_not = "rank " + std::to_string(g.dims.size()), false;
  if (g.loops.size() > 1) return *why_not = "several howmany dims", false;
  long long stride = 1;
  for (size_t k = g.dims.size(); k-- > 0;) {
    const Axis &a = g.dims[k];
    if (a.n > 1 && (a.is != stride || a.os != stride)) return *why_not = "not a dense row-major layout", false;
    stride *= a.n;
  }
  n->clear();
  for (const Axis &a : g.dims) n->push_back(a.n);
  *batch = g.loops.empty() ? 1 : g.loops[0].n;
  if (*batch > 1 && (g.loops[0].is != stride || g.loops[0].os != stride))
    return *why_not = "transforms not back to back", false;
  return true;
}

// How the transform runs on the device's halves.
enum class Compute {
  Ours,       // our tensor-core kernels, in place on the halves
  CufftHalf,  // cuFFT's FP16, in place on the halves
  // cuFFT's single precision on floats made from the halves and back: the
  // sizes neither of the above takes still cross PCIe as halves.
  SingleOnHalves,
};

class Fp16Job final : public FftJob {
 public:
  Fp16Job(std::vector<long long> n, long long batch, int sign, std::unique_ptr<FftJob> single)
      : n_(std::move(n)), batch_(batch), sign_(sign), points_(product(n_, 0, n_.size()) * batch),
        single_(std::move(single)) {}
  ~Fp16Job() override {
    if (stream_) cudaStreamSynchronize(stream_);
    if (have_xt_) cufft().destroy(xt_);
    if (have_step_) retire_plan(step_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  bool init(std::string *why) {
    GPUFFTW_CK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), why);
    std::vector<int> sizes;
    for (long long v : n_) sizes.push_back(v > (1 << 30) ? 0 : static_cast<int>(v));
    std::string not_ours;
    ours_ = Fp16Plan::create(sizes, batch_, &not_ours);
    bool powers_of_two = true;
    for (long long v : n_) powers_of_two &= v > 0 && (v & (v - 1)) == 0;
    const long long dist = product(n_, 0, n_.size());
    const Cufft &f = cufft();
    if (ours_) {
      compute_ = Compute::Ours;
      path_ = ours_->describe();
    } else if (powers_of_two) {
      compute_ = Compute::CufftHalf;
      GPUFFTW_CK(f.create(&xt_), why);
      have_xt_ = true;
      GPUFFTW_CK(f.xt_make_plan_many(xt_, static_cast<int>(n_.size()), n_.data(), nullptr, 1, dist, CUDA_C_16F,
                                     nullptr, 1, dist, CUDA_C_16F, batch_, &work_, CUDA_C_16F),
                 why);
      path_ = "cuFFT fp16 (" + not_ours + ")";
    } else {
      compute_ = Compute::SingleOnHalves;
      step_.type = CUFFT_C2C;
      step_.sign = sign_;
      if (!make_plan(&step_, static_cast<int>(n_.size()), n_.data(), nullptr, 1, dist, nullptr, 1, dist, batch_, why))
        return false;
      have_step_ = true;
      work_ = step_.work;
      path_ = "cuFFT fp32 on halves (" + not_ours + "; cuFFT's FP16 takes powers of two only)";
    }
    const size_t need = device_bytes();
    if (need > device_memory_cap())
      return *why = "needs " + std::to_string(need >> 20) + " MiB of device memory, over the cap of " +
                    std::to_string(device_memory_cap() >> 20) + " MiB",
             false;
    path_ += std::string(", host arrays converted ") + (cpu_has_f16c() ? "with F16C" : "by scalar code");
    if (single_) {
      path_ += "; pinned host arrays";
      if (compute_ == Compute::SingleOnHalves) path_ += " and device arrays";
      path_ += " in single precision (" + single_->path() + ")";
    }
    return true;
  }

  std::string path() const override { return path_; }
  bool half() const override { return true; }

  bool run(void *const in[2], void *const out[2], std::string *why) override {
    if (fault_injected("execute", why)) return false;
    GPUFFTW_CK(cudaSetDevice(device()), why);
    const Memory in_mem = memory_type(in[0]), out_mem = memory_type(out[0]);
    // Halves pay where the host converts anyway or the bus is the
    // bottleneck: not for pinned host arrays, which the DMA engines read
    // faster than the host converts them (docs/fp16.md), nor for device
    // arrays when the transform is in single precision anyway.
    const bool pinned = in_mem == Memory::Pinned && out_mem == Memory::Pinned;
    const bool device = on_device(in_mem) && on_device(out_mem);
    if (single_ && (pinned || (device && compute_ == Compute::SingleOnHalves))) return single_->run(in, out, why);
    if (!after_default_streams(in_mem, out_mem, stream_, why)) return false;
    if (fault_injected("alloc", why)) return false;
    void *buf = nullptr, *floats = nullptr;
    GPUFFTW_CK(cudaMallocAsync(&buf, points_ * 2 * sizeof(uint16_t), stream_), why);
    bool ok = compute_ != Compute::SingleOnHalves ||
              check(cudaMallocAsync(&floats, points_ * 2 * sizeof(float), stream_), "cudaMallocAsync", why);
    ok = ok && run_on(static_cast<uint16_t *>(buf), static_cast<float *>(floats), static_cast<const float *>(in[0]),
                      on_device(in_mem), static_cast<float *>(out[0]), on_device(out_mem), why);
    if (ok) ok = check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", why);
    cudaFreeAsync(buf, stream_);
    if (floats) cudaFreeAsync(floats, stream_);
    cudaStreamSynchronize(stream_);
    return ok;
  }

 private:
  size_t device_bytes() const {
    const size_t halves = static_cast<size_t>(points_) * 2 * sizeof(uint16_t);
    return halves * (compute_ == Compute::SingleOnHalves ? 3 : 1) + work_;
  }

  // `floats`: the single-precision buffer of Compute::SingleOnHalves.
  bool run_on(uint16_t *buf, float *floats, const float *in, bool in_dev, float *out, bool out_dev, std::string *why) {
    const long long values = 2 * points_;
    if (in_dev)
      GPUFFTW_CK(device_to_half(in, buf, values, stream_), why);
    else if (!to_device_halves(copier_, buf, in, static_cast<size_t>(values), stream_, why))
      return false;
    switch (compute_) {
      case Compute::Ours:
        if (!ours_->run(buf, buf, sign_, stream_, why)) return false;
        break;
      case Compute::CufftHalf:
        GPUFFTW_CK(cufft().set_stream(xt_, stream_), why);
        GPUFFTW_CK(cufft().xt_exec(xt_, buf, buf, sign_), why);
        break;
      case Compute::SingleOnHalves:
        GPUFFTW_CK(device_to_float(buf, floats, values, stream_), why);
        if (!exec_plan(step_, stream_, floats, floats, why)) return false;
        GPUFFTW_CK(device_to_half(floats, buf, values, stream_), why);
        break;
    }
    if (out_dev) {
      GPUFFTW_CK(device_to_float(buf, out, values, stream_), why);
      return true;
    }
    return to_host_floats(copier_, out, buf, static_cast<size_t>(values), stream_, why);
  }

  std::vector<long long> n_;
  long long batch_;
  int sign_;
  long long points_;
  std::unique_ptr<FftJob> single_;  // the same problem in single precision, or nullptr
  Compute compute_ = Compute::Ours;
  std::string path_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<Fp16Plan> ours_;
  cufftHandle xt_ = 0;
  bool have_xt_ = false;
  Step step_;
  bool have_step_ = false;
  size_t work_ = 0;
  HostCopier copier_;
};

bool asked(const Geometry &g, const std::vector<int> &, Reason *why_not) {
  if (g.half) return true;
  return decline(why_not, Reason::Code::NotAsked, "single precision asked for");
}

std::unique_ptr<FftJob> make_job(const Geometry &g, const Ask &, Reason *why_not) {
  std::vector<long long> n;
  long long batch = 0;
  why_not->code = Reason::Code::NotItsKind;
  if (!dense(g, &n, &batch, &why_not->text)) return nullptr;
  why_not->code = Reason::Code::NoJob;
  Geometry single = g;
  single.half = false;
  std::string why_single;
  auto job = std::make_unique<Fp16Job>(std::move(n), batch, g.sign, FftJob::create(single, &why_single));
  if (!job->init(&why_not->text)) return nullptr;
  return job;
}

}  // namespace

}  // namespace gpufftw::engine::fp16

namespace gpufftw::engine {

const Solver kFp16Solver = {"fp16", false, Gives::Half, fp16::asked, fp16::make_job};

}  // namespace gpufftw::engine
