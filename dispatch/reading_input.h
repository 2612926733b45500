// The input a measuring planner reads its plans on. FFTW's planner zeroes
// a problem's input before it times a plan on it (its problem's `zero`),
// which is why FFTW_MEASURE may overwrite the arrays. gpufftw times its
// GPU plans on the program's arrays before the real FFTW's planner has
// touched them, and an array fresh from malloc whose pages were never
// written reads as one page of zeros the host's cache already holds:
// copies and conversions from it run faster than from the memory they
// will run from once the program fills it, by more for some ways than
// for others (the staging of halves more than the copy of floats).
#pragma once

#include "core/problem.h"

namespace gpufftw {

// Writes zero into every element the problem reads, as FFTW's planner
// does, and nothing between them (a stride's gaps are the program's).
// The input must be host memory.
void zero_input(const Problem &p);

}  // namespace gpufftw
