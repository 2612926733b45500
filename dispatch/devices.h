// The GPU as the extension API (shim/extension.cc) and fftw_malloc
// (shim/memory.cc) reach it, so that the shim sits on dispatch alone: the
// engine's answers in a build with CUDA, no GPU in one without.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpufftw {

// Whether a CUDA device and cuFFT are usable (this starts CUDA).
bool gpu_usable();

// The device set plans made from now on may spread over
// (engine::devices()), and setting it; false (with why) where a number is
// not a device or is named twice, or there is no GPU.
std::vector<int> gpu_devices();
bool set_gpu_devices(const std::vector<int> &set, std::string *why);

// Pinned host memory handed out and not freed, freed and kept, and the
// device memory in use on the set's first GPU; never starts CUDA.
struct GpuMemoryHeld {
  size_t pinned_live = 0, pinned_kept = 0, device_used = 0;
};
GpuMemoryHeld gpu_memory_held();

// Pinned host memory of `bytes`, or nullptr (no GPU, or CUDA refused).
void *alloc_pinned(size_t bytes);
// Frees what alloc_pinned handed out; false where p is not from it.
bool free_pinned(void *p);

// The questions this header has answered (a call of any function above,
// each counted once), so that a test can hold a path, such as a CPU
// plan's execute, to asking the GPU nothing: work per device shows as a
// count that grows with the set.
unsigned long gpu_questions();
// A stand-in device set for the tests of such a path: while it is not
// empty, gpu_devices() answers it without asking the engine, as where the
// machine had those GPUs; empty, the engine's set again.
void stand_in_devices(const std::vector<int> &set);

}  // namespace gpufftw
