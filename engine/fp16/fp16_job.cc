#include "engine/fp16/fp16_job.h"

#include <vector>

#include "engine/context.h"
#include "engine/fp16/device_half.h"
#include "engine/fp16/fp16_fft.h"
#include "engine/fp16/half_staging.h"
#include "engine/fp16/host_half.h"
#include "engine/sides.h"

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

bool power_of_two(long long v) { return v > 0 && (v & (v - 1)) == 0; }

class Fp16Job final : public FftJob {
 public:
  Fp16Job(std::vector<long long> n, long long batch, int sign)
      : n_(std::move(n)), batch_(batch), sign_(sign), points_(product(n_, 0, n_.size()) * batch) {}
  ~Fp16Job() override {
    if (stream_) cudaStreamSynchronize(stream_);
    if (have_xt_) cufft().destroy(xt_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  // The transform in place on the dense halves: our tensor-core kernels,
  // else cuFFT's FP16.
  bool init(std::string *why) {
    GPUFFTW_CK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), why);
    std::vector<int> sizes;
    for (long long v : n_) sizes.push_back(v > (1 << 30) ? 0 : static_cast<int>(v));
    std::string not_ours;
    ours_ = Fp16Plan::create(sizes, batch_, &not_ours);
    if (ours_) {
      path_ = ours_->describe();
    } else {
      for (long long v : n_)
        if (!power_of_two(v))
          return *why = not_ours + "; cuFFT's FP16: n=" + std::to_string(v) + " is not a power of two", false;
      const Cufft &f = cufft();
      GPUFFTW_CK(f.create(&xt_), why);
      have_xt_ = true;
      const long long dist = product(n_, 0, n_.size());
      GPUFFTW_CK(f.xt_make_plan_many(xt_, static_cast<int>(n_.size()), n_.data(), nullptr, 1, dist, CUDA_C_16F,
                                     nullptr, 1, dist, CUDA_C_16F, batch_, &work_, CUDA_C_16F),
                 why);
      path_ = "cuFFT fp16 (" + not_ours + ")";
    }
    const size_t need = device_bytes();
    if (need > device_memory_cap())
      return *why = "needs " + std::to_string(need >> 20) + " MiB of device memory, over the cap of " +
                    std::to_string(device_memory_cap() >> 20) + " MiB",
             false;
    path_ += std::string(", host arrays converted ") + (cpu_has_f16c() ? "with F16C" : "by scalar code");
    return true;
  }

  std::string path() const override { return path_; }
  bool half() const override { return true; }

  bool run(void *const in[2], void *const out[2], std::string *why) override {
    if (fault_injected("execute", why)) return false;
    GPUFFTW_CK(cudaSetDevice(device()), why);
    const Memory in_mem = memory_type(in[0]), out_mem = memory_type(out[0]);
    if (!after_default_streams(in_mem, out_mem, stream_, why)) return false;
    if (fault_injected("alloc", why)) return false;
    void *buf = nullptr;
    GPUFFTW_CK(cudaMallocAsync(&buf, points_ * 2 * sizeof(uint16_t), stream_), why);
    bool ok = run_on(static_cast<uint16_t *>(buf), static_cast<const float *>(in[0]), on_device(in_mem),
                     static_cast<float *>(out[0]), on_device(out_mem), why);
    if (ok) ok = check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", why);
    cudaFreeAsync(buf, stream_);
    cudaStreamSynchronize(stream_);
    return ok;
  }

 private:
  size_t device_bytes() const { return static_cast<size_t>(points_) * 2 * sizeof(uint16_t) + work_; }

  bool run_on(uint16_t *buf, const float *in, bool in_dev, float *out, bool out_dev, std::string *why) {
    const long long values = 2 * points_;
    if (in_dev)
      GPUFFTW_CK(device_to_half(in, buf, values, stream_), why);
    else if (!staging_.to_device(buf, in, static_cast<size_t>(values), stream_, why))
      return false;
    if (ours_) {
      if (!ours_->run(buf, buf, sign_, stream_, why)) return false;
    } else {
      const Cufft &f = cufft();
      GPUFFTW_CK(f.set_stream(xt_, stream_), why);
      GPUFFTW_CK(f.xt_exec(xt_, buf, buf, sign_), why);
    }
    if (out_dev) {
      GPUFFTW_CK(device_to_float(buf, out, values, stream_), why);
      return true;
    }
    return staging_.to_host(out, buf, static_cast<size_t>(values), stream_, why);
  }

  std::vector<long long> n_;
  long long batch_;
  int sign_;
  long long points_;
  std::string path_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<Fp16Plan> ours_;
  cufftHandle xt_ = 0;
  bool have_xt_ = false;
  size_t work_ = 0;
  HalfStaging staging_;
};

}  // namespace

std::unique_ptr<FftJob> make_job(const Geometry &g, std::string *why_not) {
  std::vector<long long> n;
  long long batch = 0;
  if (!dense(g, &n, &batch, why_not)) return nullptr;
  auto job = std::make_unique<Fp16Job>(std::move(n), batch, g.sign);
  if (!job->init(why_not)) return nullptr;
  return job;
}

}  // namespace gpufftw::engine::fp16
