// One large 1-D c2c transform, n = n1 * n2 points, larger than the device
// memory cap (or the GPU), run through device memory a piece at a time by
// the four-step method. With x[j1 n2 + j2] and X[k1 + n1 k2],
//   X[k1 + n1 k2] = sum_j2 W_n2^(j2 k2) W_n^(j2 k1) sum_j1 W_n1^(j1 k1) x[j1 n2 + j2]
// in two phases:
//   1. columns: a block of the n2 columns of x seen as n1 x n2 row-major
//      (a 2-D copy) in; the length-n1 transform down each; the twiddle
//      W_n^(j2 k1) and a transpose on the device, so that column j2 becomes
//      the contiguous row j2 of an n2 x n1 array; out in one copy;
//   2. pencils: a block of the n1 columns of that array, across its n2
//      rows, in; the length-n2 transform down each; back to the same
//      places, which are X's order: k1 + n1 k2.
// Phase 1 writes the output array and phase 2 reads only it, so the input
// of an out-of-place transform is never written. In place, phase 1 would
// overwrite columns not yet read: it writes a pinned host scratch array of
// the transform's size instead (the job keeps it), which phase 2 reads.
// Chunks and streams as in out_of_core_base.h.
#pragma once

#include "engine/engine.h"
#include "engine/solver/solver.h"

namespace gpufftw::engine {

// The solvers of one (howmany 1) dense 1-D c2c on interleaved arrays
// whose n has two factors near its square root, two as the 2-D/3-D
// out-of-core ones are (out_of_core.h).
extern const Solver kFourStepOverCapSolver;
extern const Solver kFourStepSolver;

}  // namespace gpufftw::engine
