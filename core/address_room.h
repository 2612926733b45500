// Room in the address space for the real FFTW's planner. FFTW cannot
// recover from an allocation that fails while it plans: it aborts
// (alloc.c: assertion failed). gpufftw's own mappings leave a program less
// room under a finite RLIMIT_AS (ulimit -v) than plain FFTW would have, so
// before a plan is handed to the real FFTW its peak need is bounded: where
// a measured plan might not fit it is made with FFTW_ESTIMATE (the same
// numbers, a smaller need), and where not even that might, it is not made
// (a NULL plan, FFTW's answer where it cannot plan).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/problem.h"

namespace gpufftw {

// Upper bounds, in bytes, of what the real FFTW's planner maps at its peak
// for a problem of reals of `real_bytes` each: planned with the problem's
// own flags, and with FFTW_ESTIMATE.
struct PlanNeeds {
  uint64_t as_asked = 0;
  uint64_t estimated = 0;
};
PlanNeeds plan_needs(const Problem &p, size_t real_bytes);

enum class Room { AsAsked, Estimate, None };

// What may be planned where `limit` bytes of address space are allowed and
// `in_use` are mapped: the plan as asked; FFTW_ESTIMATE's plan, for a plan
// that would measure (FFTW_MEASURE, FFTW_PATIENT, FFTW_EXHAUSTIVE; not
// under FFTW_WISDOM_ONLY, whose plan is wisdom's or none); or no plan.
Room plan_room(uint64_t limit, uint64_t in_use, const PlanNeeds &needs, unsigned flags);

// The soft RLIMIT_AS and the process's mapped size now (VmSize), or
// nullopt where there is no finite limit (nothing else is read then) or
// the mapped size cannot be read.
struct AddressSpace {
  uint64_t limit = 0;
  uint64_t in_use = 0;
};
std::optional<AddressSpace> address_space();

// "12.3 MB".
std::string megabytes(uint64_t bytes);

}  // namespace gpufftw
