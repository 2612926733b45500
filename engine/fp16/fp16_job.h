// The job for Geometry::half (GPUFFTW_PRECISION=fp16): a batch of
// single-precision c2c, r2c or c2r transforms computed on halves, the way
// Geometry::half_way names (engine.h's HalfWay). Host arrays, pinned and
// pageable alike, are converted to halves on the host while staged
// (engine/staging/half_staging.h), so the bus carries half the bytes, and
// back to floats on the way out; device and managed arrays are converted
// by a kernel (device_half.h). Whether that pays against the problem's
// single-precision job is dispatch's choice (dispatch/fp16_ways.h), not
// the job's.
#pragma once

#include "engine/engine.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

// Takes Geometry::half; its make fails, with why, where the job cannot
// take the geometry the way asked: not a dense batch of f32 transforms of
// rank 1 to 3 (c2c: unit stride, transforms back to back; r2c and c2r the
// same, the real side's rows n or FFTW's in-place 2 (n/2 + 1) reals long),
// a size the way does not take, or past the device memory cap. The
// planner then asks the solvers after it, in single precision.
extern const Solver kFp16Solver;

}  // namespace gpufftw::engine
