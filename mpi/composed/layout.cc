#include "mpi/composed/layout.h"

#include <fftw3-mpi.h>

#include "mpi/composed/local_size.h"

namespace gpufftw {
namespace mpi {
namespace composed {

Split default_split(ptrdiff_t n, int n_pes) {
  Split s;
  const ptrdiff_t b = (n + n_pes - 1) / n_pes;
  for (int q = 0; q < n_pes; ++q) {
    const ptrdiff_t start = q * b < n ? q * b : n;
    s.start.push_back(start);
    s.count.push_back(start + b < n ? b : n - start);
  }
  return s;
}

namespace {

// True when every rank's part is whole along every dimension but `dim`, and
// the parts along `dim` cover it once: a cut of one dimension.
bool cut_along(int rnk, const ptrdiff_t *n, int dim, const std::vector<ptrdiff_t> &local_n,
               const std::vector<ptrdiff_t> &local_start, int n_pes, Split *split) {
  ptrdiff_t covered = 0;
  for (int q = 0; q < n_pes; ++q) {
    const ptrdiff_t *ln = &local_n[static_cast<size_t>(q) * rnk];
    const ptrdiff_t *ls = &local_start[static_cast<size_t>(q) * rnk];
    if (ln[dim] > 0)
      for (int i = 0; i < rnk; ++i)
        if (i != dim && (ln[i] != n[i] || ls[i] != 0)) return false;
    split->start.push_back(ln[dim] > 0 ? ls[dim] : 0);
    split->count.push_back(ln[dim]);
    covered += ln[dim];
  }
  return covered == n[dim];
}

}  // namespace

bool make_layout(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock, unsigned flags,
                 int n_pes, Layout *layout, std::string *why) {
  if (rnk < 2) return *why = "rank 1 (distributed 1-D transforms stay on the real FFTW MPI)", false;
  // The real FFTW MPI scrambles 1-D transforms alone and gives no plan of
  // rank 2 or more so asked: neither does a composed plan.
  if (flags & (FFTW_MPI_SCRAMBLED_IN | FFTW_MPI_SCRAMBLED_OUT))
    return *why = "FFTW_MPI_SCRAMBLED_IN or _OUT, which the real FFTW MPI takes on 1-D transforms alone", false;
  if (howmany < 1) return *why = "howmany < 1", false;
  if (iblock < 0 || oblock < 0) return *why = "a negative block", false;
  for (int i = 0; i < rnk; ++i)
    if (n[i] < 1) return *why = "a size < 1", false;
  // The dims fftw_mpi_plan_many_dft hands its guru planner: whole
  // dimensions, but for the blocks it was given.
  Layout l;
  l.rnk = rnk;
  l.n.assign(n, n + rnk);
  l.howmany = howmany;
  l.in_dim = (flags & FFTW_MPI_TRANSPOSED_IN) ? 1 : 0;
  l.out_dim = (flags & FFTW_MPI_TRANSPOSED_OUT) ? 1 : 0;
  for (int i = 2; i < rnk; ++i) l.rest *= n[i];
  l.rest *= howmany;
  std::vector<DDim> dims(static_cast<size_t>(rnk));
  for (int i = 0; i < rnk; ++i) dims[i] = {n[i], n[i], n[i]};
  dims[l.in_dim].ib = iblock;
  dims[l.out_dim].ob = oblock;
  const size_t r = static_cast<size_t>(rnk);
  std::vector<ptrdiff_t> ln_in(r * n_pes), ls_in(r * n_pes), ln_out(r * n_pes), ls_out(r * n_pes);
  for (int q = 0; q < n_pes; ++q)
    local_size_guru(rnk, dims.data(), howmany, q, n_pes, &ln_in[q * r], &ls_in[q * r], &ln_out[q * r], &ls_out[q * r],
                    FFTW_FORWARD, flags);
  if (!cut_along(rnk, n, l.in_dim, ln_in, ls_in, n_pes, &l.in))
    return *why = "the input is not cut along one dimension (more blocks than ranks?)", false;
  if (!cut_along(rnk, n, l.out_dim, ln_out, ls_out, n_pes, &l.out))
    return *why = "the output is not cut along one dimension (more blocks than ranks?)", false;
  *layout = std::move(l);
  return true;
}

namespace {

bool make_real_layout(Kind kind, int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock,
                      unsigned flags, int n_pes, Layout *layout, std::string *why) {
  if (rnk < 2 || n[rnk - 1] < 1) return make_layout(rnk, n, howmany, iblock, oblock, flags, n_pes, layout, why);
  std::vector<ptrdiff_t> complex_n(n, n + rnk);
  complex_n.back() = n[rnk - 1] / 2 + 1;
  if (!make_layout(rnk, complex_n.data(), howmany, iblock, oblock, flags, n_pes, layout, why)) return false;
  layout->kind = kind;
  layout->real_last = n[rnk - 1];
  return true;
}

}  // namespace

bool make_layout_r2c(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock,
                     unsigned flags, int n_pes, Layout *layout, std::string *why) {
  if (flags & FFTW_MPI_TRANSPOSED_IN) return *why = "an r2c with FFTW_MPI_TRANSPOSED_IN", false;
  return make_real_layout(Kind::R2C, rnk, n, howmany, iblock, oblock, flags, n_pes, layout, why);
}

bool make_layout_c2r(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t iblock, ptrdiff_t oblock,
                     unsigned flags, int n_pes, Layout *layout, std::string *why) {
  if (flags & FFTW_MPI_TRANSPOSED_OUT) return *why = "a c2r with FFTW_MPI_TRANSPOSED_OUT", false;
  return make_real_layout(Kind::C2R, rnk, n, howmany, iblock, oblock, flags, n_pes, layout, why);
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
