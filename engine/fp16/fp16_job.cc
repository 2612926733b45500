#include "engine/fp16/fp16_job.h"

#include <vector>

#include "engine/cufft/plan_cache.h"
#include "engine/device/context.h"
#include "engine/kernels/device_half.h"
#include "engine/fp16/fp16_fft.h"
#include "engine/staging/half_staging.h"
#include "engine/staging/host_half.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine::fp16 {
namespace {

// A dense batch: the sizes, and each side's extents, row-major, transforms
// back to back. The complex side of r2c and c2r holds n/2 + 1 numbers
// along the last axis; the real side n reals, or 2 (n/2 + 1) in place
// (FFTW's padded rows, which only an in-place plan's array is sure to hold
// after its last row).
struct Dense {
  Type type = Type::C2C;
  std::vector<long long> n, in_extent, out_extent;
  long long batch = 1;
  bool in_complex = true, out_complex = true;
  long long values(bool out_side) const {  // floats of one side, all transforms
    const std::vector<long long> &e = out_side ? out_extent : in_extent;
    return product(e, 0, e.size()) * batch * ((out_side ? out_complex : in_complex) ? 2 : 1);
  }
};

// Whether one side lies row-major over `extent`, its transforms `dist`
// apart; *dist is then one transform's elements.
bool row_major(const Geometry &g, bool out_side, const std::vector<long long> &extent, long long *dist) {
  long long stride = 1;
  for (size_t k = g.dims.size(); k-- > 0;) {
    const long long s = out_side ? g.dims[k].os : g.dims[k].is;
    if (extent[k] > 1 && s != stride) return false;
    stride *= extent[k];
  }
  *dist = stride;
  if (g.loops.empty() || g.loops[0].n == 1) return true;
  return (out_side ? g.loops[0].os : g.loops[0].is) == stride;
}

bool dense(const Geometry &g, Dense *d, std::string *why_not) {
  if (g.real != Real::F32) return *why_not = "not single precision", false;
  if (g.type == Type::R2R) return *why_not = "r2r", false;
  if (g.split_in || g.split_out) return *why_not = "split arrays", false;
  if (g.dims.empty() || g.dims.size() > 3) return *why_not = "rank " + std::to_string(g.dims.size()), false;
  if (g.loops.size() > 1) return *why_not = "several howmany dims", false;
  d->type = g.type;
  d->n.clear();
  for (const Axis &a : g.dims) d->n.push_back(a.n);
  d->batch = g.loops.empty() ? 1 : g.loops[0].n;
  d->in_extent = d->out_extent = d->n;
  d->in_complex = g.type != Type::R2C;
  d->out_complex = g.type != Type::C2R;
  if (g.type != Type::C2C) {
    const long long half = d->n.back() / 2 + 1;
    (g.type == Type::R2C ? d->out_extent : d->in_extent).back() = half;
    if (g.in_place) (g.type == Type::R2C ? d->in_extent : d->out_extent).back() = 2 * half;
  }
  long long in_dist = 0, out_dist = 0;
  if (!row_major(g, false, d->in_extent, &in_dist) || !row_major(g, true, d->out_extent, &out_dist))
    return *why_not = g.type == Type::C2C ? "not a dense row-major batch"
                                          : "not a dense row-major batch (the real side's rows n, or 2 (n/2 + 1) "
                                            "reals in place)",
           false;
  return true;
}

bool powers_of_two(const std::vector<long long> &n) {
  for (long long v : n)
    if (v < 1 || (v & (v - 1)) != 0) return false;
  return true;
}

const char *type_name(Type t) { return t == Type::C2C ? "c2c" : t == Type::R2C ? "r2c" : "c2r"; }

class Fp16Job final : public FftJob {
 public:
  Fp16Job(Dense d, HalfWay way, int sign) : d_(std::move(d)), way_(way), sign_(sign) {}
  ~Fp16Job() override {
    if (stream_) cudaStreamSynchronize(stream_);
    if (have_xt_) cufft().destroy(xt_);
    if (have_step_) retire_plan(step_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  bool init(std::string *why) {
    GPUFFTW_CK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), why);
    const long long rank = static_cast<long long>(d_.n.size());
    const long long in_dist = product(d_.in_extent, 0, d_.in_extent.size());
    const long long out_dist = product(d_.out_extent, 0, d_.out_extent.size());
    switch (way_) {
      case HalfWay::Ours: {
        if (d_.type == Type::C2R) return *why = "our tensor-core kernels take c2c and r2c only", false;
        std::vector<int> sizes;
        for (long long v : d_.n) sizes.push_back(v > (1 << 30) ? 0 : static_cast<int>(v));
        ours_ = Fp16Plan::create(sizes, d_.batch, why);
        if (!ours_) return false;
        path_ = ours_->describe();
        if (d_.type == Type::R2C) path_ += ", r2c as c2c of the reals";
        break;
      }
      case HalfWay::CufftHalf: {
        if (!powers_of_two(d_.n)) return *why = "cuFFT's FP16 takes powers of two only", false;
        const Cufft &f = cufft();
        GPUFFTW_CK(f.create(&xt_), why);
        have_xt_ = true;
        // The real side's padded rows (in place) as cuFFT's embed; the
        // complex side is dense.
        std::vector<long long> in_embed = d_.in_extent, out_embed = d_.out_extent;
        const cudaDataType in_t = d_.in_complex ? CUDA_C_16F : CUDA_R_16F;
        const cudaDataType out_t = d_.out_complex ? CUDA_C_16F : CUDA_R_16F;
        GPUFFTW_CK(f.xt_make_plan_many(xt_, static_cast<int>(rank), d_.n.data(), in_embed.data(), 1, in_dist, in_t,
                                       out_embed.data(), 1, out_dist, out_t, d_.batch, &work_, CUDA_C_16F),
                   why);
        path_ = std::string("cuFFT fp16 ") + type_name(d_.type);
        break;
      }
      case HalfWay::SingleOnHalves: {
        // Each side's floats as its halves lie (the real side's padded
        // rows in place as the embed); r2c and c2r out of place between
        // the two.
        std::vector<long long> in_embed = d_.in_extent, out_embed = d_.out_extent;
        step_.type = d_.type == Type::C2C ? CUFFT_C2C : d_.type == Type::R2C ? CUFFT_R2C : CUFFT_C2R;
        step_.sign = sign_;
        if (!make_plan(&step_, static_cast<int>(rank), d_.n.data(), in_embed.data(), 1, in_dist, out_embed.data(), 1,
                       out_dist, d_.batch, why))
          return false;
        have_step_ = true;
        work_ = step_.work;
        path_ = "cuFFT fp32 on halves";
        break;
      }
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
    void *buf = nullptr, *scratch = nullptr;
    GPUFFTW_CK(cudaMallocAsync(&buf, buffer_halves() * sizeof(uint16_t), stream_), why);
    bool ok = scratch_bytes() == 0 ||
              check(cudaMallocAsync(&scratch, scratch_bytes(), stream_), "cudaMallocAsync", why);
    ok = ok && run_on(static_cast<uint16_t *>(buf), scratch, static_cast<const float *>(in[0]), on_device(in_mem),
                      static_cast<float *>(out[0]), on_device(out_mem), why);
    if (ok) ok = check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", why);
    cudaFreeAsync(buf, stream_);
    if (scratch) cudaFreeAsync(scratch, stream_);
    cudaStreamSynchronize(stream_);
    return ok;
  }

 private:
  // The halves of the input side, then (r2c, c2r) those of the output side
  // at a 256-byte boundary; c2c transforms in place on the first.
  // HalfWay::SingleOnHalves's floats lie the same way in its scratch.
  long long out_offset() const {
    if (d_.type == Type::C2C) return 0;
    return (d_.values(false) + 127) / 128 * 128;
  }
  int direction() const {
    return d_.type == Type::R2C ? CUFFT_FORWARD : d_.type == Type::C2R ? CUFFT_INVERSE : sign_;
  }
  long long buffer_halves() const { return d_.type == Type::C2C ? d_.values(false) : out_offset() + d_.values(true); }
  // Rows along the last axis, all transforms.
  long long rows() const { return product(d_.n, 0, d_.n.size() - 1) * d_.batch; }
  // Our kernels' r2c: the reals as complex numbers with zero imaginary
  // parts through the c2c kernels, the first n/2 + 1 of each row kept.
  // Twice the device's passes of a c2c of half the length and its split
  // step, but the kernels' rounding (f32 accumulation, half once per
  // radix-16 step) on every size they take, where cuFFT's FP16 computes
  // its steps in half; the bus, which sets the time on host arrays,
  // carries the same halves either way.
  bool ours_r2c() const { return way_ == HalfWay::Ours && d_.type == Type::R2C; }
  // Device memory beside the buffer: the floats of HalfWay::SingleOnHalves,
  // laid out as the buffer's halves, or our r2c's complex halves (rows of
  // n).
  size_t scratch_bytes() const {
    if (way_ == HalfWay::SingleOnHalves) return static_cast<size_t>(buffer_halves()) * sizeof(float);
    if (ours_r2c()) return static_cast<size_t>(rows() * d_.n.back()) * 2 * sizeof(uint16_t);
    return 0;
  }
  size_t device_bytes() const {
    return static_cast<size_t>(buffer_halves()) * sizeof(uint16_t) + scratch_bytes() + work_;
  }

  // `scratch`: scratch_bytes() of device memory.
  bool run_on(uint16_t *buf, void *scratch, const float *in, bool in_dev, float *out, bool out_dev, std::string *why) {
    const long long in_values = d_.values(false), out_values = d_.values(true);
    uint16_t *result = buf + out_offset();
    if (in_dev)
      GPUFFTW_CK(device_to_half(in, buf, in_values, stream_), why);
    else if (!to_device_halves(copier_, buf, in, static_cast<size_t>(in_values), stream_, why))
      return false;
    switch (way_) {
      case HalfWay::Ours:
        if (ours_r2c()) {
          const size_t row = d_.n.back() * sizeof(uint32_t), kept = d_.out_extent.back() * sizeof(uint32_t);
          uint32_t *complex = static_cast<uint32_t *>(scratch);
          GPUFFTW_CK(real_to_complex_half(buf, d_.in_extent.back(), d_.n.back(), rows(), complex, stream_), why);
          if (!ours_->run(complex, complex, direction(), stream_, why)) return false;
          GPUFFTW_CK(cudaMemcpy2DAsync(result, kept, complex, row, kept, rows(), cudaMemcpyDeviceToDevice, stream_), why);
        } else if (!ours_->run(buf, buf, sign_, stream_, why)) {
          return false;
        }
        break;
      case HalfWay::CufftHalf:
        GPUFFTW_CK(cufft().set_stream(xt_, stream_), why);
        GPUFFTW_CK(cufft().xt_exec(xt_, buf, result, direction()), why);
        break;
      case HalfWay::SingleOnHalves: {
        float *floats = static_cast<float *>(scratch), *out_floats = floats + out_offset();
        GPUFFTW_CK(device_to_float(buf, floats, in_values, stream_), why);
        if (!exec_plan(step_, stream_, floats, out_floats, why)) return false;
        GPUFFTW_CK(device_to_half(out_floats, result, out_values, stream_), why);
        break;
      }
    }
    if (out_dev) {
      GPUFFTW_CK(device_to_float(result, out, out_values, stream_), why);
      return true;
    }
    return to_host_floats(copier_, out, result, static_cast<size_t>(out_values), stream_, why);
  }

  Dense d_;
  HalfWay way_;
  int sign_;
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
  Dense d;
  why_not->code = Reason::Code::NotItsKind;
  if (!dense(g, &d, &why_not->text)) return nullptr;
  why_not->code = Reason::Code::NoJob;
  auto job = std::make_unique<Fp16Job>(std::move(d), g.half_way, g.sign);
  if (!job->init(&why_not->text)) return nullptr;
  return job;
}

// Halves over the link, each way; on the device, a conversion pass over
// the floats and the transform's pass over the halves.
Price cost(const Geometry &g, const std::vector<int> &) {
  const double bytes = array_bytes(g);
  return {bytes / 2, 1.5 * bytes};
}

}  // namespace

}  // namespace gpufftw::engine::fp16

namespace gpufftw::engine {

const Solver kFp16Solver = {"fp16", false, Gives::Half, fp16::asked, fp16::cost, fp16::make_job};

}  // namespace gpufftw::engine
