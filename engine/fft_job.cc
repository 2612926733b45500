#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "engine/context.h"
#include "engine/engine.h"

namespace gpufftw::engine {
namespace {

// cuFFT plans by geometry. A plan is held by one job at a time (jobs run
// concurrently on their own streams); a destroyed job's plan waits here
// for the next job of the same geometry.
using Key = std::tuple<int, int, int, std::vector<long long>>;

class PlanCache {
 public:
  bool take(const Key &k, cufftHandle *h) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = idle_.find(k);
    if (it == idle_.end() || it->second.empty()) return false;
    *h = it->second.back();
    it->second.pop_back();
    return true;
  }
  void give_back(const Key &k, cufftHandle h) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_[k].push_back(h);
  }

 private:
  std::mutex mutex_;
  std::map<Key, std::vector<cufftHandle>> idle_;
};

PlanCache &plan_cache() {
  static PlanCache *c = new PlanCache;  // never destroyed: jobs may outlive statics
  return *c;
}

cufftType cufft_type(Type t, Real r) {
  switch (t) {
    case Type::C2C: return r == Real::F32 ? CUFFT_C2C : CUFFT_Z2Z;
    case Type::R2C: return r == Real::F32 ? CUFFT_R2C : CUFFT_D2Z;
    case Type::C2R: return r == Real::F32 ? CUFFT_C2R : CUFFT_Z2D;
  }
  return CUFFT_C2C;
}

// Elements of the layout's span, for logical sizes `n` over physical `nembed`.
long long span_elems(const Layout &l, const long long *n, const long long *nembed, long long stride, long long dist) {
  long long last = (l.batch - 1) * dist, scale = stride;
  for (int i = l.rank - 1; i >= 0; --i) {
    last += (n[i] - 1) * scale;
    scale *= nembed[i];
  }
  return last + 1;
}

bool is_device(const void *p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

class CufftJob final : public FftJob {
 public:
  CufftJob(Type type, Real real, int sign, Key key, cufftHandle plan, cudaStream_t stream, Spans spans)
      : type_(type), real_(real), sign_(sign), key_(std::move(key)), plan_(plan), stream_(stream), spans_(spans) {}
  ~CufftJob() override {
    cudaStreamSynchronize(stream_);
    plan_cache().give_back(key_, plan_);
    cudaStreamDestroy(stream_);
  }

  const Spans &spans() const override { return spans_; }

  bool run(const void *in, void *out, std::string *why) override {
    if (fault_injected("execute", why)) return false;
    GPUFFTW_CK(cudaSetDevice(device()), why);
    const bool in_place = in == out;
    const bool in_dev = is_device(in), out_dev = in_place ? in_dev : is_device(out);
    // cuFFT's c2r overwrites its input; a caller's input never is.
    const bool stage_in = !in_dev || (type_ == Type::C2R && !in_place);
    // In place, the array is the larger of the two spans (the complex side
    // of an in-place r2c or c2r is longer than the real one).
    const size_t in_bytes = in_place ? std::max(spans_.in_bytes, spans_.out_bytes) : spans_.in_bytes;
    void *d_in = const_cast<void *>(in), *d_out = out;
    std::vector<void *> scratch;
    bool ok = stage(stage_in, in, in_dev, in_bytes, &d_in, &scratch, why);
    if (ok && in_place) d_out = d_in;
    if (ok && !in_place && !out_dev) {
      ok = alloc(spans_.out_bytes, &d_out, &scratch, why);
      // Bytes of the span the FFT does not write must come back unchanged.
      if (ok && spans_.out_has_gaps)
        ok = check(cudaMemcpyAsync(d_out, out, spans_.out_bytes, cudaMemcpyHostToDevice, stream_), "cudaMemcpyAsync(out gaps)", why);
    }
    if (ok) ok = exec(d_in, d_out, why);
    if (ok && !out_dev)
      ok = check(cudaMemcpyAsync(out, d_out, in_place ? in_bytes : spans_.out_bytes, cudaMemcpyDeviceToHost,
                                 stream_),
                 "cudaMemcpyAsync(device to host)", why);
    if (ok) ok = check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize", why);
    for (void *p : scratch) cudaFreeAsync(p, stream_);
    if (!ok) cudaStreamSynchronize(stream_);
    return ok;
  }

 private:
  bool alloc(size_t bytes, void **p, std::vector<void *> *scratch, std::string *why) {
    if (fault_injected("alloc", why)) return false;
    GPUFFTW_CK(cudaMallocAsync(p, bytes, stream_), why);
    scratch->push_back(*p);
    return true;
  }

  bool stage(bool needed, const void *src, bool src_dev, size_t bytes, void **dst, std::vector<void *> *scratch,
             std::string *why) {
    if (!needed) return true;
    if (!alloc(bytes, dst, scratch, why)) return false;
    return check(cudaMemcpyAsync(*dst, src, bytes, src_dev ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice, stream_),
                 "cudaMemcpyAsync(stage input)", why);
  }

  bool exec(void *in, void *out, std::string *why) {
    const Cufft &f = cufft();
    GPUFFTW_CK(f.set_stream(plan_, stream_), why);
    switch (cufft_type(type_, real_)) {
      case CUFFT_C2C:
        GPUFFTW_CK(f.exec_c2c(plan_, static_cast<cufftComplex *>(in), static_cast<cufftComplex *>(out), sign_), why);
        break;
      case CUFFT_Z2Z:
        GPUFFTW_CK(f.exec_z2z(plan_, static_cast<cufftDoubleComplex *>(in), static_cast<cufftDoubleComplex *>(out), sign_), why);
        break;
      case CUFFT_R2C:
        GPUFFTW_CK(f.exec_r2c(plan_, static_cast<cufftReal *>(in), static_cast<cufftComplex *>(out)), why);
        break;
      case CUFFT_D2Z:
        GPUFFTW_CK(f.exec_d2z(plan_, static_cast<cufftDoubleReal *>(in), static_cast<cufftDoubleComplex *>(out)), why);
        break;
      case CUFFT_C2R:
        GPUFFTW_CK(f.exec_c2r(plan_, static_cast<cufftComplex *>(in), static_cast<cufftReal *>(out)), why);
        break;
      case CUFFT_Z2D:
        GPUFFTW_CK(f.exec_z2d(plan_, static_cast<cufftDoubleComplex *>(in), static_cast<cufftDoubleReal *>(out)), why);
        break;
    }
    return true;
  }

  Type type_;
  Real real_;
  int sign_;
  Key key_;
  cufftHandle plan_;
  cudaStream_t stream_;
  Spans spans_;
};

}  // namespace

