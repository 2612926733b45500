// The in-core job's routes (engine/in_core/routes.h), decided when the job
// is made, on the CPU: which geometries go in chunks, in slabs, whole or
// gathered, for arrays of each kind, and what the job's path says of it.
#include "engine/in_core/routes.h"

#include <gtest/gtest.h>

namespace gpufftw::engine {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// `count` dense c2c f32 of n, out of place.
Geometry batch(long long n, long long count) {
  Geometry g;
  g.dims = {{n, 1, 1}};
  g.loops = {{count, n, n}};
  return g;
}

// One dense row-major c2c f32 of n0 x n1, out of place.
Geometry plane(long long n0, long long n1) {
  Geometry g;
  g.dims = {{n0, n1, n1}, {n1, 1, 1}};
  return g;
}

Routes routes_for(const Geometry &g, size_t cap, bool own) {
  return in_core_routes(in_core_layout(g, cap), own, true);
}

TEST(InCoreRoutes, WhereTheArraysLie) {
  EXPECT_EQ(arrays_at(Memory::Device, Memory::Managed), ArraysAt::Device);
  EXPECT_EQ(arrays_at(Memory::Pinned, Memory::Pinned), ArraysAt::Pinned);
  EXPECT_EQ(arrays_at(Memory::Pinned, Memory::Pageable), ArraysAt::Pageable);
  EXPECT_EQ(arrays_at(Memory::Device, Memory::Pageable), ArraysAt::Pageable);
  EXPECT_EQ(arrays_at(Memory::Device, Memory::Pinned), ArraysAt::Mixed);
}

// 65536 transforms of 1024 (512 MiB each way): in chunks, three streams'
// buffers sized within the cap; pageable arrays staged whole only where
// the cap holds them; our kernel, where kept, on device arrays only.
TEST(InCoreRoutes, ALargeBatchGoesInChunks) {
  const Geometry g = batch(1024, 65536);
  const InCoreLayout small = in_core_layout(g, 64 * kMiB), large = in_core_layout(g, 8192 * kMiB);
  ASSERT_TRUE(small.direct);
  EXPECT_EQ(small.chunk_per, 512);  // 128 chunks of 8 MiB: six of them fit 64 MiB
  EXPECT_EQ(large.chunk_per, 1024);
  EXPECT_FALSE(small.stage_whole);
  EXPECT_TRUE(large.stage_whole);
  EXPECT_EQ(small.held_bytes, 3 * 2 * 512 * 1024 * 8u);
  EXPECT_EQ(small.slabs, 0);

  Routes r = in_core_routes(small, false, false);
  for (ArraysAt a : {ArraysAt::Device, ArraysAt::Pinned, ArraysAt::Pageable, ArraysAt::Mixed})
    EXPECT_EQ(r.at(a), Route::Chunks);
  r = in_core_routes(large, true, true);
  EXPECT_EQ(r.at(ArraysAt::Device), Route::OwnKernel);
  EXPECT_EQ(r.at(ArraysAt::Pinned), Route::Chunks);
  EXPECT_EQ(r.at(ArraysAt::Mixed), Route::Chunks);
  EXPECT_EQ(r.at(ArraysAt::Pageable), Route::StagedChunks);
  EXPECT_EQ(r.describe(),
            "device arrays: our kernel, host ones staged; pinned and mixed arrays: in chunks over three streams; "
            "pageable arrays: staged whole, then in chunks");
}

// Device arrays have no copies for chunks to hide: a chunked batch's plan
// of the whole batch runs them, where the job has one, even at one
// transform a chunk (sixteen 1024 x 1024 planes, 8 MiB each way apiece).
TEST(InCoreRoutes, DeviceArraysRunAChunkedBatchWhole) {
  Geometry planes = plane(1024, 1024);
  planes.loops = {{16, 1024 * 1024, 1024 * 1024}};
  const InCoreLayout l = in_core_layout(planes, 8192 * kMiB);
  ASSERT_EQ(l.chunk_per, 1);
  Routes r = in_core_routes(l, false, true);
  EXPECT_EQ(r.at(ArraysAt::Device), Route::Whole);
  for (ArraysAt a : {ArraysAt::Pinned, ArraysAt::Pageable, ArraysAt::Mixed}) EXPECT_NE(r.at(a), Route::Whole);
  EXPECT_EQ(r.describe(),
            "device arrays: whole, host ones staged; pinned and mixed arrays: in chunks over three streams; "
            "pageable arrays: staged whole, then in chunks");
  EXPECT_EQ(in_core_routes(l, false, false).at(ArraysAt::Device), Route::Chunks);
  EXPECT_EQ(in_core_routes(l, true, true).at(ArraysAt::Device), Route::OwnKernel);
}

// Below 32 MB in all, a batch runs whole; so does one whose transforms
// overlap, and one whose output transforms leave gaps, within their span
// or between two: a chunk carries its whole output span back, gaps too.
TEST(InCoreRoutes, SmallOrOverlappingBatchesRunWhole) {
  const Geometry small = batch(1024, 1024);  // 8 MiB each way
  Geometry overlapping = batch(1024, 65536);
  overlapping.loops[0].is = 512;
  Geometry gaps = batch(1024, 65536);
  gaps.dims[0].os = 2;
  gaps.loops[0].os = 2048;
  Geometry spaced = batch(1024, 65536);
  spaced.loops[0].os = 1028;
  for (const Geometry &g : {small, overlapping, gaps, spaced}) {
    const InCoreLayout l = in_core_layout(g, 64 * kMiB);
    EXPECT_TRUE(l.direct) << l.not_direct;
    EXPECT_EQ(l.chunk_per, 0);
    const Routes r = in_core_routes(l, false, true);
    for (ArraysAt a : {ArraysAt::Device, ArraysAt::Pinned, ArraysAt::Pageable, ArraysAt::Mixed})
      EXPECT_EQ(r.at(a), Route::Whole);
  }
  EXPECT_EQ(routes_for(small, 64 * kMiB, false).describe(),
            "device, pinned, pageable and mixed arrays: whole, host ones staged");
  EXPECT_EQ(routes_for(small, 64 * kMiB, true).at(ArraysAt::Pinned), Route::OwnKernel);
}

// In place, cuFFT reads and writes one buffer through both sides'
// layouts at once: where they differ (a transposed output), the batch is
// gathered into dense buffers. FFTW's padded in-place r2c rows, whose real
// and complex sides step alike in their own units, stay direct.
TEST(InCoreRoutes, InPlaceThroughTwoLayoutsIsGathered) {
  Geometry transposed = batch(1024, 512);
  transposed.in_place = true;
  transposed.dims[0].os = 512;
  transposed.loops[0].os = 1;
  const InCoreLayout l = in_core_layout(transposed, 64 * kMiB);
  EXPECT_FALSE(l.direct);
  EXPECT_EQ(l.not_direct, "in place with other output strides");
  Geometry same = batch(1024, 512);
  same.in_place = true;
  EXPECT_TRUE(in_core_layout(same, 64 * kMiB).direct);
  Geometry r2c;
  r2c.type = Type::R2C;
  r2c.in_place = true;
  r2c.dims = {{64, 2 * 513, 513}, {1024, 1, 1}};
  r2c.loops = {{8, 64 * 2 * 513, 64 * 513}};
  const InCoreLayout padded = in_core_layout(r2c, 64 * kMiB);
  EXPECT_TRUE(padded.direct) << padded.not_direct;
}

// One dense 4096 x 4096 c2c (128 MiB each way): slabs and pencils on
// pinned arrays, whole (or our kernel) on the rest.
TEST(InCoreRoutes, ALargePlaneGoesInSlabsOnPinnedArrays) {
  const InCoreLayout l = in_core_layout(plane(4096, 4096), 1024 * kMiB);
  EXPECT_EQ(l.slabs, 8);
  EXPECT_EQ(l.pencils, 8);
  EXPECT_EQ(l.held_bytes, 256 * kMiB);
  Routes r = in_core_routes(l, false, true);
  EXPECT_EQ(r.at(ArraysAt::Pinned), Route::Slabs);
  EXPECT_EQ(r.at(ArraysAt::Device), Route::Whole);
  EXPECT_EQ(r.at(ArraysAt::Pageable), Route::Whole);
  EXPECT_EQ(r.at(ArraysAt::Mixed), Route::Whole);
  EXPECT_EQ(r.describe(),
            "device, pageable and mixed arrays: whole, host ones staged; pinned arrays: slabs then pencils, "
            "copies overlapped");
  r = in_core_routes(l, true, true);
  EXPECT_EQ(r.at(ArraysAt::Pinned), Route::Slabs);
  EXPECT_EQ(r.at(ArraysAt::Device), Route::OwnKernel);
}

// No slabs for a plane below 32 MB, a dim 0 of no divisor from 4 to 8, an
// in-place r2c, or a c2r.
TEST(InCoreRoutes, SlabsOnlyWhereTheyServe) {
  Geometry r2c = plane(4096, 4096);
  r2c.type = Type::R2C;
  r2c.in_place = true;
  r2c.dims = {{4096, 2 * 2049, 2049}, {4096, 1, 1}};
  Geometry c2r = plane(4096, 4096);
  c2r.type = Type::C2R;
  c2r.dims = {{4096, 2049, 4096}, {4096, 1, 1}};
  for (const Geometry &g : {plane(1024, 1024), plane(4099, 4096), r2c, c2r}) {
    const InCoreLayout l = in_core_layout(g, 1024 * kMiB);
    EXPECT_TRUE(l.direct) << l.not_direct;
    EXPECT_EQ(l.slabs, 0);
    EXPECT_EQ(in_core_routes(l, false, true).at(ArraysAt::Pinned), Route::Whole);
  }
  // Out of place, an r2c whose complex rows (n1/2 + 1) split evenly.
  Geometry r2c_out = r2c;
  r2c_out.in_place = false;
  r2c_out.dims = {{4096, 4094, 2048}, {4094, 1, 1}};
  EXPECT_EQ(in_core_layout(r2c_out, 1024 * kMiB).slabs, 8);
  EXPECT_EQ(in_core_layout(r2c_out, 1024 * kMiB).pencils, 8);
}

// Arrays cuFFT cannot read as they lie are gathered, whatever they are;
// the job holds dense buffers of both sides besides them.
TEST(InCoreRoutes, SplitArraysAreGathered) {
  Geometry g = batch(1024, 65536);
  g.split_in = g.split_out = true;
  const InCoreLayout l = in_core_layout(g, 64 * kMiB);
  EXPECT_FALSE(l.direct);
  EXPECT_EQ(l.not_direct, "split arrays");
  EXPECT_EQ(l.chunk_per, 0);
  EXPECT_EQ(l.held_bytes, 4 * 512 * kMiB);  // the split arrays, and a dense buffer each way
  const Routes r = in_core_routes(l, false, true);
  for (ArraysAt a : {ArraysAt::Device, ArraysAt::Pinned, ArraysAt::Pageable, ArraysAt::Mixed})
    EXPECT_EQ(r.at(a), Route::Gathered);
  EXPECT_EQ(r.describe(), "device, pinned, pageable and mixed arrays: gathered into dense buffers");
}

}  // namespace
}  // namespace gpufftw::engine
