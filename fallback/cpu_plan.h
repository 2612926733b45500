// A Plan computed by the real FFTW: it wraps one real plan of precision R.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "core/fork_guard.h"
#include "core/plan.h"

namespace gpufftw {

// A real FFTW plan for the problem (R: float, double, or long double for
// the comparison mode's reference), or nullptr where the real FFTW gives none
// (bad layout, FFTW_WISDOM_ONLY without wisdom) or is not there. Under a
// finite address-space limit, a plan the room left may not hold is made
// with FFTW_ESTIMATE or not at all (core/address_room.h), and said in the
// log and in room_note.
template <class R>
std::unique_ptr<Plan> make_cpu_plan(const Problem &problem);

// What this thread's real FFTW plans were cut to since the last call, for
// the plan's why ("; FFTW_ESTIMATE's plan: ..."), or ""; cleared.
std::string take_room_note();

// Whether planning in the real FFTW of precision R leaves every live plan
// as it was: false while a plan made before the program's latest
// fftw(f)_cleanup is alive. Cleanup frees the planner's solvers, which such
// a plan still reads when destroyed; a new plan makes a new planner whose
// solvers take that memory, and the old plan's destroy then crashes. FFTW
// calls those plans undefined, but plain FFTW, planning nothing the
// program does not, lets them be destroyed: planning of gpufftw's own (the
// comparison mode's) must wait until they are gone.
template <class R>
bool may_plan_without_harm();

// Held by every plan entry (make_plan) and every wisdom call of the API:
// calibrating inside a plan saves and restores the real FFTW's wisdom, and
// must not run beside another thread's planning or wisdom call, even where
// the program made the real planner thread-safe. Recursive: a user's
// wisdom callback may call into the API.
RecursiveLock &planner_mutex();
#define GPUFFTW_PLANNER_LOCKED \
  const std::lock_guard<::gpufftw::RecursiveLock> planner_guard(::gpufftw::planner_mutex())

// fftw(f)_plan_with_nthreads as the program last set it (1 until then and
// after fftw(f)_cleanup), kept here: asking the real planner from inside
// ours would race with its lazy creation in threads the program lets plan.
void note_planner_threads(Precision precision, int nthreads);
int planner_threads(Precision precision);

// The real FFTW's plan with at most `threads` threads (0: as many as the
// program asked for), its planner kept to `time_limit` seconds (negative:
// none), or nullptr. Under the planner's lock.
std::unique_ptr<Plan> cpu_plan_with_threads(const Problem &p, int threads, double time_limit);

}  // namespace gpufftw
