#include "mpi/composed/route.h"

#include <algorithm>

namespace gpufftw {
namespace mpi {
namespace composed {

Run piece(ptrdiff_t count, int chunks, int k) {
  const ptrdiff_t from = count * k / chunks, to = count * (k + 1) / chunks;
  return {from, to - from};
}

Route make_route(const Layout &l, int me, int n_pes, size_t unit_bytes, size_t chunk_bytes) {
  Route r;
  r.me = me;
  r.n_pes = n_pes;
  const int f = l.in_dim, o = 1 - f;
  r.nf = l.n[f];
  r.no = l.n[o];
  r.f_in = l.in;
  r.my_f = l.in.count[me];
  r.back = l.out_dim != o;
  // Without a second exchange the middle is the output, cut along o as the
  // program asked; else o is cut as FFTW cuts it by default.
  r.o_mid = r.back ? default_split(r.no, n_pes) : l.out;
  r.f_out = r.back ? l.out : l.in;
  const ptrdiff_t largest = *std::max_element(l.in.count.begin(), l.in.count.end());
  const size_t slab = static_cast<size_t>(largest * r.no) * unit_bytes;
  r.chunks = static_cast<int>(std::clamp<size_t>(slab / std::max<size_t>(chunk_bytes, 1), 1, kMaxChunks));
  return r;
}

ptrdiff_t Route::buffer_units() const {
  const ptrdiff_t lo = o_mid.count[me];
  return std::max({my_f * no, lo * nf, back ? f_out.count[me] * no : 0, ptrdiff_t{1}});
}

std::vector<Block> Route::pack(Run planes) const {
  std::vector<Block> blocks;
  for (int q = 0; q < n_pes; ++q)
    if (planes.count > 0 && o_mid.count[q] > 0)
      blocks.push_back({planes.offset * no + o_mid.start[q], my_f * o_mid.start[q] + planes.offset * o_mid.count[q],
                        planes.count, o_mid.count[q], no, o_mid.count[q]});
  return blocks;
}

Transfer Route::there() const {
  Transfer t;
  const ptrdiff_t lo = o_mid.count[me];
  for (int q = 0; q < n_pes; ++q) {
    t.send.push_back({o_mid.start[q] * my_f, o_mid.count[q] * my_f});
    t.recv.push_back({lo * f_in.start[q], lo * f_in.count[q]});
  }
  return t;
}

std::vector<Block> Route::turn(Run planes) const {
  std::vector<Block> blocks;
  const ptrdiff_t lo = o_mid.count[me];
  for (ptrdiff_t b = planes.offset; b < planes.offset + planes.count; ++b) blocks.push_back({b, b * nf, nf, 1, lo, 1});
  return blocks;
}

Transfer Route::back_chunk(int k) const {
  Transfer t;
  const ptrdiff_t lo = o_mid.count[me];
  const Run mine = piece(f_out.count[me], chunks, k);
  const ptrdiff_t base = mine.offset * no;
  for (int q = 0; q < n_pes; ++q) {
    const Run theirs = piece(f_out.count[q], chunks, k);
    t.send.push_back({(f_out.start[q] + theirs.offset) * lo, theirs.count * lo});
    t.recv.push_back({base + mine.count * o_mid.start[q], mine.count * o_mid.count[q]});
    if (mine.count > 0 && o_mid.count[q] > 0)
      t.place.push_back({base + mine.count * o_mid.start[q], base + o_mid.start[q], mine.count, o_mid.count[q],
                         o_mid.count[q], no});
  }
  return t;
}

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
