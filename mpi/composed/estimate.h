// The layout's sizes and exchanges as the MPI layer prices the real FFTW
// MPI under FFTW_MEASURE (entry.cc's real_side_model_ms): the serial
// problem the model prices, and the bytes and count of the exchanges, for
// the floor an MPI all-to-all reads of each. Pure: no MPI, no GPU, so it
// is tested on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi/composed/layout.h"

namespace gpufftw {
namespace mpi {
namespace composed {

// The serial problem of the whole layout, as the model prices the real
// FFTW MPI: the layout's sizes, the last one an r2c's or c2r's real size.
std::vector<long> whole_sizes(const Layout &layout);

// The bytes the layout's exchanges send between ranks, the composed
// plan's (plan.h) and the real FFTW MPI's alike, `value_bytes` a complex
// value's: in each, the most any rank sends to the others, summed over
// the exchanges. The first hands out o and gathers f; where the output is
// cut along f (FFTW's default), a second hands out f and gathers o; under
// FFTW_MPI_TRANSPOSED_OUT (or TRANSPOSED_IN alone) there is no second.
// What a rank keeps of its own part crosses nothing. Each exchange ends
// when its busiest rank has sent its part, and the exchanges run one
// after the other, so the time this many bytes take is a floor of theirs.
// On one rank, none.
double exchange_bytes(const Layout &layout, int n_pes, size_t value_bytes);

// The points of whole_sizes times howmany: the serial planner's count of
// a problem's points (its real sizes for r2c and c2r), so that FFTW_MEASURE's
// cut (estimate_loses_by) falls at the same size in both planners.
int64_t whole_points(const Layout &layout);

// How many exchanges the layout takes between ranks, the composed plan's
// and the real FFTW MPI's alike (each transposes the same way): two in
// FFTW's default layout, one where the output stays cut along the first
// exchange's gathered dimension (TRANSPOSED_OUT, or TRANSPOSED_IN alone);
// none on one rank.
int exchange_count(const Layout &layout, int n_pes);

// The bytes each rank sends to each other rank in one MPI all-to-all that
// stands for one of the layout's exchanges in a reading of its floor: the
// busiest rank's share of one exchange (exchange_bytes over the count),
// spread over the others, at most `cap` in all. Fewer bytes read no
// slower, so a capped reading is still a floor.
size_t alltoall_bytes_each(const Layout &layout, int n_pes, size_t value_bytes, size_t cap);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