std::unique_ptr<FftJob> FftJob::create(Type type, Real real, const Layout &l, int sign, std::string *why) {
  if (!gpu_available(why) || fault_injected("plan", why)) return nullptr;
  if (!check(cudaSetDevice(device()), "cudaSetDevice", why)) return nullptr;
  const cufftType t = cufft_type(type, real);
  // Logical sizes of each side: the complex side of r2c/c2r keeps n/2+1.
  long long nin[3], nout[3];
  for (int i = 0; i < l.rank; ++i) nin[i] = nout[i] = l.n[i];
  if (type == Type::R2C) nout[l.rank - 1] = l.n[l.rank - 1] / 2 + 1;
  if (type == Type::C2R) nin[l.rank - 1] = l.n[l.rank - 1] / 2 + 1;
  const size_t real_size = real == Real::F32 ? sizeof(float) : sizeof(double);
  const size_t in_elem = type == Type::R2C ? real_size : 2 * real_size;
  const size_t out_elem = type == Type::C2R ? real_size : 2 * real_size;
  Spans spans;
  const long long in_span = span_elems(l, nin, l.inembed, l.istride, l.idist);
  const long long out_span = span_elems(l, nout, l.onembed, l.ostride, l.odist);
  spans.in_bytes = static_cast<size_t>(in_span) * in_elem;
  spans.out_bytes = static_cast<size_t>(out_span) * out_elem;
  long long written = l.batch;
  for (int i = 0; i < l.rank; ++i) written *= nout[i];
  spans.out_has_gaps = written != out_span;

  std::vector<long long> geometry(l.n, l.n + l.rank);
  geometry.insert(geometry.end(), l.inembed, l.inembed + l.rank);
  geometry.insert(geometry.end(), l.onembed, l.onembed + l.rank);
  geometry.insert(geometry.end(), {l.istride, l.idist, l.ostride, l.odist, l.batch});
  Key key{static_cast<int>(t), l.rank, device(), geometry};
  cufftHandle plan = 0;
  if (!plan_cache().take(key, &plan)) {
    const Cufft &f = cufft();
    if (!check(f.create(&plan), "cufftCreate", why)) return nullptr;
    long long n[3], inembed[3], onembed[3];
    std::memcpy(n, l.n, sizeof n);
    std::memcpy(inembed, l.inembed, sizeof inembed);
    std::memcpy(onembed, l.onembed, sizeof onembed);
    size_t work = 0;
    if (!check(f.make_plan_many64(plan, l.rank, n, inembed, l.istride, l.idist, onembed, l.ostride, l.odist, t,
                                  l.batch, &work),
               "cufftMakePlanMany64", why)) {
      f.destroy(plan);
      return nullptr;
    }
  }
  cudaStream_t stream = nullptr;
  if (!check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags", why)) {
    plan_cache().give_back(key, plan);
    return nullptr;
  }
  return std::make_unique<CufftJob>(type, real, sign, key, plan, stream, spans);
}

}  // namespace gpufftw::engine
