#include "dispatch/fp16_ways.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

namespace gpufftw {
namespace {

struct WayText {
  Fp16Way way;
  const char *name, *tag;
};
constexpr WayText kText[] = {
    {Fp16Way::Ours, "ours (tensor cores)", "ours"},
    {Fp16Way::CufftHalf, "cuFFT fp16", "cufft-fp16"},
    {Fp16Way::SingleOnHalves, "cuFFT fp32 on halves", "fp32-on-halves"},
    {Fp16Way::Single, "f32", "fp32"},
};

const WayText &text(Fp16Way w) {
  for (const WayText &t : kText)
    if (t.way == w) return t;
  return kText[3];
}

bool power_of_two(int64_t n) { return n >= 1 && (n & (n - 1)) == 0; }

// Why the way does not take the problem's sizes, or "" where it does.
std::string not_taken(Fp16Way w, const Problem &p) {
  switch (w) {
    case Fp16Way::Ours:
      if (p.kind != Kind::C2C) return "our kernels take c2c only";
      if (p.dims.empty() || p.dims.size() > 3) return "our kernels take rank 1 to 3";
      for (const Dim &d : p.dims)
        if (!power_of_two(d.n) || d.n < 256 || d.n > 4096) return "our kernels take powers of two 256 to 4096";
      return "";
    case Fp16Way::CufftHalf:
      for (const Dim &d : p.dims)
        if (!power_of_two(d.n)) return "cuFFT's FP16 takes powers of two only";
      return "";
    case Fp16Way::SingleOnHalves: return p.kind == Kind::C2C ? "" : "single precision on halves takes c2c only";
    case Fp16Way::Single: return "";
  }
  return "";
}

std::string ms(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g ms", 1e3 * s);
  return b;
}

}  // namespace

const char *way_name(Fp16Way w) { return text(w).name; }
const char *way_tag(Fp16Way w) { return text(w).tag; }

bool parse_way(const std::string &tag, Fp16Way *w) {
  for (const WayText &t : kText)
    if (tag == t.tag) return *w = t.way, true;
  return false;
}

HalfRates half_rates(const GpuRates &g, double convert, double device) {
  // The largest batched cells: 2^24 c2c f32 points, 8 bytes each, in and out.
  const double bytes = 16.0 * std::exp2(GpuRates::kLog2.back());
  const size_t last = GpuRates::kSizes - 1;
  HalfRates r;
  r.pinned = bytes / g.seconds[1][1][last];
  r.pageable = bytes / g.seconds[0][1][last];
  r.convert = convert;
  r.device = device;
  return r;
}

OverGpus over_gpus(const Problem &p, bool pinned, Spread spread, const GpuRates *g) {
  OverGpus over;
  over.only = spread == Spread::Set;
  if (spread == Spread::One || !g) return over;
  const std::optional<double> set = gpu_set_seconds(p, pinned, *g);
  if (set && *set > 0) over.gain = gpu_seconds(p, pinned, *g) / *set;
  return over;
}

std::vector<WayPrice> price_ways(const Problem &p, ArraysAt at, const HalfRates &r, const OverGpus &over,
                                 const DeviceFactors &f) {
  const double floats = bytes_in(p) + bytes_out(p);  // float bytes of both sides
  const size_t rank = std::clamp<size_t>(p.dims.size(), 1, 3) - 1;
  const bool device = at == ArraysAt::Device;
  std::vector<WayPrice> prices;
  for (Fp16Way w : kFp16Ways) {
    WayPrice wp;
    wp.way = w;
    wp.why_not = not_taken(w, p);
    const bool spreads = w == Fp16Way::Single || p.batch() > 1;
    if (wp.why_not.empty() && over.only && !spreads)
      wp.why_not = "over the GPUs, half precision splits batches only (one transform's split stages floats)";
    wp.offered = wp.why_not.empty();
    if (!wp.offered) {
      prices.push_back(wp);
      continue;
    }
    double passes = 0;  // the device's, in seconds
    switch (w) {
      case Fp16Way::Ours: passes = f.ours[rank] * floats / 2 / r.device; break;
      case Fp16Way::CufftHalf: passes = f.cufft_half[rank] * floats / 2 / r.device; break;
      case Fp16Way::SingleOnHalves:
      case Fp16Way::Single: passes = f.single[rank] * floats / r.device; break;
    }
    if (w == Fp16Way::Single) {
      wp.seconds = passes + (device ? 0 : floats / (at == ArraysAt::Pinned ? r.pinned : r.pageable));
    } else {
      // Halves to floats and back around single precision's passes.
      if (w == Fp16Way::SingleOnHalves) passes += 1.5 * floats / r.device;
      const double moved = device ? 1.5 * floats / r.device : std::max(floats / r.convert, floats / 2 / r.pinned);
      wp.seconds = passes + moved;
    }
    if (spreads && !device) wp.seconds /= over.gain;
    prices.push_back(wp);
  }
  return prices;
}

Fp16Way cheapest(const std::vector<WayPrice> &prices) {
  const WayPrice *best = nullptr;
  for (const WayPrice &w : prices)
    if (w.offered && (!best || w.seconds < best->seconds)) best = &w;
  return best ? best->way : Fp16Way::Single;
}

Fp16Planned plan_fp16(const std::vector<WayPrice> &prices, bool measuring, const WayHands &hands,
                      const Fp16Way *forced) {
  Fp16Planned out;
  std::string not_made;  // each way that made no plan, and why
  auto make = [&](Fp16Way w) {
    std::string why_not;
    std::unique_ptr<Plan> plan = hands.make(w, &why_not);
    if (!plan) not_made += std::string("; ") + way_name(w) + " made no plan: " + why_not;
    return plan;
  };
  // A forced way where it takes the problem; else the choice, saying so.
  std::string unforced;
  if (forced) {
    for (const WayPrice &w : prices)
      if (w.way == *forced && !w.offered)
        unforced = "; GPUFFTW_FP16_WAY=" + std::string(way_tag(*forced)) + " not taken: " + w.why_not;
    if (unforced.empty()) {
      if ((out.plan = make(*forced))) {
        out.way = *forced;
        out.why = std::string("fp16: ") + way_name(*forced) + ", GPUFFTW_FP16_WAY=" + way_tag(*forced);
        return out;
      }
      unforced = "; GPUFFTW_FP16_WAY=" + std::string(way_tag(*forced)) + " not taken";
    }
  }
  // The offered ways by price, and the model's account of them.
  std::vector<WayPrice> offered;
  std::string model, refused = unforced;
  for (const WayPrice &w : prices) {
    if (!w.offered) {
      refused += std::string("; ") + way_name(w.way) + " not offered: " + w.why_not;
      continue;
    }
    offered.push_back(w);
    model += std::string(model.empty() ? "" : ", ") + way_name(w.way) + " " + ms(w.seconds);
  }
  std::stable_sort(offered.begin(), offered.end(),
                   [](const WayPrice &a, const WayPrice &b) { return a.seconds < b.seconds; });
  model = "model: " + model;
  KernelPick pick;
  Fp16Way recalled;
  if (hands.recall && hands.recall(&pick) && parse_way(pick.variant, &recalled))
    for (const WayPrice &w : offered)
      if (w.way == recalled) {
        if ((out.plan = make(recalled))) {
          out.way = recalled;
          out.why = std::string("fp16: ") + way_name(recalled) + ", measured earlier: " + ms(pick.own_s) +
                    (pick.cufft_s > 0 ? ", f32 " + ms(pick.cufft_s) : "");
          return out;
        }
        break;
      }
  if (!measuring || !hands.read) {
    for (const WayPrice &w : offered)
      if ((out.plan = make(w.way))) {
        out.way = w.way;
        out.why = std::string("fp16: ") + way_name(w.way) + ", by the " + model + not_made + refused;
        return out;
      }
    out.why = "fp16: no way made a plan" + not_made + refused;
    return out;
  }
  // Measuring: f32 and the ways within reach of the cheapest, made and
  // read in turn; f32 always, so that a model off by more than
  // kWayTimedWithin never leaves an fp16 plan slower than single precision.
  struct Timed {
    Fp16Way way;
    std::unique_ptr<Plan> plan;
    double s = HUGE_VAL;
  };
  std::vector<Timed> timed;
  std::string left_out;
  for (const WayPrice &w : offered) {
    if (w.way != Fp16Way::Single && w.seconds > kWayTimedWithin * offered.front().seconds) {
      const std::string over = "; not timed, priced over " + std::to_string(static_cast<int>(kWayTimedWithin)) +
                               "x the cheapest: ";
      left_out += (left_out.empty() ? over : ", ") + way_name(w.way);
      continue;
    }
    if (std::unique_ptr<Plan> plan = make(w.way)) timed.push_back({w.way, std::move(plan)});
  }
  for (size_t i = 0; i < timed.size(); i += 2) {
    Plan *second = i + 1 < timed.size() ? timed[i + 1].plan.get() : nullptr;
    double unused;
    read_in_turn(hands.read, timed[i].plan.get(), second, &timed[i].s, second ? &timed[i + 1].s : &unused);
  }
  Timed *best = nullptr;
  std::string read;
  KernelPick stored;
  for (Timed &t : timed) {
    read += std::string(read.empty() ? "" : ", ") + way_name(t.way) + " " + ms(t.s);
    if (t.way == Fp16Way::Single) stored.cufft_s = t.s;
    if (!best || t.s < best->s) best = &t;
  }
  if (!best) {
    out.why = "fp16: no way made a plan" + not_made + refused;
    return out;
  }
  stored.variant = way_tag(best->way);
  stored.own_s = best->s;
  if (hands.remember) hands.remember(stored);
  out.way = best->way;
  out.plan = std::move(best->plan);
  out.why = std::string("fp16: ") + way_name(out.way) + ", measured: " + read + " (" + model + ")" + left_out +
            not_made + refused;
  return out;
}

}  // namespace gpufftw
