// FFTW_ESTIMATE's choice under GPUFFTW_MPI_PATH=auto, where every rank has
// a GPU: the cost model prices both sides low (never high), so only a sure
// verdict is drawn from the prices (dispatch/cost_model.h's judge, the
// serial planner's rule), as FFTW_MEASURE draws one before it times the
// real FFTW MPI (entry.cc). Pure: no MPI, no GPU, so it is tested on the
// CPU.
#pragma once

#include <cstddef>
#include <vector>

#include "mpi/composed/layout.h"

namespace gpufftw {
namespace mpi {
namespace composed {

// The serial problem of the whole layout, as the model prices the real
// FFTW MPI: the layout's sizes, the last one an r2c's or c2r's real size.
std::vector<long> whole_sizes(const Layout &layout);

// One rank's share of the composed plan's local transforms, as one serial
// problem the model prices on one GPU: whole_sizes with the first cut to
// ceil(n0 / n_pes), the planes FFTW's default block gives a rank. The
// exchange is priced apart (exchange_seconds), and a rank given a larger
// block by the program holds more, so the price is low, never high.
std::vector<long> share_sizes(const Layout &layout, int n_pes);

// The bytes the composed plan's exchanges send between ranks (plan.h),
// `value_bytes` a complex value's: in each, the most any rank sends to the
// others, summed over the exchanges. The first hands out o and gathers f;
// where the output is cut along f (FFTW's default), a second hands out f
// and gathers o; under FFTW_MPI_TRANSPOSED_OUT (or TRANSPOSED_IN alone)
// there is no second. What a rank keeps of its own part crosses nothing.
// Each exchange ends when its busiest rank has sent its part, and the
// exchanges run one after the other, so the time this many bytes take is
// a floor of theirs. On one rank, none.
double exchange_bytes(const Layout &layout, int n_pes, size_t value_bytes);

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

// exchange_bytes over `rate` bytes per second, in seconds; 0 on one rank.
// The rate is a ceiling, never a reading of the exchange (entry.cc says
// which), so that the price stays low.
double exchange_seconds(const Layout &layout, int n_pes, size_t value_bytes, double rate);

// True where the real FFTW MPI is sure to be faster than the composed
// plan: both low prices known (positive), and judge's verdict the real
// FFTW MPI's by kSureRatio or more. A missing price, or one
// within kSureRatio, keeps the composed plan.
bool real_surely_faster(double real_ms, double composed_ms);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
