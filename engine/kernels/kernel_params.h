// What a launch of the FFT kernels is told: plain data shared by the host
// side (which plans) and the device side (which runs it).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpufftw::engine::kernels {

// 4096 = 8^4 needs four stages of Stages8, 3125 = 5^5 five; twelve leaves room.
constexpr int kMaxStages = 12;
// The radices of the stages, in the order a kernel runs them (a plan's
// stages follow it): powers of two, then the others, each descending. The
// composite ones (14, 12, 10, 9, 6) save a pass through shared memory over
// their factors; kernels of their own have them, since their code raises
// every stage's register pressure (15 spilled in f64 and is left out).
constexpr int kRadixOrder[] = {16, 8, 4, 2, 14, 13, 12, 11, 10, 9, 7, 6, 5, 3};
constexpr int kMaxThreads = 512;
// Lengths up to this run whole in one thread's registers.
constexpr int kMaxRegisterN = 16;
// Lengths up to this may run as a direct DFT (Shape::Direct).
constexpr int kMaxDirectN = 64;

// How a block computes its transforms, and so how many registers a thread
// holds (the compiler's budget is what limits resident blocks):
//   Registers: each thread whole transforms of a compile-time length <= 16,
//              one after another, in registers (one kernel per length);
//   Stages16:  Stockham stages in shared memory, a thread up to 16 values
//              a stage (radix up to 16), one block per SM's worth of
//              registers (up to 128);
//   Stages8:   the same with at most 8 values (powers of two up to 8; a
//              larger radix one butterfly) under a budget of 64 registers
//              in f32, 80 in f64;
//   Direct:    a direct DFT from a table of the n roots, each thread the
//              outputs k and n - k of a transform (n / 2 + 1 threads a
//              transform), one transform after another: for the small
//              lengths that would otherwise run Bluestein.
enum class Shape { Registers, Stages16, Stages8, Direct };

// Butterflies of radix r one thread holds at once in a stage.
__host__ __device__ constexpr int max_iters(Shape s, int r) {
  const int values = s == Shape::Stages8 ? 8 : 16;
  return r >= values ? 1 : values / r;
}

// One Stockham stage: radix, the product of the radices before it (ns),
// ns's reciprocal for __umulhi, and where its twiddles start in the table.
struct Stage {
  int radix, ns;
  unsigned ns_magic;
  int tw;
};

struct KernelParams {
  int n;          // transform length
  int len;        // length the stages run on: n, or Bluestein's padded m
  int slot;       // shared-memory values per part (re or im) per transform
  int tpt;        // threads per transform (Registers: 1, each thread loops over transforms)
  int per_block;  // transforms per block
  long long batch;
  unsigned n_magic;  // for e / n with __umulhi
  int stages;
  Stage stage[kMaxStages];
  const void *tw;         // stage twiddles, forward sign, complex T; Direct: cos and sin of 2*pi*m/n, m < n
  const void *chirp;      // Bluestein: exp(-+i*pi*j^2/n), forward then backward, n each
  const void *kernel_ft;  // Bluestein: FFT of the conjugate chirp / m, forward then backward, len each
  int vec;                // vector global accesses: 8-byte (f32) or 16-byte (f64) aligned arrays
  int dir;                // Bluestein: 0 forward, 1 backward
  int ahead;              // prefetching: blocks resident at once, whose chunk ahead a block prefetches (0: none)
};

// Direct: threads of a block of per_block transforms, tpt = n / 2 + 1 a
// transform. Up to 256, so that each thread loads several values: with
// only the two of its own outputs, a block's loads in flight were too few
// to hide the memory's latency.
__host__ __device__ constexpr int direct_threads(int tpt, int per_block) {
  return tpt * (per_block < 256 / tpt ? per_block : 256 / tpt);
}

// Direct: the pairs a transform keeps in shared memory: (x[0], x[n/2] or
// 0), then (x[j] + x[n-j], x[j] - x[n-j]) for 0 < j < n - j.
__host__ __device__ constexpr int direct_pairs(int n) { return (n + 1) / 2; }

