// How the in-core job (cufft_job.h) runs a geometry, decided when the job
// is made: which of its paths serves arrays of each kind. Geometry
// arithmetic alone, the device memory cap handed in: no CUDA call, so that
// the decision is tested without a GPU.
#pragma once

#include <cstddef>
#include <string>

#include "engine/engine.h"
#include "engine/staging/sides.h"

namespace gpufftw::engine {

// One way an execute runs.
enum class Route {
  Whole,         // cuFFT's one plan on the arrays as they lie, host ones staged whole
  OwnKernel,     // our kernel in cuFFT's place, likewise
  Gathered,      // a kernel packs the arrays densely, cuFFT works on dense buffers, a kernel scatters back
  Chunks,        // a batch in chunks over three streams, each chunk's copies under another's FFT
  StagedChunks,  // pageable arrays staged whole through the copier, then in chunks on the device
  Slabs,         // slabs of dim 0 copied in under their FFTs, then pencils along it copied out likewise
};

// Where an execute finds its arrays: the one fact of a run that only its
// call knows. The engine is handed no arrays when it plans, and FFTW's
// new-array execute may hand a plan made on pageable arrays pinned or
// device ones. Device: both on the device (or managed); Pinned: both
// pinned; Pageable: either pageable; Mixed: the rest (one on the device,
// the other pinned).
enum class ArraysAt { Device, Pinned, Pageable, Mixed };
ArraysAt arrays_at(Memory in, Memory out);

// Streams a batch in chunks runs over.
constexpr int kChunkStreams = 3;

// What of a geometry the routes follow from.
struct InCoreLayout {
  bool direct = false;     // cuFFT reads and writes the arrays as they lie
  std::string not_direct;  // else why not (they are gathered)
  // A batch in chunks: transforms per chunk, 0 where not chunked. Chunks
  // pay where a batch moves enough bytes and its transforms lie apart.
  long long chunk_per = 0;
  // Chunks on pageable arrays: whether staging them whole keeps within
  // the cap (the copier's threads are the bottleneck, so they must not
  // wait on each chunk); else chunk by chunk.
  bool stage_whole = false;
  // The slab path (one dense 2-D/3-D c2c, or out-of-place r2c, of 32 MB
  // or more): slabs of dim 0 and pencil groups of the output's dim 1, 0
  // where it does not serve.
  long long slabs = 0, pencils = 0;
  // Device bytes a run holds besides cuFFT's work areas, for all but the
  // chunks (those are sized within the cap): the arrays staged, and the
  // dense buffers where gathered.
  size_t held_bytes = 0;
};

InCoreLayout in_core_layout(const Geometry &g, size_t cap);

// Bytes `count` transforms of a batch span on side `s`, `dist` apart.
size_t chunk_bytes(const Side &s, long long dist, long long count);

// The route for arrays of each kind.
struct Routes {
  Route device = Route::Whole, pinned = Route::Whole, pageable = Route::Whole, mixed = Route::Whole;
  Route at(ArraysAt a) const;
  // "pinned arrays: slabs then pencils; device, pageable and mixed
  // arrays: whole, host ones staged": for FftJob::path().
  std::string describe() const;
};

// `own`: our kernel took the geometry (after tuning, when the job is made).
// `whole`: a batch in chunks has a plan of the whole batch too, for
// device arrays.
Routes in_core_routes(const InCoreLayout &l, bool own, bool whole);

}  // namespace gpufftw::engine
