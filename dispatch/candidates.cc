#include "dispatch/candidates.h"

#include "dispatch/fp16_candidates.h"
#include "dispatch/thread_rules.h"
#include "dispatch/why.h"

namespace gpufftw {

Candidate Candidate::cpu_at(int threads, std::optional<double> price) {
  Candidate c;
  c.threads = threads;
  c.price = price;
  return c;
}

Candidate Candidate::gpu_at(Spread spread, std::optional<double> price, Fp16Way way) {
  Candidate c;
  c.gpu = true;
  c.spread = spread;
  c.price = price;
  c.way = way;
  return c;
}

bool rules_out_a_way(Unfit unfit) {
  return unfit == Unfit::NotInHalf || unfit == Unfit::NoHalfRates || unfit == Unfit::NotForced;
}

std::vector<Candidate> ways(const Planner &planner, const Problem &p, int threads, Memory in, Memory out) {
  std::vector<Candidate> list{Candidate::cpu_at(threads)};
  if (threads > 1) list.push_back(Candidate::cpu_at(1));
  list.push_back(Candidate::gpu_at(Spread::Auto));
  // Nothing to compute (a loop of zero): the real FFTW's plan does nothing
  // and touches no array, wherever the arrays lie, as FFTW's own does.
  if (p.transform_size() * p.batch() == 0) {
    rule_out(&list, true, Unfit::Tiny, "nothing to compute: a loop of zero");
    return list;
  }
  if (in == Memory::Device || out == Memory::Device) {
    rule_out(&list, false, Unfit::DeviceArrays, "arrays in device memory");
    return list;
  }
  if (in == Memory::Managed || out == Memory::Managed) {
    rule_out(&list, false, Unfit::ManagedArrays, "arrays in managed memory");
    return list;
  }
  if (p.transform_size() * p.batch() <= kTinyPoints) {
    const std::string why = threads > 1 ? "too small for the GPU or for threads to pay" : "too small for the GPU to pay";
    rule_out(&list, true, Unfit::Tiny, why);
    if (threads > 1) {
      list.front().unfit = Unfit::Tiny;
      list.front().why_not = why;
    }
    return list;
  }
  // Where the driver names the machine, CUDA starts only when a plan goes
  // to the GPU (or the GPU is calibrated); where the GPU then cannot be
  // used, its calibration fails (NoRates).
  std::string why_not;
  if (!planner.gpu->named_by_driver() && !planner.gpu->available(&why_not))
    rule_out(&list, true, Unfit::NoGpu, why_not);
  return list;
}

void rule_out(std::vector<Candidate> *list, bool gpu, Unfit unfit, const std::string &why_not) {
  for (Candidate &c : *list)
    if (c.gpu == gpu && c.applies()) c.unfit = unfit, c.why_not = why_not;
}

bool side_applies(const std::vector<Candidate> &list, bool gpu) {
  for (const Candidate &c : list)
    if (c.gpu == gpu && c.applies()) return true;
  return false;
}

void price_cpu(const Planner &planner, const Problem &p, std::vector<Candidate> *list) {
  DispatchStore &store = planner.store();
  for (Candidate &c : *list)
    if (!c.gpu && c.applies()) c.price = cpu_seconds(p, store.cpu_rates(p.precision, c.threads));
}

void price_gpu(const Planner &planner, const Problem &p, bool pinned, const GpuRates &rates,
               std::vector<Candidate> *list) {
  std::vector<Candidate> priced;
  for (const Candidate &c : *list)
    if (!c.gpu || !c.applies()) priced.push_back(c);
  const std::optional<double> set = planner.gpu->price(p, pinned, Spread::Set, rates);
  const Spread one = set ? Spread::One : Spread::Auto;
  const std::optional<double> alone = planner.gpu->price(p, pinned, one, rates);
  const ArraysAt at = pinned ? ArraysAt::Pinned : ArraysAt::Pageable;
  for (const auto &[spread, table] : {std::pair{one, alone}, std::pair{Spread::Set, set}}) {
    if (!table) continue;
    if (half_wanted(p))
      add_half_ways(planner, p, at, spread, &rates, table, &priced);
    else
      priced.push_back(Candidate::gpu_at(spread, table));
  }
  if (!alone && !set) {
    priced.push_back(Candidate::gpu_at(Spread::Auto));
    rule_out(&priced, true, Unfit::NotPriced, "the model prices no GPU way for it");
  }
  *list = std::move(priced);
}

std::optional<Candidate> cheapest_gpu(const std::vector<Candidate> &list) {
  std::optional<Candidate> best;
  for (const Candidate &c : list)
    if (c.gpu && c.applies() && c.price && (!best || *c.price < *best->price)) best = c;
  return best;
}

std::vector<Candidate> gpu_ways_at(const std::vector<Candidate> &list, Spread spread) {
  auto placed = [&list](auto where) {
    std::vector<Candidate> v;
    for (const Candidate &c : list)
      if (c.gpu && where(c.spread)) v.push_back(c);
    return v;
  };
  std::vector<Candidate> ways = placed([spread](Spread s) { return s == spread; });
  if (ways.empty()) ways = placed([](Spread s) { return s != Spread::Set; });
  if (ways.empty()) ways = placed([](Spread s) { return s == Spread::Set; });
  for (Candidate &c : ways) c.spread = spread;
  return ways;
}

std::string placement_prices(const std::vector<Candidate> &list) {
  const Candidate *set = nullptr, *one = nullptr;
  for (const Candidate &c : list) {
    if (!c.gpu || !c.applies() || !c.price) continue;
    const Candidate *&cheapest = c.spread == Spread::Set ? set : one;
    if (!cheapest || *c.price < *cheapest->price) cheapest = &c;
  }
  if (!set || !one) return "";
  return "; the GPUs' split priced " + ms(*set->price) + ", one GPU " + ms(*one->price);
}

}  // namespace gpufftw
