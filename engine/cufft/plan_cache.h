// cuFFT plans: made by geometry, kept idle for the next job of the same
// geometry, and run on a stream.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "engine/device/context.h"

namespace gpufftw::engine {

// What a plan is cached by: cuFFT type, device, shape (sizes, embeds,
// strides, distances, batch).
using PlanKey = std::tuple<int, int, std::vector<long long>>;

// A cuFFT plan run `outer` times, `outer_step` elements apart, on the
// dense buffers (or, for the direct path, once on the arrays).
struct Step {
  PlanKey key;
  cufftHandle handle = 0;
  size_t work = 0;  // bytes of cuFFT's work area for it
  cufftType type = CUFFT_C2C;
  int sign = CUFFT_FORWARD;
  bool in_to_out = true;  // false: in place on the input buffer
  long long outer = 1, outer_step = 0;
};

// Gives `step` (its type set) a cuFFT plan of `rank` dims n over the given
// embeds, in cufftMakePlanMany64's terms: an idle one of the same geometry
// from the cache, or a new one. A plan is held by one job at a time.
bool make_plan(Step *step, int rank, const long long *n, long long *inembed, long long istride, long long idist,
               long long *onembed, long long ostride, long long odist, long long batch, std::string *why);
// The step's plan back to the cache, for the next job of its geometry.
void retire_plan(const Step &step);
// The step's plan destroyed, its work area freed.
void destroy_plan(const Step &step);

// Runs the step's plan once on `stream`, in to out (the same pointer: in
// place).
bool exec_plan(const Step &s, cudaStream_t stream, void *in, void *out, std::string *why);

}  // namespace gpufftw::engine
