// The arithmetic of one long 1-D transform over several GPUs by the
// four-step method, plain C++ so that builds without a GPU test it
// (tests/multi/line_layout_test.cc runs the whole method on the CPU with
// these blocks). With n = n1 * n2, the input viewed as [n1][n2] and the
// output as [n2][n1]:
//   X[k1 + n1 * k2] = sum_b W_n2^(b k2) W_n^(b k1) sum_a x[n2 a + b] W_n1^(a k1).
// GPU k reads its columns [c_k, e_k) of the input view as [n1][columns],
// transposes them to [columns][n1], transforms each row (along a, length
// n1), and twiddles and transposes them back to [n1][columns]. Then it
// pulls from every GPU its rows [r_k, s_k) of k1 as [rows][n2], transforms
// each row (along b, length n2), transposes them to [n2][rows] and writes
// them as columns [r_k, s_k) of the output view. Every FFT runs along
// contiguous rows, several times faster than down columns, and every copy
// moves rows of a GPU's whole share. The rows [r_k, s_k) go a part at a
// time (`part`, counted from r_k): a part is transformed while the next
// one arrives. Every input byte crosses PCIe once and every output byte
// once.
#pragma once

#include <optional>
#include <vector>

#include "engine/multi/partition.h"

namespace gpufftw::engine {

struct LineSplit {
  long long n1 = 0, n2 = 0;
  std::vector<Share> columns;  // per GPU: of n2, the input view's columns it reads
  std::vector<Share> rows;     // per GPU: of n1, the output view's columns it writes
};

// n's factors for `gpus` GPUs: n1 the largest divisor of n that is at most
// sqrt(n), so that both copies' rows are as wide as they can be; none
// where n1 or n2 is under `gpus` (a prime, or too short to share).
std::optional<LineSplit> line_split(long long n, int gpus);

// `rows` rows of `width` elements, `spitch` apart from element `src` of
// the source and `dpitch` apart from element `dst` of the destination.
struct Block {
  long long src = 0, spitch = 0, dst = 0, dpitch = 0, width = 0, rows = 0;
};

// The input array into GPU k's [n1][columns_k].
Block line_in(const LineSplit &s, int k);
// Of GPU `to`'s rows, those of `part`: from GPU `from`'s twiddled
// [n1][columns_from] into GPU `to`'s [rows_to][n2].
Block line_exchange(const LineSplit &s, int from, int to, const Share &part);
// Of GPU k's transformed and transposed [n2][rows_k], the columns of
// `part` into the output array.
Block line_out(const LineSplit &s, int k, const Share &part);

}  // namespace gpufftw::engine
