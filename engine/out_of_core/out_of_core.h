// One 2-D or 3-D transform larger than the device memory cap (or the
// GPU), run through device memory a piece at a time in two phases:
//   1. slabs: a chunk of whole planes of dim 0 in, the (rank-1)-D
//      transform over the trailing dims (r2c: real to complex, the last
//      dim halved), out to the output array;
//   2. pencils: a block of contiguous columns of a plane, across all n0
//      planes (a 2-D copy, pitch = the plane), in, the 1-D transform of
//      length n0 down each column, back to the output array.
// Both phases write the output array and phase 2 reads only it, so the
// input of an out-of-place transform is read once and never written.
// Chunks are sized so that the buffers and cuFFT's work areas stay within
// the cap, and go round-robin over three streams, so that one chunk's copy
// in, another's FFT and a third's copy out run at once.
#pragma once

#include "engine/engine.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

// The solvers of one (howmany 1) 2-D or 3-D c2c or r2c, dense and
// row-major on interleaved arrays (r2c: the real input's rows may be
// padded, as in FFTW's in-place layout). (c2r would need the input's
// transform along dim 0 first, and the engine never writes an input that
// is not also the output.) Two of them: one where the arrays alone pass
// the device memory cap, one where they fit, priced above the in-core
// solvers (OutOfCorePath, engine/out_of_core/out_of_core_base.h).
extern const Solver kOutOfCoreOverCapSolver;
extern const Solver kOutOfCoreSolver;

}  // namespace gpufftw::engine
