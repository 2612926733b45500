// Where a plan computes, and over which GPUs a GPU plan spreads: the types
// the planner, the engine and the report share, each with one text.
#pragma once

#include <cstring>

namespace gpufftw {

// None: no plan (FFTW's NULL plan), for the report and gpufftw_plan_where.
enum class Where { None, Cpu, Gpu };

// The text of `w` for the log, the report and the API's
// gpufftw_plan_where: "none", "cpu", "gpu".
constexpr const char *where_name(Where w) {
  return w == Where::Gpu ? "gpu" : w == Where::Cpu ? "cpu" : "none";
}

// The Where whose text is `name`; false where none has it.
inline bool where_from_name(const char *name, Where *w) {
  for (Where each : {Where::None, Where::Cpu, Where::Gpu})
    if (name && std::strcmp(name, where_name(each)) == 0) return *w = each, true;
  return false;
}

// Where a GPU plan runs when the device set has several GPUs. Auto: where
// the engine places it (over the set where its split takes the problem,
// else on the set's first GPU); One: on the first GPU alone, never spread;
// Set: over the set alone (no plan where the split does not take it).
enum class Spread { Auto, One, Set };

}  // namespace gpufftw
