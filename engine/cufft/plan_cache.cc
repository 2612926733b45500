#include "engine/cufft/plan_cache.h"

#include <map>
#include <mutex>
#include <utility>

namespace gpufftw::engine {
namespace {

// cuFFT plans by geometry. A plan is held by one job at a time (jobs run
// concurrently on their own streams); a destroyed job's plan waits here
// for the next job of the same geometry.
class PlanCache {
 public:
  using Entry = std::pair<cufftHandle, size_t>;  // handle, its work area's bytes
  bool take(const PlanKey &k, Entry *e) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = idle_.find(k);
    if (it == idle_.end() || it->second.empty()) return false;
    *e = it->second.back();
    it->second.pop_back();
    return true;
  }
  void give_back(const PlanKey &k, Entry e) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_[k].push_back(e);
  }

 private:
  std::mutex mutex_;
  std::map<PlanKey, std::vector<Entry>> idle_;
};

PlanCache &plan_cache() {
  static PlanCache *c = new PlanCache;  // never destroyed: jobs may outlive statics
  return *c;
}

}  // namespace

bool make_plan(Step *step, int rank, const long long *n, long long *inembed, long long istride, long long idist,
               long long *onembed, long long ostride, long long odist, long long batch, std::string *why) {
  std::vector<long long> shape(n, n + rank);
  for (const long long *v : {static_cast<const long long *>(inembed), static_cast<const long long *>(onembed)})
    if (v) shape.insert(shape.end(), v, v + rank);
  shape.insert(shape.end(), {istride, idist, ostride, odist, batch, inembed ? 1LL : 0LL});
  step->key = PlanKey{static_cast<int>(step->type), device(), shape};
  PlanCache::Entry cached;
  if (plan_cache().take(step->key, &cached)) {
    step->handle = cached.first;
    step->work = cached.second;
    return true;
  }
  const Cufft &f = cufft();
  if (!check(f.create(&step->handle), "cufftCreate", why)) return false;
  std::vector<long long> nn(n, n + rank);
  if (!check(f.make_plan_many64(step->handle, rank, nn.data(), inembed, istride, idist, onembed, ostride, odist,
                                step->type, batch, &step->work),
             "cufftMakePlanMany64", why)) {
    f.destroy(step->handle);
    return false;
  }
  return true;
}

void retire_plan(const Step &step) { plan_cache().give_back(step.key, {step.handle, step.work}); }

void destroy_plan(const Step &step) { cufft().destroy(step.handle); }

bool exec_plan(const Step &s, cudaStream_t stream, void *in, void *out, std::string *why) {
  const Cufft &f = cufft();
  GPUFFTW_CK(f.set_stream(s.handle, stream), why);
  switch (s.type) {
    case CUFFT_C2C:
      GPUFFTW_CK(f.exec_c2c(s.handle, static_cast<cufftComplex *>(in), static_cast<cufftComplex *>(out), s.sign), why);
      break;
    case CUFFT_Z2Z:
      GPUFFTW_CK(f.exec_z2z(s.handle, static_cast<cufftDoubleComplex *>(in), static_cast<cufftDoubleComplex *>(out),
                            s.sign),
                 why);
      break;
    case CUFFT_R2C:
      GPUFFTW_CK(f.exec_r2c(s.handle, static_cast<cufftReal *>(in), static_cast<cufftComplex *>(out)), why);
      break;
    case CUFFT_D2Z:
      GPUFFTW_CK(f.exec_d2z(s.handle, static_cast<cufftDoubleReal *>(in), static_cast<cufftDoubleComplex *>(out)), why);
      break;
    case CUFFT_C2R:
      GPUFFTW_CK(f.exec_c2r(s.handle, static_cast<cufftComplex *>(in), static_cast<cufftReal *>(out)), why);
      break;
    case CUFFT_Z2D:
      GPUFFTW_CK(f.exec_z2d(s.handle, static_cast<cufftDoubleComplex *>(in), static_cast<cufftDoubleReal *>(out)), why);
      break;
    default: return check(CUFFT_INVALID_TYPE, "cufft type", why);
  }
  return true;
}

}  // namespace gpufftw::engine
