#include "dispatch/fp16_candidates.h"

#include <algorithm>

#include "dispatch/dispatch.h"
#include "dispatch/solver_ways.h"
#include "dispatch/why.h"

namespace gpufftw {
namespace {

const WayPrice &price_of(const std::vector<WayPrice> &prices, Fp16Way w) {
  return *std::find_if(prices.begin(), prices.end(), [w](const WayPrice &p) { return p.way == w; });
}

std::string forced_text(Fp16Way w) { return std::string("GPUFFTW_FP16_WAY=") + way_tag(w); }

// Whether GPUFFTW_FP16_WAY's way is among [first, last) and applies.
template <class It>
bool forced_way_applies(const Planner &pl, It first, It last) {
  return pl.forced_way &&
         std::any_of(first, last, [&pl](const Candidate &c) { return c.way == *pl.forced_way && c.applies(); });
}

}  // namespace

void add_half_ways(const Planner &pl, const Problem &p, ArraysAt at, Spread spread, const GpuRates *rates,
                   std::optional<double> table, std::vector<Candidate> *list, const std::string &no_rates) {
  const OverGpus over = over_gpus(p, at == ArraysAt::Pinned, spread, rates);
  // Which ways take the problem needs no rates.
  std::vector<WayPrice> prices = price_ways(p, at, HalfRates{1, 1, 1, 1}, over);
  const bool forced_takes = pl.forced_way && price_of(prices, *pl.forced_way).offered;
  const bool unpriced = forced_takes && !table;  // nothing to weigh the forced way against
  std::string why_no_rates = no_rates;
  std::optional<HalfRates> half;
  if (rates && !unpriced) half = pl.gpu->half_rates(*rates, &why_no_rates);
  if (half) prices = price_ways(p, at, *half, over);
  const double single_s = price_of(prices, Fp16Way::Single).seconds;
  // cuFFT's FP16 sums each step in half, and on 2-D and 3-D its error
  // passes what an fp16 plan promises where our kernels, which round once
  // per step from f32 sums, stay within it: where ours takes such a
  // problem, cuFFT's FP16 is chosen only when forced.
  const bool less_accurate_than_ours = p.dims.size() >= 2 && price_of(prices, Fp16Way::Ours).offered &&
                                       !(pl.forced_way && *pl.forced_way == Fp16Way::CufftHalf);
  const size_t first = list->size();
  for (const WayPrice &w : prices) {
    Candidate c = Candidate::gpu_at(spread, std::nullopt, w.way);
    if (!w.offered) {
      c.unfit = Unfit::NotInHalf;
      c.why_not = w.why_not;
    } else if (w.way == Fp16Way::CufftHalf && less_accurate_than_ours) {
      c.unfit = Unfit::NotInHalf;
      c.why_not = "less accurate than ours on 2-D and 3-D, which takes the problem";
    } else if (half) {
      c.price = table ? *table * w.seconds / single_s : w.seconds;
    } else if (w.way != Fp16Way::Single && !unpriced) {
      c.unfit = Unfit::NoHalfRates;
      c.why_not = "no rates to price the ways in half by: " + why_no_rates;
    } else {
      c.price = table;
    }
    list->push_back(c);
  }
  // GPUFFTW_FP16_WAY: where its way applies, the others do not.
  auto added = list->begin() + static_cast<std::ptrdiff_t>(first);
  if (forced_way_applies(pl, added, list->end()))
    for (auto c = added; c != list->end(); ++c)
      if (c->way != *pl.forced_way && c->applies()) {
        c->unfit = Unfit::NotForced;
        c->why_not = forced_text(*pl.forced_way);
      }
}

void half_ways_alone(const Planner &pl, const Problem &p, Spread spread, std::vector<Candidate> *list) {
  if (!half_wanted(p)) return;
  std::vector<Candidate> ways;
  for (const Candidate &c : *list)
    if (!c.gpu) ways.push_back(c);
  const ArraysAt at = arrays_at(pl.gpu->memory(p.in[0]), pl.gpu->memory(p.out[0]));
  std::vector<Candidate> forced;
  add_half_ways(pl, p, at, spread, nullptr, std::nullopt, &forced);
  if (forced_way_applies(pl, forced.begin(), forced.end())) {
    ways.insert(ways.end(), forced.begin(), forced.end());
  } else {
    const std::optional<GpuRates> rates = pl.gpu_rates();
    add_half_ways(pl, p, at, spread, rates ? &*rates : nullptr, std::nullopt, &ways);
  }
  *list = std::move(ways);
}

bool has_half_ways(const std::vector<Candidate> &ways) {
  return std::any_of(ways.begin(), ways.end(),
                     [](const Candidate &c) { return c.gpu && (c.way != Fp16Way::Single || rules_out_a_way(c.unfit)); });
}

std::string way_prices(const std::vector<Candidate> &ways) {
  const bool half = has_half_ways(ways);
  std::string text;
  for (const Candidate &c : ways)
    if (c.gpu && c.applies() && c.price) text += (text.empty() ? "" : ", ") + way_label(c, half) + " " + ms(*c.price);
  return text;
}

std::string fp16_account(const Planner &pl, const std::vector<Candidate> &ways, const std::string &made,
                         const std::string &how) {
  std::string text = "; fp16: " + made + ", " + how;
  std::string rates;
  for (const Candidate &c : ways) {
    if (pl.forced_way && c.way == *pl.forced_way && !c.applies())
      text += "; " + forced_text(c.way) + " not taken: " + c.why_not;
    if (c.unfit == Unfit::NotInHalf) text += "; " + std::string(way_name(c.way)) + " not offered: " + c.why_not;
    if (c.unfit == Unfit::NoHalfRates) rates = "; " + c.why_not;
  }
  return text + rates;
}

}  // namespace gpufftw
