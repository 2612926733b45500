// gpufftw's own extension API (include/gpufftw/gpufftw.h).
#include "gpufftw/gpufftw.h"

#include <string>
#include <vector>

#include "core/log.h"
#include "core/plan.h"
#include "dispatch/devices.h"
#include "dispatch/dispatch.h"
#include "fallback/real_fftw.h"
#include "shim/compare.h"
#include "shim/planner.h"
#include "shim/report.h"
#include "shim/trace.h"

#pragma GCC visibility push(default)

extern "C" {

const char *gpufftw_version(void) { return "gpufftw " GPUFFTW_VERSION; }

void gpufftw_set_mode(gpufftw_mode mode) { gpufftw::set_mode(mode); }
gpufftw_mode gpufftw_get_mode(void) { return gpufftw::mode(); }

void gpufftw_set_precision(gpufftw_precision precision) { gpufftw::set_precision(precision); }
gpufftw_precision gpufftw_get_precision(void) { return gpufftw::precision_setting(); }

int gpufftw_gpu_available(void) { return gpufftw::gpu_usable(); }

void gpufftw_memory(gpufftw_memory_stats *stats) {
  if (!stats) return;
  const gpufftw::GpuMemoryHeld held = gpufftw::gpu_memory_held();
  *stats = gpufftw_memory_stats{held.pinned_live, held.pinned_kept, held.device_used};
}

int gpufftw_set_devices(const int *devices, int count) {
  if (!devices || count < 1) return 0;
  std::string why;
  if (gpufftw::set_gpu_devices(std::vector<int>(devices, devices + count), &why)) return 1;
  GPUFFTW_LOG(Warn, "gpufftw_set_devices: %s; the device set is unchanged", why.c_str());
  return 0;
}

int gpufftw_get_devices(int *devices, int max) {
  const std::vector<int> set = gpufftw::gpu_devices();
  for (int i = 0; i < max && i < static_cast<int>(set.size()); ++i) devices[i] = set[i];
  return static_cast<int>(set.size());
}

int gpufftw_real_fftw_available(char precision) {
  if (precision == 'f') return gpufftw::real_fftw<float>().loaded;
  if (precision == 'd') return gpufftw::real_fftw<double>().loaded;
  return 0;
}

// Another FFTW's plan (shim/interpose/other_fftw.h) runs on that FFTW.
const char *gpufftw_plan_where(const void *plan) {
  using gpufftw::Where;
  if (!plan) return where_name(Where::None);
  return where_name(gpufftw::Plan::made_here(plan) ? static_cast<const gpufftw::Plan *>(plan)->where() : Where::Cpu);
}

const char *gpufftw_plan_why(const void *plan) {
  if (!plan) return "";
  return gpufftw::Plan::made_here(plan) ? static_cast<const gpufftw::Plan *>(plan)->reason.c_str()
                                        : "made by another FFTW in the process, which runs it";
}

unsigned long gpufftw_reentry_count(void) { return gpufftw::reentry_count(); }

void gpufftw_report(FILE *out) { gpufftw::write_report(out ? out : stderr); }

void gpufftw_compare_table(FILE *out) { gpufftw::write_compare_table(out ? out : stderr); }

}  // extern "C"

#pragma GCC visibility pop
