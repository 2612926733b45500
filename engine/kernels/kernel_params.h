// What a launch of the FFT kernels is told: plain data shared by the host
// side (which plans) and the device side (which runs it).
#pragma once

#include <cuda_runtime_api.h>

namespace gpufftw::engine::kernels {

// 4096 = 16^3 needs three stages, 3^7 = 2187 seven; twelve leaves room.
constexpr int kMaxStages = 12;
constexpr int kMaxThreads = 512;

// Butterflies one thread holds at once in a stage of radix r: about 16
// values, what the registers take without spilling at 512 threads.
__host__ __device__ constexpr int max_iters(int r) { return r >= 16 ? 1 : 16 / r; }

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
  int tpt;        // threads per transform
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

enum class Mode { Forward, Backward, Bluestein };

// Launch over all p.batch transforms; the launch's error (or cudaSuccess).
cudaError_t launch_f32(Mode mode, const KernelParams &p, const void *in, void *out, cudaStream_t stream);
cudaError_t launch_f64(Mode mode, const KernelParams &p, const void *in, void *out, cudaStream_t stream);
// Lets the kernel of `mode` use `bytes` of dynamic shared memory.
cudaError_t allow_shared_f32(Mode mode, int bytes);
cudaError_t allow_shared_f64(Mode mode, int bytes);

}  // namespace gpufftw::engine::kernels
