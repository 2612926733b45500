// Where the data of a distributed complex DFT of rank >= 2 lies, exactly as
// the real FFTW MPI lays it out (mpi/composed/local_size.h, FFTW's own arithmetic):
// the input and the output are each cut along one dimension, 0 or (with
// FFTW_MPI_TRANSPOSED_IN / _OUT) 1, and a rank's part of it is stored
// [its planes of that dimension][all of the other one of dims 0 and 1][rest],
// rest being dims 2.. and the howmany transforms, interleaved last.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpufftw {
namespace mpi {
namespace composed {

// One dimension cut over the ranks: rank q holds [start[q], start[q] + count[q]).
struct Split {
  std::vector<ptrdiff_t> start, count;
};

// FFTW's default cut of n over n_pes ranks: blocks of ceil(n / n_pes).
Split default_split(ptrdiff_t n, int n_pes);

// A complex DFT, or an r2c / c2r: the real side is FFTW's padded array,
// 2 (n/2 + 1) reals along the last dimension.
enum class Kind { C2C, R2C, C2R };

struct Layout {
  Kind kind = Kind::C2C;
  int rnk = 0;
  std::vector<ptrdiff_t> n;  // the complex sizes: an r2c's or c2r's last one n/2 + 1
  ptrdiff_t real_last = 0;   // an r2c's or c2r's real last size
  ptrdiff_t howmany = 1;
  ptrdiff_t rest = 1;  // complex values per (i0, i1): n[2] * ... * n[rnk-1] * howmany
  int in_dim = 0;      // the dimension the input is cut along (1: FFTW_MPI_TRANSPOSED_IN)
  int out_dim = 0;     // the dimension the output is cut along (1: FFTW_MPI_TRANSPOSED_OUT)
  Split in, out;
};

// The layout fftw_mpi_plan_many_dft(rnk, n, howmany, iblock, oblock, ...,
// flags) has on n_pes ranks. False, with why, where the real FFTW MPI would
// refuse the problem or cut it otherwise than along one of dims 0 and 1
// (left to it: it says NULL or plans it).
bool make_layout(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, unsigned flags,
                 int n_pes, Layout *layout, std::string *why);

// The same for fftw_mpi_plan_many_dft_r2c and _c2r: FFTW cuts them as the
// complex DFT of their complex side's sizes (the last one n/2 + 1). Their
// real side is never transposed (an r2c's FFTW_MPI_TRANSPOSED_IN and a
// c2r's FFTW_MPI_TRANSPOSED_OUT are left to the real FFTW MPI). A c2r
// asked to preserve its input has its layout, which the composed path
// weighs (it overwrites its input, so it leaves such a c2r to the real
// FFTW MPI where that computes it right, and gives no plan where not).
bool make_layout_r2c(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock,
                     unsigned flags, int n_pes, Layout *layout, std::string *why);
bool make_layout_c2r(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock,
                     unsigned flags, int n_pes, Layout *layout, std::string *why);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
