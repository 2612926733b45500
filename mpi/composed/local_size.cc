// A line-by-line port of FFTW 3.3.10's layout arithmetic (mpi/api.c,
// block.c, dtensor.c, choose-radix.c; kernel/primes.c's isqrt and
// is_prime). Names follow FFTW's so the two read side by side.
#include "mpi/composed/local_size.h"

#include <fftw3-mpi.h>

#include <algorithm>
#include <vector>

namespace gpufftw {
namespace mpi {
namespace {

using INT = ptrdiff_t;
enum BlockKind { IB = 0, OB = 1 };
constexpr int kFftSign = -1;

struct Dim {
  INT n;
  INT b[2];
};
// rnk < 0: FFTW's RNK_MINFTY (a dimension of size <= 0).
struct DTensor {
  int rnk = 0;
  std::vector<Dim> dims;
  explicit DTensor(int r) : rnk(r), dims(r > 0 ? r : 0) {}
};

INT num_blocks(INT n, INT block) { return (n + block - 1) / block; }
INT default_block(INT n, int n_pes) { return (n + n_pes - 1) / n_pes; }
INT block(INT n, INT blk, INT which_block) {
  INT d = n - which_block * blk;
  return d <= 0 ? 0 : (d > blk ? blk : d);
}
INT num_blocks_total(const DTensor &sz, int k) {
  if (sz.rnk < 0) return 0;
  INT ntot = 1;
  for (int i = 0; i < sz.rnk; ++i) ntot *= num_blocks(sz.dims[i].n, sz.dims[i].b[k]);
  return ntot;
}
void block_coords(const DTensor &sz, int k, int which_pe, INT *coords) {
  for (int i = sz.rnk - 1; i >= 0; --i) {
    INT nb = num_blocks(sz.dims[i].n, sz.dims[i].b[k]);
    coords[i] = which_pe % nb;
    which_pe = static_cast<int>(which_pe / nb);
  }
}
bool is_local_after(int dim, const DTensor &sz, int k) {
  if (sz.rnk >= 0)
    for (; dim < sz.rnk; ++dim)
      if (num_blocks(sz.dims[dim].n, sz.dims[dim].b[k]) > 1) return false;
  return true;
}
bool is_block1d(const DTensor &sz, int k) {
  if (sz.rnk < 0) return false;
  int i;
  for (i = 0; i < sz.rnk && num_blocks(sz.dims[i].n, sz.dims[i].b[k]) == 1; ++i) {
  }
  return i < sz.rnk && i < 2 && is_local_after(i + 1, sz, k);
}
DTensor canonical(const DTensor &sz) {  // dtensor_canonical(sz, 0)
  if (sz.rnk < 0) return DTensor(sz.rnk);
  for (int i = 0; i < sz.rnk; ++i)
    if (sz.dims[i].n <= 0) return DTensor(-1);
  DTensor x(sz.rnk);
  for (int i = 0; i < sz.rnk; ++i) {
    x.dims[i].n = sz.dims[i].n;
    for (int k = IB; k <= OB; ++k)
      x.dims[i].b[k] = num_blocks(sz.dims[i].n, sz.dims[i].b[k]) == 1 ? sz.dims[i].n : sz.dims[i].b[k];
  }
  return x;
}
INT first_divisor(INT n) {
  if (n <= 1) return n;
  if (n % 2 == 0) return 2;
  for (INT i = 3; i * i <= n; i += 2)
    if (n % i == 0) return i;
  return n;
}
bool is_prime(INT n) { return n > 1 && first_divisor(n) == n; }
INT isqrt(INT n) {
  if (n == 0) return 0;
  INT guess = n, iguess = 1;
  do {
    guess = (guess + iguess) / 2;
    iguess = n / guess;
  } while (guess > iguess);
  return guess;
}
INT choose_radix(const Dim &d, int n_pes, int sign, INT rblock[2], INT mblock[2]) {
  INT r, m;
  if (d.n % n_pes == 0 && d.n / n_pes >= n_pes)
    r = d.n / n_pes;
  else
    for (r = isqrt(d.n); d.n % r != 0; ++r) {
    }
  if (r == 1 || r == d.n) return 0;
  if (sign != kFftSign) {
    m = r;
    r = d.n / m;
  } else
    m = d.n / r;
  rblock[IB] = rblock[OB] = default_block(r, n_pes);
  mblock[IB] = mblock[OB] = default_block(m, n_pes);
  return r;
}

DTensor default_sz(int rnk, const DDim *dims0, int n_pes) {
  DTensor sz(rnk);
  for (int i = 0; i < rnk; ++i) sz.dims[i].n = dims0[i].n;
  for (int i = 0; i < rnk; ++i) {
    sz.dims[i].b[IB] = dims0[i].ib ? dims0[i].ib : sz.dims[i].n;
    sz.dims[i].b[OB] = dims0[i].ob ? dims0[i].ob : sz.dims[i].n;
  }
  for (int k = IB; k <= OB; ++k) {
    INT nb = num_blocks_total(sz, k);
    INT np = n_pes / nb;
    for (int i = 0; i < rnk && np > 1; ++i) {
      const INT given = k == IB ? dims0[i].ib : dims0[i].ob;
      if (!given) {
        sz.dims[i].b[k] = default_block(sz.dims[i].n, static_cast<int>(np));
        nb *= num_blocks(sz.dims[i].n, sz.dims[i].b[k]);
        np = n_pes / nb;
      }
    }
  }
  if (rnk == 1 && is_prime(sz.dims[0].n)) sz.dims[0].b[IB] = sz.dims[0].b[OB] = sz.dims[0].n;
  return canonical(sz);
}

void local_size(int my_pe, const DTensor &sz, int k, INT *local_n, INT *local_start) {
  if (my_pe >= num_blocks_total(sz, k)) {
    for (int i = 0; i < sz.rnk; ++i) local_n[i] = local_start[i] = 0;
  } else {
    block_coords(sz, k, my_pe, local_start);
    for (int i = 0; i < sz.rnk; ++i) {
      local_n[i] = block(sz.dims[i].n, sz.dims[i].b[k], local_start[i]);
      local_start[i] *= sz.dims[i].b[k];
    }
  }
}

INT prod(int rnk, const INT *local_n) {
  INT N = 1;
  for (int i = 0; i < rnk; ++i) N *= local_n[i];
  return N;
}

}  // namespace

ptrdiff_t local_size_guru(int rnk, const DDim *dims0, ptrdiff_t howmany, int my_pe, int n_pes,
                          ptrdiff_t *local_n_in, ptrdiff_t *local_start_in, ptrdiff_t *local_n_out,
                          ptrdiff_t *local_start_out, int sign, unsigned flags) {
  if (rnk == 0) return howmany;
  DTensor sz = default_sz(rnk, dims0, n_pes);
  INT N = 1;
  if (rnk > 1 && is_block1d(sz, IB) && is_block1d(sz, OB)) {
    Dim odims[2] = {sz.dims[0], sz.dims[1]};
    for (int i = 0; i < 2; ++i)
      if (num_blocks(sz.dims[i].n, sz.dims[i].b[IB]) == 1 && num_blocks(sz.dims[i].n, sz.dims[i].b[OB]) == 1) {
        sz.dims[i].b[IB] = default_block(sz.dims[i].n, n_pes);
        sz.dims[1 - i].b[IB] = sz.dims[1 - i].n;
        local_size(my_pe, sz, IB, local_n_in, local_start_in);
        N = std::max(N, prod(rnk, local_n_in));
        sz.dims[i] = odims[i];
        sz.dims[1 - i] = odims[1 - i];
        break;
      }
    INT Nafter = howmany;
    for (int i = 1; i < sz.rnk; ++i) Nafter *= sz.dims[i].n;
    N = std::max(N, (sz.dims[0].n * block(Nafter, default_block(Nafter, n_pes), my_pe) + howmany - 1) / howmany);
    Nafter = howmany * sz.dims[0].n;
    for (int i = 2; i < sz.rnk; ++i) Nafter *= sz.dims[i].n;
    N = std::max(N, (sz.dims[1].n * block(Nafter, default_block(Nafter, n_pes), my_pe) + howmany - 1) / howmany);
  } else if (rnk == 1) {
    if (howmany >= n_pes && !(flags >> 27)) {  // dft-rank1-bigvec
      DTensor sz2(2);
      INT n[2], start[2];
      sz2.dims[0] = sz.dims[0];
      sz2.dims[0].b[IB] = sz.dims[0].n;
      sz2.dims[1].n = sz2.dims[1].b[OB] = howmany;
      sz2.dims[1].b[IB] = default_block(howmany, n_pes);
      local_size(my_pe, sz2, IB, n, start);
      N = std::max(N, (prod(2, n) + howmany - 1) / howmany);
    } else {  // dft-rank1
      INT r, m, rblock[2], mblock[2];
      if ((r = choose_radix(sz.dims[0], n_pes, sign, rblock, mblock))) {
        m = sz.dims[0].n / r;
        if (flags & FFTW_MPI_SCRAMBLED_IN)
          sz.dims[0].b[IB] = rblock[IB] * m;
        else {
          sz.dims[0].b[IB] = r * mblock[IB];
          N = std::max(N, rblock[IB] * m);
        }
        if (flags & FFTW_MPI_SCRAMBLED_OUT)
          sz.dims[0].b[OB] = r * mblock[OB];
        else {
          N = std::max(N, r * mblock[OB]);
          sz.dims[0].b[OB] = rblock[OB] * m;
        }
      }
    }
  }
  local_size(my_pe, sz, IB, local_n_in, local_start_in);
  local_size(my_pe, sz, OB, local_n_out, local_start_out);
  N = std::max(N, std::max(prod(rnk, local_n_in), prod(rnk, local_n_out)));
  return N * howmany;
}

ptrdiff_t local_size_many_transposed(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t xblock,
                                     ptrdiff_t yblock, int my_pe, int n_pes, ptrdiff_t *local_nx,
                                     ptrdiff_t *local_x_start, ptrdiff_t *local_ny, ptrdiff_t *local_y_start) {
  if (rnk == 0) {
    *local_nx = *local_ny = 1;
    *local_x_start = *local_y_start = 0;
    return howmany;
  }
  std::vector<DDim> dims(rnk);
  for (int i = 0; i < rnk; ++i) dims[i] = {n[i], n[i], n[i]};
  std::vector<INT> local(4 * static_cast<size_t>(rnk));
  dims[0].ib = xblock;
  if (rnk > 1) {
    if (yblock < n[1])
      dims[1].ob = yblock;
    else
      dims[0].ob = xblock;
  } else
    dims[0].ob = xblock;
  INT N = local_size_guru(rnk, dims.data(), howmany, my_pe, n_pes, local.data(), local.data() + rnk,
                          local.data() + 2 * rnk, local.data() + 3 * rnk, 0, 0);
  *local_nx = local[0];
  *local_x_start = local[rnk];
  if (rnk > 1) {
    *local_ny = local[2 * rnk + 1];
    *local_y_start = local[3 * rnk + 1];
  } else {
    *local_ny = *local_nx;
    *local_y_start = *local_x_start;
  }
  return N;
}

ptrdiff_t local_size_many_1d(ptrdiff_t nx, ptrdiff_t howmany, int my_pe, int n_pes, int sign, unsigned flags,
                             ptrdiff_t *local_nx, ptrdiff_t *local_x_start, ptrdiff_t *local_ny,
                             ptrdiff_t *local_y_start) {
  DDim d{nx, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK};
  return local_size_guru(1, &d, howmany, my_pe, n_pes, local_nx, local_x_start, local_ny, local_y_start, sign, flags);
}

namespace {
void rank_and_size(MPI_Comm comm, int *my_pe, int *n_pes) {
  MPI_Comm_rank(comm, my_pe);
  MPI_Comm_size(comm, n_pes);
}
}  // namespace

ptrdiff_t own_local_size_many_transposed(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t block0,
                                         ptrdiff_t block1, MPI_Comm comm, ptrdiff_t *local_n0,
                                         ptrdiff_t *local_0_start, ptrdiff_t *local_n1, ptrdiff_t *local_1_start) {
  int my_pe = 0, n_pes = 1;
  if (rnk != 0) rank_and_size(comm, &my_pe, &n_pes);
  return local_size_many_transposed(rnk, n, howmany, block0, block1, my_pe, n_pes, local_n0, local_0_start, local_n1,
                                    local_1_start);
}

ptrdiff_t own_local_size_many(int rnk, const ptrdiff_t *n, ptrdiff_t howmany, ptrdiff_t block0, MPI_Comm comm,
                              ptrdiff_t *local_n0, ptrdiff_t *local_0_start) {
  ptrdiff_t local_n1, local_1_start;
  return own_local_size_many_transposed(rnk, n, howmany, block0, rnk > 1 ? n[1] : FFTW_MPI_DEFAULT_BLOCK, comm,
                                        local_n0, local_0_start, &local_n1, &local_1_start);
}

ptrdiff_t own_local_size_many_1d(ptrdiff_t n0, ptrdiff_t howmany, MPI_Comm comm, int sign, unsigned flags,
                                 ptrdiff_t *local_ni, ptrdiff_t *local_i_start, ptrdiff_t *local_no,
                                 ptrdiff_t *local_o_start) {
  int my_pe = 0, n_pes = 1;
  rank_and_size(comm, &my_pe, &n_pes);
  return local_size_many_1d(n0, howmany, my_pe, n_pes, sign, flags, local_ni, local_i_start, local_no, local_o_start);
}

}  // namespace mpi
}  // namespace gpufftw
