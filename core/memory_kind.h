// What memory an array is, as the GPU's driver tells it: how the engine
// moves it and what the planner prices. Pageable for anything CUDA does
// not know (and before a CUDA context exists).
#pragma once

namespace gpufftw {

enum class Memory { Pageable, Pinned, Device, Managed };

}  // namespace gpufftw
