// The job for Geometry::half (GPUFFTW_PRECISION=fp16): a batch of
// single-precision c2c transforms computed on halves. Pageable host arrays
// are converted to halves while staged (engine/fp16/half_staging.h), so the bus
// carries half the bytes, and back to floats on the way out; device and
// managed arrays are converted by a kernel (device_half.h). The transform
// runs in place on the device's halves: our tensor-core kernels
// (fp16_fft.h) where they take the sizes, else cuFFT's FP16 (powers of
// two), else cuFFT in single precision on floats made from the halves (the
// data still crosses the bus as halves). Pinned host arrays run the
// problem's single-precision job instead: the DMA engines read them faster
// than the host converts them (docs/fp16.md, "Host path").
#pragma once

#include "engine/engine.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

// Takes Geometry::half; its make fails, with why, where the job cannot
// take the geometry: not a dense batch of c2c f32 transforms of rank 1 to
// 3 (unit stride, transforms back to back), or past the device memory cap.
// The planner then asks the solvers after it, in single precision.
extern const Solver kFp16Solver;

}  // namespace gpufftw::engine
