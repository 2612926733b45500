// The device-resident composed plan's arithmetic (mpi/composed/route.h),
// without a GPU or MPI: every rank of a layout is simulated in one process,
// each unit labelled with its global (i_f, i_o), the steps' reorders done on
// the host, the packs, exchanges and copies done from the routes' runs and
// blocks. The output
// must hold every label where FFTW's layout puts it, for every transposed
// flag, block size, rank count (ranks without data included) and chunk size,
// and every rank must cut its slab in as many chunks as every other: each
// chunk of the second exchange is one group of NCCL sends and receives that
// must pair with the other ranks' of the same chunk.
#include <fftw3-mpi.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpi/composed/layout.h"
#include "mpi/composed/route.h"

namespace gpufftw {
namespace mpi {
namespace composed {
namespace {

using Buf = std::vector<long>;  // a unit's label: i_f * no + i_o, -1 unset

// Copies the runs of one transfer between every rank's buffers.
void all_to_all(const std::vector<Route> &routes, const std::vector<Transfer> &t, const std::vector<Buf> &from,
                std::vector<Buf> *to) {
  const int n = static_cast<int>(routes.size());
  for (int p = 0; p < n; ++p)
    for (int q = 0; q < n; ++q) {
      const Run &s = t[p].send[q], &r = t[q].recv[p];
      if (s.count != r.count) {
        ADD_FAILURE() << "rank " << p << " sends " << s.count << " units to " << q << ", which takes " << r.count;
        continue;
      }
      for (ptrdiff_t i = 0; i < s.count; ++i) (*to)[q][r.offset + i] = from[p][s.offset + i];
    }
}
void copy(const std::vector<Block> &blocks, const Buf &from, Buf *to) {
  for (const Block &b : blocks)
    for (ptrdiff_t r = 0; r < b.rows; ++r)
      for (ptrdiff_t w = 0; w < b.width; ++w) (*to)[b.to + r * b.to_pitch + w] = from[b.from + r * b.from_pitch + w];
}

// False where FFTW itself refuses the layout (more blocks than ranks).
bool check(int rnk, std::vector<ptrdiff_t> n, ptrdiff_t block, unsigned flags, int n_pes, size_t chunk_bytes) {
  const std::string what = "n " + std::to_string(n[0]) + "x" + std::to_string(n[1]) + " block " +
                           std::to_string(block) + " flags " + std::to_string(flags) + " ranks " +
                           std::to_string(n_pes) + " chunk bytes " + std::to_string(chunk_bytes);
  Layout l;
  std::string why;
  if (!make_layout(rnk, n.data(), 1, block, block, flags, n_pes, &l, &why)) return false;
  std::vector<Route> routes;
  // One byte a unit: a slab's bytes are its units.
  for (int me = 0; me < n_pes; ++me) routes.push_back(make_route(l, me, n_pes, 1, chunk_bytes));
  const int chunks = routes[0].chunks;
  for (const Route &r : routes)
    if (r.chunks != chunks) {
      ADD_FAILURE() << what << ": rank " << r.me << " cuts its slab in " << r.chunks << " chunks, rank 0 in " << chunks;
      return true;
    }
  const ptrdiff_t nf = routes[0].nf, no = routes[0].no;
  std::vector<Buf> x(n_pes), y(n_pes), z(n_pes), w(n_pes), out(n_pes);
  for (int me = 0; me < n_pes; ++me) {
    const ptrdiff_t units = routes[me].buffer_units();
    for (Buf *b : {&x[me], &y[me], &z[me], &w[me], &out[me]}) b->assign(units, -1);
    // The input [my f][o] (step 1 keeps its order), packed chunk by chunk.
    const Route &r = routes[me];
    for (ptrdiff_t a = 0; a < r.my_f; ++a)
      for (ptrdiff_t b = 0; b < no; ++b) x[me][a * no + b] = (r.f_in.start[me] + a) * no + b;
    for (int k = 0; k < chunks; ++k) copy(r.pack(piece(r.my_f, chunks, k)), x[me], &y[me]);
  }
  std::vector<Transfer> there;
  for (const Route &r : routes) there.push_back(r.there());
  all_to_all(routes, there, y, &z);
  for (int me = 0; me < n_pes; ++me) {
    const Route &r = routes[me];
    const ptrdiff_t lo = r.o_mid.count[me];
    // The middle [f][my o] holds every label of this rank's o.
    for (ptrdiff_t a = 0; a < nf; ++a)
      for (ptrdiff_t b = 0; b < lo; ++b)
        EXPECT_EQ(z[me][a * lo + b], a * no + r.o_mid.start[me] + b) << what << ": middle, rank " << me;
    if (r.back) continue;
    // The output [my o][f], turned chunk by chunk.
    for (int k = 0; k < chunks; ++k) copy(r.turn(piece(lo, chunks, k)), z[me], &out[me]);
    for (ptrdiff_t b = 0; b < lo; ++b)
      for (ptrdiff_t a = 0; a < nf; ++a)
        EXPECT_EQ(out[me][b * nf + a], a * no + r.o_mid.start[me] + b) << what << ": output, rank " << me;
  }
  if (!routes[0].back) return true;
  for (int k = 0; k < chunks; ++k) {
    std::vector<Transfer> back;
    for (const Route &r : routes) back.push_back(r.back_chunk(k));
    all_to_all(routes, back, z, &w);
    for (int me = 0; me < n_pes; ++me) copy(back[me].place, w[me], &out[me]);
  }
  for (int me = 0; me < n_pes; ++me) {
    const Route &r = routes[me];
    for (ptrdiff_t a = 0; a < r.f_out.count[me]; ++a)
      for (ptrdiff_t b = 0; b < no; ++b)
        EXPECT_EQ(out[me][a * no + b], (r.f_out.start[me] + a) * no + b) << what << ": output, rank " << me;
  }
  return true;
}

TEST(Route, EveryLayoutLandsInPlace) {
  const unsigned flags[] = {0, FFTW_MPI_TRANSPOSED_IN, FFTW_MPI_TRANSPOSED_OUT,
                            FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT};
  for (int n_pes = 1; n_pes <= 5; ++n_pes)
    for (unsigned f : flags)
      // From one chunk to kMaxChunks; between, sizes that cut ranks of
      // unequal slabs (5 planes on 3 ranks: 2, 2, 1) in unequal counts
      // where each rank measured its own slab.
      for (size_t chunk_bytes : {size_t{1} << 20, size_t{20}, size_t{7}, size_t{3}, size_t{1}})
        for (ptrdiff_t block : {ptrdiff_t{0}, ptrdiff_t{2}}) {
          for (auto n : {std::vector<ptrdiff_t>{12, 8}, {5, 7}, {3, 2}, {1, 9}, {9, 1}, {16, 16, 4}})
            // FFTW refuses only blocks of 2 that outnumber the ranks.
            EXPECT_TRUE(check(static_cast<int>(n.size()), n, block, f, n_pes, chunk_bytes) || block == 2);
        }
}

TEST(Route, PiecesCoverTheRangeInOrder) {
  for (ptrdiff_t count : {0, 1, 5, 64})
    for (int chunks : {1, 3, 8}) {
      ptrdiff_t next = 0;
      for (int k = 0; k < chunks; ++k) {
        const composed::Run p = piece(count, chunks, k);
        EXPECT_EQ(p.offset, next);
        EXPECT_GE(p.count, count / chunks);
        next += p.count;
      }
      EXPECT_EQ(next, count);
    }
}

// The real FFTW MPI gives no plan of rank 2 or more asked to scramble
// its input or output: no composed layout is made for one either, so
// that the real FFTW MPI's answer (NULL) is the program's.
TEST(Route, NoLayoutIsScrambled) {
  Layout l;
  std::string why;
  const ptrdiff_t n[3] = {4, 6, 5};
  for (unsigned scrambled : {unsigned{FFTW_MPI_SCRAMBLED_IN}, unsigned{FFTW_MPI_SCRAMBLED_OUT},
                             unsigned{FFTW_MPI_SCRAMBLED_IN | FFTW_MPI_SCRAMBLED_OUT | FFTW_MPI_TRANSPOSED_OUT}}) {
    EXPECT_FALSE(make_layout(3, n, 1, 0, 0, scrambled, 2, &l, &why));
    EXPECT_EQ(why, "FFTW_MPI_SCRAMBLED_IN or _OUT, which the real FFTW MPI takes on 1-D transforms alone");
    EXPECT_FALSE(make_layout_r2c(2, n, 1, 0, 0, scrambled, 2, &l, &why));
  }
  EXPECT_TRUE(make_layout(3, n, 1, 0, 0, FFTW_MPI_TRANSPOSED_OUT, 2, &l, &why)) << why;
}

TEST(Route, BuffersHoldEverySide) {
  Layout l;
  std::string why;
  const ptrdiff_t n[2] = {10, 6};
  ASSERT_TRUE(make_layout(2, n, 1, 0, 0, 0, 3, &l, &why)) << why;
  // Rank 0: 4 planes of f in, 2 of o in the middle, 4 of f out.
  const Route r = make_route(l, 0, 3, 1, 12);
  EXPECT_EQ(r.buffer_units(), 4 * 6);
  EXPECT_TRUE(r.back);
  // Rank 2 holds 2 planes of f and 2 of o.
  EXPECT_EQ(make_route(l, 2, 3, 1, 12).buffer_units(), 2 * 10);
}

// 256x256x192 single-precision complex on 3 ranks: slabs of 86, 86 and 84
// planes of 256x192 values, just over two kChunkBytes on ranks 0 and 1 and
// just under on rank 2. Every rank cuts its slab in two.
TEST(Route, UnequalSlabsCutAlike) {
  Layout l;
  std::string why;
  const ptrdiff_t n[3] = {256, 256, 192};
  ASSERT_TRUE(make_layout(3, n, 1, 0, 0, 0, 3, &l, &why)) << why;
  const size_t unit = static_cast<size_t>(l.rest) * 2 * sizeof(float);
  for (int me = 0; me < 3; ++me) EXPECT_EQ(make_route(l, me, 3, unit, kChunkBytes).chunks, 2) << "rank " << me;
  // Rank 2's second exchange, chunk by chunk, takes what ranks 0 and 1 send it.
  for (int k = 0; k < 2; ++k)
    for (int p = 0; p < 3; ++p)
      for (int q = 0; q < 3; ++q)
        EXPECT_EQ(make_route(l, p, 3, unit, kChunkBytes).back_chunk(k).send[q].count,
                  make_route(l, q, 3, unit, kChunkBytes).back_chunk(k).recv[p].count)
            << "chunk " << k << ", rank " << p << " to rank " << q;
}

}  // namespace
}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
