// The serial steps of a composed plan, shared by its host route (plan.h)
// and its device-resident one (resident.h): the guru dims of each step, and
// planning and running one through gpufftw's own serial planner, which puts
// it on the GPU or the real FFTW (device arrays: on the GPU).
#pragma once

#include <string>
#include <vector>

#include "core/where.h"
#include "mpi/composed/layout.h"
#include "mpi/composed/serial.h"

namespace gpufftw {
namespace mpi {
namespace composed {

using Dims = std::vector<fftw_iodim64>;  // one struct for every precision in fftw3.h

// A step's guru dims: the transform's, and the loops over it.
struct Shape {
  Dims dims, howmany;
};

// Dims 2.. inside a unit of `rest` values (the howmany transforms last).
void append_rest(const Layout &l, Dims *dims);
void append_howmany(const Layout &l, Dims *howmany);

// Step 1 of a c2c or r2c (every dimension but f) over `planes` of this
// rank's `my_f` planes of f: from [planes][o][rest] to [o][my_f][rest].
Shape first_step(const Layout &l, ptrdiff_t planes, ptrdiff_t my_f);

// Step 3, dimension f, over `planes` planes of o stored [planes][f][rest],
// in place.
Shape third_step_in_place(const Layout &l, ptrdiff_t planes);

// Step 3 from [lo][f][rest] to [f][lo][rest].
Shape third_step_across(const Layout &l, ptrdiff_t lo);

// The device-resident route's steps (route.h), both in place: step 1 over
// `planes` planes of f stored [planes][o][rest], and step 3, dimension f,
// over [f][lo][rest].
Shape first_step_in_place(const Layout &l, ptrdiff_t planes);
Shape third_step_in_middle(const Layout &l, ptrdiff_t lo);

// FFTW's planner flags without the MPI ones, for the serial steps.
unsigned serial_flags(unsigned flags);

// Where gpufftw put a serial step's plan (gpufftw_plan_where).
Where where_of(const void *plan);
// "step 1 on gpu (<why>)"
std::string describe(const char *step, const void *plan);
// The numbered steps' plans (NULL: no such step here), those that run
// where and why alike named together, so that a reason they share is said
// once: "steps 1 and 3 on cpu (<why>)"; "" where there is none.
std::string describe_steps(const std::vector<std::pair<int, const void *>> &steps);

template <class R>
struct Steps {
  using S = Serial<R>;
  using C = typename S::C;
  // The serial plan of a step of the given kind from `from` to `to` (an
  // r2c's input or a c2r's output is FFTW's padded real array); nullptr
  // where the serial planner gives none.
  static typename S::Plan plan(const Layout &l, Shape shape, void *from, void *to, Kind kind, int sign,
                               unsigned serial_flags);
  static void run(typename S::Plan step, Kind kind, void *from, void *to);
};

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
