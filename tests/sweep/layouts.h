// Geometry helpers: the canonical guru64 description of a transform (the
// same {n, is, os} dims FFTW's guru64 interface takes), stride generators for
// the layouts the sweep uses, and the mapping from a geometry onto the
// arrays (buffers) a case allocates.
#ifndef GPUFFTW_TESTS_SWEEP_LAYOUTS_H
#define GPUFFTW_TESTS_SWEEP_LAYOUTS_H

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace sweep {

using Index = std::ptrdiff_t;
using Rng = std::mt19937;

// Portable small helpers over Rng (std::uniform_int_distribution differs
// between standard libraries; test names must not).
inline Index rand_below(Rng& rng, Index n) {
  return static_cast<Index>(rng() % static_cast<std::uint32_t>(n));
}
template <class V>
const typename V::value_type& pick(Rng& rng, const V& v) {
  return v[static_cast<std::size_t>(rand_below(rng, static_cast<Index>(v.size())))];
}

// One guru64 dimension. n is the *logical* transform length (for r2c/c2r the
// real length; the complex side of the last dimension holds n/2+1).
// Strides are in units of the array element FFTW sees for that side: complex
// elements for interleaved complex arrays, reals for real and split arrays.
struct IoDim {
  Index n, is, os;
};

struct Geometry {
  std::vector<IoDim> dims;     // transform dimensions (rank = dims.size())
  std::vector<IoDim> howmany;  // howmany (vector) dimensions
};

// Number of elements along each transform dim on one side; with half_last
// the last dim holds n/2+1 (the complex side of r2c/c2r).
std::vector<Index> side_counts(const std::vector<IoDim>& dims, bool half_last);
std::vector<Index> logical_shape(const Geometry& g);  // the n's

// Offsets (in elements) of every element of one side, in row-major order:
// howmany index outermost, then the transform index; input side when
// `input`, output side otherwise.
std::vector<Index> element_offsets(const Geometry& g, bool input,
                                   bool half_last);
// 1 + largest offset reached by one side (strides are all >= 0 here).
Index extent(const Geometry& g, bool input, bool half_last);

// Row-major strides over physical dims `phys`, times `unit`.
std::vector<Index> row_major_strides(const std::vector<Index>& phys,
                                     Index unit);

// Non-overlapping strides for dims of the given counts laid out in `order`
// (fastest first): the first with stride `unit`, each following one with
// stride (previous stride * previous count + random pad).  Any two distinct
// index vectors map to offsets at least `unit` apart.
std::vector<Index> padded_strides(Rng& rng, const std::vector<Index>& counts,
                                  const std::vector<std::size_t>& order,
                                  Index unit);

// Non-overlapping strides for dims of the given counts: the dims are laid out
// in a random order (so the fastest dim may be any of them, transform and
// howmany dims interleaved), as padded_strides.
std::vector<Index> random_strides(Rng& rng, const std::vector<Index>& counts,
                                  Index unit);

// Where an array lives: a buffer number and a scalar offset into it.
struct Ptr {
  int buf = -1;
  Index off = 0;
};

// How FFTW sees one array. Element at offset o (in stride units) has its
// real part at scalar re.off + o*scale of buffer re.buf and (complex only)
// its imaginary part at im.off + o*scale of buffer im.buf.  Interleaved
// complex: im = re + 1, scale 2. Split or real arrays: scale 1.
struct ArrayView {
  bool complex = false;
  Ptr re, im;
  Index scale = 1;
};

// The buffers of a case (sizes in scalars) and the input/output views.
struct MemorySpec {
  std::vector<Index> buffer_scalars;
  ArrayView in, out;
};

}  // namespace sweep

#endif  // GPUFFTW_TESTS_SWEEP_LAYOUTS_H
