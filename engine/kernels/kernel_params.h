// What a launch of the FFT kernels is told: plain data shared by the host
// side (which plans) and the device side (which runs it).
#pragma once

#include <cuda_runtime_api.h>

namespace gpufftw::engine::kernels {

// 4096 = 16^3 needs three stages, 3^7 = 2187 seven; twelve leaves room.
constexpr int kMaxStages = 12;
constexpr int kMaxThreads = 512;
// Lengths up to this run whole in one thread's registers.
constexpr int kMaxRegisterN = 16;

// How a block computes its transforms, and so how many registers a thread
// holds (the compiler's budget is what limits resident blocks):
//   Registers: each thread whole transforms of a compile-time length <= 16,
//              one after another, in registers (one kernel per length);
//   Stages16:  Stockham stages in shared memory, a thread up to 16 values
//              a stage (radix up to 16), one block per SM's worth of
//              registers (up to 128);
//   Stages8:   the same with at most 8 values (radix up to 8, 13, 11 and 7
//              alone) and a budget of 64 registers, two blocks of 512 or
//              four of 256 threads resident.
enum class Shape { Registers, Stages16, Stages8 };

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
  const void *tw;         // stage twiddles, forward sign, complex T
  const void *chirp;      // Bluestein: exp(-+i*pi*j^2/n), forward then backward, n each
  const void *kernel_ft;  // Bluestein: FFT of the conjugate chirp / m, forward then backward, len each
  int vec;                // vector global accesses: 8-byte (f32) or 16-byte (f64) aligned arrays
  int dir;                // Bluestein: 0 forward, 1 backward
};

// Bluestein: m a power of two (Pow2) or 2^a 3^b 5^c (Smooth).
enum class Mode { Forward, Backward, BluesteinPow2, BluesteinSmooth };

// One kernel of the launch files: its mode and shape.
struct KernelKind {
  Mode mode;
  Shape shape;
};

// Launch over all p.batch transforms; the launch's error (or cudaSuccess).
cudaError_t launch_f32(KernelKind k, const KernelParams &p, const void *in, void *out, cudaStream_t stream);
cudaError_t launch_f64(KernelKind k, const KernelParams &p, const void *in, void *out, cudaStream_t stream);
// Lets the kernel of `k` (Registers: of length p.n) use `bytes` of dynamic
// shared memory.
cudaError_t allow_shared_f32(KernelKind k, int n, int bytes);
cudaError_t allow_shared_f64(KernelKind k, int n, int bytes);
// Registers and local (spill) bytes per thread of the kernel, from
// cudaFuncGetAttributes, for the plan's description.
cudaError_t attributes_f32(KernelKind k, int n, cudaFuncAttributes *a);
cudaError_t attributes_f64(KernelKind k, int n, cudaFuncAttributes *a);

}  // namespace gpufftw::engine::kernels
