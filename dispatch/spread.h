// Where a GPU plan runs when the device set has several GPUs.
#pragma once

namespace gpufftw {

// Auto: where the engine places it (over the set where its split takes
// the problem, else on the set's first GPU); One: on the first GPU alone;
// Set: over the set alone (no plan where the split does not take it).
enum class Spread { Auto, One, Set };

}  // namespace gpufftw
