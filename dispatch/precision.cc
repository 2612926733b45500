#include "dispatch/dispatch.h"

#include <atomic>

#include "core/config.h"
#if GPUFFTW_HAVE_CUDA
#include "dispatch/gpu_plan.h"
#endif

namespace gpufftw {
namespace {

std::atomic<gpufftw_precision> &setting() {
  static std::atomic<gpufftw_precision> p{config().precision};
  return p;
}

bool on_gpu(const Plan &plan) { return plan.where() == Where::Gpu; }

}  // namespace

void set_precision(gpufftw_precision precision) { setting().store(precision); }
gpufftw_precision precision_setting() { return setting().load(); }

bool half_wanted(const Problem &p) {
  return precision_setting() == GPUFFTW_PRECISION_FP16 && p.precision == Precision::F32 && p.kind != Kind::R2R;
}

bool computes_in_half(const Plan &plan) {
#if GPUFFTW_HAVE_CUDA
  return on_gpu(plan) && gpu_plan_half(plan);
#else
  (void)plan;
  return false;
#endif
}

std::string precision_note(const Problem &p, const Plan *plan) {
  if (precision_setting() != GPUFFTW_PRECISION_FP16 || !plan) return "";
  if (!half_wanted(p))
    return "; GPUFFTW_PRECISION=fp16 not applied: it takes single-precision c2c, r2c and c2r plans only";
  if (!on_gpu(*plan)) return "; GPUFFTW_PRECISION=fp16 not applied: the real FFTW computes it, in single precision";
#if GPUFFTW_HAVE_CUDA
  if (gpu_plan_half(*plan)) return "; computed in half precision: " + gpu_plan_path(*plan);
  return "; GPUFFTW_PRECISION=fp16 not applied, single precision: " + gpu_plan_path(*plan);
#else
  return "";
#endif
}

}  // namespace gpufftw