// Direct: where a block's pairs start in shared memory, after its slots
// (16-byte aligned, for the pairs' vector loads); the table of roots
// follows the pairs.
__host__ __device__ constexpr size_t direct_offset(size_t real, int per_block, int slot) {
  return (2 * real * per_block * slot + 15) / 16 * 16;
}

// Dynamic shared bytes of a block of `per_block` transforms of `slot`
// values each (re and im), in T of `real` bytes.
__host__ __device__ constexpr size_t block_shared(Shape s, size_t real, int per_block, int slot, int n) {
  if (s != Shape::Direct) return 2 * real * per_block * slot;
  return direct_offset(real, per_block, slot) + real * (4 * static_cast<size_t>(per_block) * direct_pairs(n) + 2 * n);
}

// Bluestein: its padded length m a power of two.
enum class Mode { Forward, Backward, Bluestein };

// One kernel of the launch files: its mode, shape, whether it has the
// composite radices, and whether it is a strided pass (StridedParams).
struct KernelKind {
  Mode mode;
  Shape shape;
  bool composite;
  bool strided = false;
};

// Where one side of a strided pass lies, in complex values: element j of
// column c of group g at g*group_dist + c*dist + j*stride.
struct SideLayout {
  long long stride, dist, group_dist;
};

// A pass of a multi-pass transform: the batch is groups of `cols` columns
// (transforms), a block takes KernelParams::per_block adjacent columns of
// one group, so that where dist is 1 a warp reads and writes runs of
// adjacent addresses (Wu & JaJa's coalesced column access). No loop of
// the stages over more columns than the block has threads for: the
// compiler hoists the butterflies' constants out of such a loop and spills.
struct StridedParams {
  long long cols;
  int blocks_per_group;
  unsigned per_block_magic;  // for e / per_block with __umulhi
  SideLayout in, out;
  // Four-step: output element k of column c times W_{twiddle_n}^(c*k),
  // that root split as the product of twiddle_lo[r & 4095] and
  // twiddle_hi[r >> 12] (two small tables in double-precision-rounded T,
  // forward sign); twiddle_n 0 for none.
  long long twiddle_n;
  const void *twiddle_lo, *twiddle_hi;
};
constexpr int kTwiddleLoBits = 12;

// A launch's grid as the plan laid it out (StockhamPlan): the launch takes
// it as it is, so that the plan's account of a block (its description,
// the occupancy it prefetches by) is the block that runs.
struct Grid {
  unsigned blocks;
  int threads;
  size_t shared;  // dynamic bytes a block
};

// Launch over all p.batch transforms; the launch's error (or cudaSuccess).
cudaError_t launch_f32(KernelKind k, const Grid &g, const KernelParams &p, const void *in, void *out,
                       cudaStream_t stream);
cudaError_t launch_f64(KernelKind k, const Grid &g, const KernelParams &p, const void *in, void *out,
                       cudaStream_t stream);
// The same for a strided pass (k.strided).
cudaError_t launch_strided_f32(KernelKind k, const Grid &g, const KernelParams &p, const StridedParams &q,
                               const void *in, void *out, cudaStream_t stream);
cudaError_t launch_strided_f64(KernelKind k, const Grid &g, const KernelParams &p, const StridedParams &q,
                               const void *in, void *out, cudaStream_t stream);
// Lets the kernel of `k` (Registers: of length p.n) use `bytes` of dynamic
// shared memory.
cudaError_t allow_shared_f32(KernelKind k, int n, int bytes);
cudaError_t allow_shared_f64(KernelKind k, int n, int bytes);
// Registers and local (spill) bytes per thread of the kernel, from
// cudaFuncGetAttributes, for the plan's description.
cudaError_t attributes_f32(KernelKind k, int n, cudaFuncAttributes *a);
cudaError_t attributes_f64(KernelKind k, int n, cudaFuncAttributes *a);
// How many blocks of `threads` and `shared` bytes of the kernel an SM holds.
cudaError_t resident_blocks_f32(KernelKind k, int n, int threads, size_t shared, int *blocks);
cudaError_t resident_blocks_f64(KernelKind k, int n, int threads, size_t shared, int *blocks);

}  // namespace gpufftw::engine::kernels
