// The GPU engine: a lazy CUDA context and FFT jobs that run on it. Knows
// nothing of FFTW: it takes layouts in cuFFT's advanced form and pointers,
// host or device, and reports failure instead of throwing.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace gpufftw::engine {

// True once a CUDA device is usable; the first call creates the context
// (device from GPUFFTW_DEVICE, else 0 of those CUDA_VISIBLE_DEVICES shows)
// and loads cuFFT. `why` says what is missing when it is false.
bool gpu_available(std::string *why = nullptr);
std::string device_name();

enum class Type { C2C, R2C, C2R };
enum class Real { F32, F64 };

// cuFFT's advanced layout: element x of transform b sits at
// b*dist + stride*(((x0*nembed1 + x1)*nembed2 + x2)...).
struct Layout {
  int rank = 0;
  long long n[3] = {1, 1, 1};
  long long inembed[3] = {1, 1, 1}, onembed[3] = {1, 1, 1};
  long long istride = 1, idist = 0, ostride = 1, odist = 0;
  long long batch = 1;
};

// What a job reads and writes, in bytes from its base pointers.
struct Spans {
  size_t in_bytes = 0, out_bytes = 0;
  bool out_has_gaps = false;  // out span holds bytes the FFT never writes
};

class FftJob {
 public:
  // nullptr (with `why`) where cuFFT cannot make this plan or memory is short.
  static std::unique_ptr<FftJob> create(Type type, Real real, const Layout &layout, int sign, std::string *why);
  virtual ~FftJob() = default;
  // Runs once on in -> out (host or device pointers, detected per call; in
  // may equal out). false on any CUDA/cuFFT error: the caller recomputes
  // on the CPU, and `why` names the call that failed. Host input is never
  // modified; device input may be for C2R (as cuFFT does).
  virtual bool run(const void *in, void *out, std::string *why) = 0;
  virtual const Spans &spans() const = 0;
};

// Pinned host memory for fftw_malloc, or nullptr. Freed by free_pinned,
// which also works after the device went away.
void *alloc_pinned(size_t bytes);
bool free_pinned(void *p);  // false: p was not from alloc_pinned

}  // namespace gpufftw::engine
