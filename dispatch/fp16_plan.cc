#include "dispatch/fp16_plan.h"

#include <cmath>
#include <cstdio>

#include "core/config.h"
#include "dispatch/dispatch.h"
#include "dispatch/fp16_ways.h"
#include "dispatch/gpu_plan.h"
#include "dispatch/store_instance.h"
#include "dispatch/timing.h"
#include "engine/engine.h"

namespace gpufftw {
namespace {

ArraysAt arrays_at(const Problem &p) {
  const Memory in = engine::memory_type(p.in[0]), out = engine::memory_type(p.out[0]);
  auto on_device = [](Memory m) { return m == Memory::Device || m == Memory::Managed; };
  if (on_device(in) || on_device(out)) return ArraysAt::Device;
  return in == Memory::Pinned && out == Memory::Pinned ? ArraysAt::Pinned : ArraysAt::Pageable;
}

const char *at_name(ArraysAt at) {
  return at == ArraysAt::Device ? "device" : at == ArraysAt::Pinned ? "pinned" : "pageable";
}

// This machine's rates (and the calibrated table in *g), or none (why)
// where the GPU's table or the device's copy could not be measured.
std::optional<HalfRates> machine_rates(std::optional<GpuRates> *g, std::string *why) {
  *g = dispatch_store().gpu_rates();
  if (!*g) return *why = "the GPU could not be calibrated (the log says why)", std::nullopt;
  const double device = engine::device_copy_rate(why);
  if (device <= 0) return std::nullopt;
  return half_rates(**g, engine::host_half_rate(), device);
}

// The store's key part for the placement: the ways' readings differ
// between one GPU, the set and the engine's placement.
const char *spread_tag(Spread s) { return s == Spread::Set ? "set." : s == Spread::One ? "one." : ""; }

}  // namespace

std::unique_ptr<Plan> fp16_gpu_plan(const Problem &p, Spread spread, std::string *why) {
  Fp16Way forced;
  const bool is_forced = parse_way(config().fp16_way, &forced);
  std::string no_rates;
  std::optional<GpuRates> g;
  std::optional<HalfRates> rates;
  if (!is_forced) rates = machine_rates(&g, &no_rates);
  if (!is_forced && !rates) {
    std::unique_ptr<Plan> plan = make_gpu_plan_way(p, spread, Fp16Way::Single, why);
    if (plan) set_gpu_plan_fp16_note(*plan, "fp16: f32, no rates to price the ways by: " + no_rates);
    return plan;
  }
  const ArraysAt at = arrays_at(p);
  const OverGpus over = over_gpus(p, at == ArraysAt::Pinned, spread, g ? &*g : nullptr);
  // A forced way is not priced: any rates tell which ways take the sizes.
  const std::vector<WayPrice> prices = price_ways(p, at, rates ? *rates : HalfRates{1, 1, 1, 1}, over);
  const std::string key = std::string("fp16way.") + at_name(at) + "." + spread_tag(spread) +
                          choice_key(p, 0, at == ArraysAt::Pinned);
  WayHands hands;
  hands.make = [&](Fp16Way way, std::string *why_not) {
    std::unique_ptr<Plan> plan = make_gpu_plan_way(p, spread, way, why_not);
    // The half job declined the layout, and the engine planned the
    // problem in single precision: that way is f32's.
    if (plan && way != Fp16Way::Single && !gpu_plan_half(*plan))
      return *why_not = "the half job did not take it (" + gpu_plan_path(*plan) + ")", std::unique_ptr<Plan>();
    return plan;
  };
  hands.read = [](Plan *plan, double enough) { return time_execute(plan, enough); };
  hands.recall = [&key](KernelPick *pick) { return dispatch_store().recall_kernel(key, pick); };
  hands.remember = [&key](const KernelPick &pick) { dispatch_store().remember_kernel(key, pick); };
  const bool measuring = !(p.flags & (FFTW_ESTIMATE | FFTW_WISDOM_ONLY)) && p.in[0] && p.out[0];
  Fp16Planned planned = plan_fp16(prices, measuring, hands, is_forced ? &forced : nullptr);
  if (!planned.plan) return *why = planned.why, nullptr;
  if (over.gain != 1 && at != ArraysAt::Device) {
    char gain[32];
    std::snprintf(gain, sizeof gain, "%.2f", over.gain);
    planned.why += std::string("; priced over the GPUs at f32's split gain of ") + gain + "x";
  }
  set_gpu_plan_fp16_note(*planned.plan, planned.why);
  return std::move(planned.plan);
}

std::optional<double> fp16_price(const Problem &p, bool pinned, Spread spread, const GpuRates &rates) {
  const std::optional<double> table =
      spread == Spread::Set ? gpu_set_seconds(p, pinned, rates) : std::optional<double>(gpu_seconds(p, pinned, rates));
  if (!table) return std::nullopt;
  // Before this process started CUDA, the device's passes are left out
  // (infinitely fast): a small part of a host array's time, and measuring
  // them would start CUDA for a plan that may stay on the CPU.
  std::string why_not;
  const double device = engine::gpu_started() ? engine::device_copy_rate(&why_not) : HUGE_VAL;
  if (device <= 0) return table;
  const std::vector<WayPrice> prices = price_ways(p, pinned ? ArraysAt::Pinned : ArraysAt::Pageable,
                                                  half_rates(rates, engine::host_half_rate(), device),
                                                  over_gpus(p, pinned, spread, &rates));
  const Fp16Way best = cheapest(prices);
  double best_s = 0, single_s = 0;
  for (const WayPrice &w : prices) {
    if (w.way == best) best_s = w.seconds;
    if (w.way == Fp16Way::Single) single_s = w.seconds;
  }
  return single_s > 0 ? *table * best_s / single_s : *table;
}

}  // namespace gpufftw
