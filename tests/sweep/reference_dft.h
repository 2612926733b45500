// The sweep's oracle: direct O(n^2)-per-dimension transforms in long double,
// written from the definitions in the FFTW manual ("What FFTW Really
// Computes") and nothing else -- it never calls FFTW, so it can judge both the
// real FFTW and gpufftw.
//
// All arrays here are dense and row-major over the *logical* shape; the sweep
// gathers them from (and compares them against) the exact guru64 geometry of
// each case (see layouts.h).  Every transform is unnormalized, like FFTW's.
#ifndef GPUFFTW_TESTS_SWEEP_REFERENCE_DFT_H
#define GPUFFTW_TESTS_SWEEP_REFERENCE_DFT_H

#include <complex>
#include <cstddef>
#include <vector>

namespace sweep {
namespace ref {

using Real = long double;
using Complex = std::complex<long double>;
using Shape = std::vector<std::ptrdiff_t>;

// The 11 real-to-real kinds, with the meanings of the FFTW manual (own enum:
// the oracle does not depend on FFTW's headers).
enum class R2r {
  kR2HC, kHC2R, kDHT,
  kREDFT00, kREDFT01, kREDFT10, kREDFT11,
  kRODFT00, kRODFT01, kRODFT10, kRODFT11,
};
constexpr int kNumR2rKinds = 11;
const char* r2r_name(R2r kind);
// Smallest n the kind is defined for (REDFT00 needs n >= 2).
std::ptrdiff_t r2r_min_n(R2r kind);

std::ptrdiff_t product(const Shape& n);
// Shape of the complex half array of an r2c/c2r of logical shape n:
// n with the last dimension replaced by n/2+1.
Shape half_shape(const Shape& n);

// Complex DFT of every dimension, Y_k = sum_j X_j exp(sign * 2 pi i j.k / n),
// sign = -1 (FFTW_FORWARD) or +1 (FFTW_BACKWARD). a has product(n) elements.
void dft(const Shape& n, int sign, std::vector<Complex>& a);

// r2c: forward DFT of real x (shape n), only the non-redundant half
// (shape half_shape(n)) returned.
std::vector<Complex> r2c(const Shape& n, const std::vector<Real>& x);

// c2r: backward DFT of the Hermitian array whose non-redundant half is X
// (shape half_shape(n)); real output of shape n.  Computed the way the FFTW
// manual defines it for Hermitian input: backward complex DFTs along all but
// the last dimension, then a 1-D c2r along the last dimension, where only the
// real parts of the DC and (n even) Nyquist elements are used.
std::vector<Real> c2r(const Shape& n, const std::vector<Complex>& X);

// Makes the half array X (shape half_shape(n)) exactly consistent with a
// Hermitian full array: in the last-index-0 plane and (even n_last) the
// Nyquist plane, X[k'] = conj(X[-k' mod n']); self-conjugate points real.
// For such input every correct c2r gives the same answer.
void make_hermitian(const Shape& n, std::vector<Complex>& X);

// Separable multi-dimensional r2r: kinds[d] along dimension d.  a is dense
// over n (r2r arrays have the same shape in and out).  HC2R input and R2HC
// output are in FFTW's halfcomplex order r0, r1, ..., r_{n/2}, i_{(n+1)/2-1},
// ..., i1.
void r2r(const Shape& n, const std::vector<R2r>& kinds, std::vector<Real>& a);

}  // namespace ref
}  // namespace sweep

#endif  // GPUFFTW_TESTS_SWEEP_REFERENCE_DFT_H
