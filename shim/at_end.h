// Writers of what gpufftw prints when the process ends (the report, the
// comparison, the word on a statically linked FFTW), run after the
// program's C++ static destructors, so that the plans those make, execute
// and destroy are counted.
#pragma once

namespace gpufftw {

// Runs `write` once as the process ends, or as gpufftw is unloaded, after
// every atexit handler and C++ static destructor that exit runs first;
// writers run in the order they were first given. At most three writers.
void write_at_end(void (*write)());

}  // namespace gpufftw
