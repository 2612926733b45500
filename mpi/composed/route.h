// The arithmetic of a device-resident composed plan (resident.h): which
// runs of which buffer go to which rank, where what arrives is placed, and
// how the slab is cut into chunks so that the copies over PCIe overlap the
// work on the GPU. Pure: no CUDA, no MPI, so it is tested without either.
//
// Offsets and counts are in units: one unit is the `rest` values of one
// (i_f, i_o) pair (layout.h), so every run below is contiguous units.
//
// With f the dimension the input is cut along and o the other one:
//   in:    [my f][o]      the input slab, as the program holds it; step 1
//          transforms it in place
//   pack:  [my f][o] -> per peer q, [my f][q's o], one after the other
//   there: to rank q goes [my f][q's o]; from rank p arrives [p's f][my o],
//          and in the order of p that is [f][my o]: nothing to place
//   step 3 transforms f in place in [f][my o]; then, where the output is
//   cut along f,
//   back:  to rank q goes [q's f][my o]; from rank p arrives
//          [my f][p's o], placed into the output [my f][o];
//   else the output is [my o][f]:
//   turn:  [f][my o] -> [my o][f]
#pragma once

#include <cstddef>
#include <vector>

#include "mpi/composed/layout.h"

namespace gpufftw {
namespace mpi {
namespace composed {

// One rank's part of an all-to-all: `count` units at `offset`.
struct Run {
  ptrdiff_t offset = 0, count = 0;
};

// A block copy of `rows` rows of `width` units, from rows `from_pitch`
// apart to rows `to_pitch` apart.
struct Block {
  ptrdiff_t from = 0, to = 0, rows = 0, width = 0, from_pitch = 0, to_pitch = 0;
};

// One exchange (or one chunk of one): per peer what is sent and where it
// arrives (the receive buffer packed by peer), and the blocks that put
// what arrived into its place.
struct Transfer {
  std::vector<Run> send, recv;
  std::vector<Block> place;
};

// [from, to) of `count` items cut into `chunks` near-equal pieces: the
// k-th piece.
Run piece(ptrdiff_t count, int chunks, int k);

struct Route {
  int me = 0, n_pes = 1;
  ptrdiff_t nf = 0, no = 0;  // the sizes of f and o
  ptrdiff_t my_f = 0;        // this rank's planes of f in the input
  Split f_in, o_mid, f_out;  // f as the input is cut, o as the middle is, f as the output is
  bool back = false;         // a second exchange (the output is cut along f)
  int chunks = 1;            // pieces of the slab per copy over PCIe, alike on every rank

  // The units each device buffer needs on this rank.
  ptrdiff_t buffer_units() const;
  // The pack of `planes` of this rank's planes of f, from [my f][o] into the
  // send buffer of the first exchange.
  std::vector<Block> pack(Run planes) const;
  // The first exchange: from the packed send buffer to [f][my o].
  Transfer there() const;
  // The k-th chunk of the second exchange: each rank's k-th piece of its
  // output planes of f. Send from [f][my o]; receive packed by peer into the
  // chunk's own part of the buffer (where those planes lie in the output,
  // so chunks never share one), placed into the output [my f][o].
  Transfer back_chunk(int k) const;
  // Where there is no second exchange: `planes` of this rank's planes of o
  // turned from [f][my o] into the output's [my o][f].
  std::vector<Block> turn(Run planes) const;
};

// Each copy over PCIe should be long enough that its start costs nothing,
// and there should be enough of them that the first and the last, which
// nothing overlaps, are short.
constexpr size_t kChunkBytes = size_t{16} << 20;
constexpr int kMaxChunks = 8;

// The route of a layout on n_pes ranks for rank me, one unit `unit_bytes`.
// Its slab is cut in one piece per `chunk_bytes` of the largest input slab
// of any rank (1 to kMaxChunks), not of its own: the second exchange runs
// piece by piece, each piece's sends and receives pairing with the other
// ranks' of the same piece, so every rank must cut alike, uneven and empty
// blocks included.
Route make_route(const Layout &layout, int me, int n_pes, size_t unit_bytes, size_t chunk_bytes);

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
