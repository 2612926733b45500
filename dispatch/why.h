// The words of a plan's why that several of dispatch's rules share.
#pragma once

#include <string>

#include "core/problem.h"

namespace gpufftw {

// "1.23 ms".
std::string ms(double seconds);

// "1 thread", "4 threads".
std::string threads_text(int threads);

// How the real FFTW's side of a price was had: " (4 threads)", and where
// its back-to-back time was scaled (between_work), and where the model's
// (`model`) was for a size past its codelets (past_codelets), those too.
std::string cpu_terms(const Problem &p, int threads, bool model);

}  // namespace gpufftw
