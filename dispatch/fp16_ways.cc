#include "dispatch/fp16_ways.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "dispatch/dispatch.h"

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
      if (p.kind != Kind::C2C && p.kind != Kind::R2C) return "our kernels take c2c and r2c only";
      if (p.dims.empty() || p.dims.size() > 3) return "our kernels take rank 1 to 3";
      for (const Dim &d : p.dims)
        if (!power_of_two(d.n) || d.n < 256 || d.n > 4096) return "our kernels take powers of two 256 to 4096";
      return "";
    case Fp16Way::CufftHalf:
      for (const Dim &d : p.dims)
        if (!power_of_two(d.n)) return "cuFFT's FP16 takes powers of two only";
      return "";
    case Fp16Way::SingleOnHalves: return "";  // cuFFT's single precision takes every size
    case Fp16Way::Single: return "";
  }
  return "";
}

// Why the way does not spread over the set, or "" where it does: every
// way splits a batch, each GPU's share a job of its own; one 2-D or 3-D
// c2c or out-of-place r2c (the slab split's shapes) splits in half as
// single precision on halves alone (the slabs carry halves and compute in
// floats between), and one 1-D transform's split stages floats.
std::string not_spread(Fp16Way w, const Problem &p) {
  if (w == Fp16Way::Single || p.batch() > 1) return "";
  if (p.dims.size() < 2) return "over the GPUs, one 1-D transform's split stages floats";
  if (w != Fp16Way::SingleOnHalves) return "over the GPUs, one transform splits in half as single precision on halves";
  if (p.kind == Kind::C2R || (p.kind == Kind::R2C && p.in_place()))
    return "over the GPUs, one c2r or in-place r2c transform does not split";
  return "";
}

}  // namespace

const char *way_name(Fp16Way w) { return text(w).name; }
const char *way_tag(Fp16Way w) { return text(w).tag; }

bool parse_way(const std::string &tag, Fp16Way *w) {
  for (const WayText &t : kText)
    if (tag == t.tag) return *w = t.way, true;
  return false;
}

ArraysAt arrays_at(Memory in, Memory out) {
  auto on_device = [](Memory m) { return m == Memory::Device || m == Memory::Managed; };
  if (on_device(in) || on_device(out)) return ArraysAt::Device;
  return in == Memory::Pinned && out == Memory::Pinned ? ArraysAt::Pinned : ArraysAt::Pageable;
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
  // Both sides' float bytes of the c2c of as many points.
  const double complex_floats = 16.0 * static_cast<double>(p.transform_size()) * static_cast<double>(p.batch());
  const size_t rank = std::clamp<size_t>(p.dims.size(), 1, 3) - 1;
  const bool device = at == ArraysAt::Device;
  std::vector<WayPrice> prices;
  for (Fp16Way w : kFp16Ways) {
    WayPrice wp;
    wp.way = w;
    wp.why_not = not_taken(w, p);
    const std::string why_not_spread = not_spread(w, p);
    const bool spreads = why_not_spread.empty();
    if (wp.why_not.empty() && over.only && !spreads) wp.why_not = why_not_spread;
    wp.offered = wp.why_not.empty();
    if (!wp.offered) {
      prices.push_back(wp);
      continue;
    }
    double passes = 0;  // the device's, in seconds
    switch (w) {
      case Fp16Way::Ours:
        // r2c: the c2c of the reals as complex numbers, and a copy of its
        // halves to make them and to keep the first n/2 + 1 of each row.
        passes = p.kind == Kind::R2C ? (f.ours[rank] + 1) * complex_floats / 2 / r.device
                                     : f.ours[rank] * floats / 2 / r.device;
        break;
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

std::string way_key(const Problem &p, ArraysAt at, Spread spread) {
  const char *arrays = at == ArraysAt::Device ? "device" : at == ArraysAt::Pinned ? "pinned" : "pageable";
  const char *placed = spread == Spread::Set ? "set." : spread == Spread::One ? "one." : "";
  const char *kind = half_wanted(p) ? "fp16way." : "gpuway.";
  return std::string(kind) + arrays + "." + placed + choice_key(p, 0, at == ArraysAt::Pinned);
}

}  // namespace gpufftw
