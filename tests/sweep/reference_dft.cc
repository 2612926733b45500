#include "reference_dft.h"

#include <cmath>
#include <stdexcept>

namespace sweep {
namespace ref {
namespace {

constexpr Real kPi = 3.141592653589793238462643383279502884197L;

// cos and sin of 2*pi*m/q for m = 0..q-1, with the argument reduced exactly
// in integers first (callers index with (p mod q)), so that large j*k
// products cost no accuracy.
struct Twiddles {
  std::ptrdiff_t q;
  std::vector<Real> c, s;
  explicit Twiddles(std::ptrdiff_t q_) : q(q_), c(q_), s(q_) {
    for (std::ptrdiff_t m = 0; m < q; ++m) {
      Real a = 2 * kPi * static_cast<Real>(m) / static_cast<Real>(q);
      c[m] = std::cos(a);
      s[m] = std::sin(a);
    }
  }
  Real cos(std::ptrdiff_t p) const { return c[mod(p)]; }
  Real sin(std::ptrdiff_t p) const { return s[mod(p)]; }
  std::ptrdiff_t mod(std::ptrdiff_t p) const {
    std::ptrdiff_t r = p % q;
    return r < 0 ? r + q : r;
  }
};

// Applies `kernel(in_line, out_line)` to every line along dimension d of the
// dense row-major array a (shape in_shape); the output has the same shape
// except that dimension d has out_len elements.
template <class In, class Out, class Kernel>
std::vector<Out> along(const Shape& in_shape, std::size_t d,
                       std::ptrdiff_t out_len, const std::vector<In>& a,
                       Kernel kernel) {
  std::ptrdiff_t in_len = in_shape[d];
  std::ptrdiff_t inner = 1, outer = 1;
  for (std::size_t e = d + 1; e < in_shape.size(); ++e) inner *= in_shape[e];
  for (std::size_t e = 0; e < d; ++e) outer *= in_shape[e];
  std::vector<Out> out(static_cast<std::size_t>(outer * out_len * inner));
  std::vector<In> line(static_cast<std::size_t>(in_len));
  std::vector<Out> res(static_cast<std::size_t>(out_len));
  for (std::ptrdiff_t o = 0; o < outer; ++o) {
    for (std::ptrdiff_t i = 0; i < inner; ++i) {
      for (std::ptrdiff_t j = 0; j < in_len; ++j)
        line[j] = a[(o * in_len + j) * inner + i];
      kernel(line, res);
      for (std::ptrdiff_t k = 0; k < out_len; ++k)
        out[(o * out_len + k) * inner + i] = res[k];
    }
  }
  return out;
}

void dft_along(const Shape& shape, std::size_t d, int sign,
               std::vector<Complex>& a) {
  std::ptrdiff_t n = shape[d];
  if (n == 1) return;
  Twiddles w(n);
  a = along<Complex, Complex>(
      shape, d, n, a,
      [&](const std::vector<Complex>& x, std::vector<Complex>& y) {
        for (std::ptrdiff_t k = 0; k < n; ++k) {
          Real re = 0, im = 0;
          for (std::ptrdiff_t j = 0; j < n; ++j) {
            Real c = w.cos(j * k), s = sign * w.sin(j * k);
            re += x[j].real() * c - x[j].imag() * s;
            im += x[j].real() * s + x[j].imag() * c;
          }
          y[k] = Complex(re, im);
        }
      });
}

// One line of every r2r kind, straight from the manual's formulas.
void r2r_line(R2r kind, const Twiddles& w, const std::vector<Real>& x,
              std::vector<Real>& y) {
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(x.size());
  for (std::ptrdiff_t k = 0; k < n; ++k) {
    Real acc = 0;
    switch (kind) {
      case R2r::kR2HC: {
        // r_k (k <= n/2) at y[k], i_k (0 < k < n/2) at y[n-k]
        std::ptrdiff_t f = (k <= n / 2) ? k : n - k;
        for (std::ptrdiff_t j = 0; j < n; ++j)
          acc += (k <= n / 2) ? x[j] * w.cos(j * f) : -x[j] * w.sin(j * f);
        break;
      }
      case R2r::kHC2R: {
        acc = x[0];
        for (std::ptrdiff_t f = 1; f < (n + 1) / 2; ++f)
          acc += 2 * (x[f] * w.cos(f * k) - x[n - f] * w.sin(f * k));
        if (n % 2 == 0) acc += (k % 2 ? -x[n / 2] : x[n / 2]);
        break;
      }
      case R2r::kDHT:
        for (std::ptrdiff_t j = 0; j < n; ++j)
          acc += x[j] * (w.cos(j * k) + w.sin(j * k));
        break;
      case R2r::kREDFT00:  // q = 2(n-1): cos(pi j k / (n-1))
        acc = x[0] + (k % 2 ? -x[n - 1] : x[n - 1]);
        for (std::ptrdiff_t j = 1; j < n - 1; ++j)
          acc += 2 * x[j] * w.cos(j * k);
        break;
      case R2r::kREDFT10:  // q = 4n: cos(pi (j+1/2) k / n)
        for (std::ptrdiff_t j = 0; j < n; ++j)
          acc += 2 * x[j] * w.cos((2 * j + 1) * k);
        break;
      case R2r::kREDFT01:  // q = 4n: cos(pi j (k+1/2) / n)
        acc = x[0];
        for (std::ptrdiff_t j = 1; j < n; ++j)
          acc += 2 * x[j] * w.cos(j * (2 * k + 1));
        break;
      case R2r::kREDFT11:  // q = 8n: cos(pi (j+1/2)(k+1/2) / n)
        for (std::ptrdiff_t j = 0; j < n; ++j)
          acc += 2 * x[j] * w.cos((2 * j + 1) * (2 * k + 1));
        break;
      case R2r::kRODFT00:  // q = 2(n+1): sin(pi (j+1)(k+1) / (n+1))
        for (std::ptrdiff_t j = 0; j < n; ++j)
          acc += 2 * x[j] * w.sin((j + 1) * (k + 1));
        break;
      case R2r::kRODFT10:  // q = 4n: sin(pi (j+1/2)(k+1) / n)
        for (std::ptrdiff_t j = 0; j < n; ++j)
          acc += 2 * x[j] * w.sin((2 * j + 1) * (k + 1));
        break;
      case R2r::kRODFT01:  // q = 4n: sin(pi (j+1)(k+1/2) / n)
        acc = (k % 2 ? -x[n - 1] : x[n - 1]);
        for (std::ptrdiff_t j = 0; j < n - 1; ++j)
          acc += 2 * x[j] * w.sin((j + 1) * (2 * k + 1));
        break;
      case R2r::kRODFT11:  // q = 8n: sin(pi (j+1/2)(k+1/2) / n)
        for (std::ptrdiff_t j = 0; j < n; ++j)
          acc += 2 * x[j] * w.sin((2 * j + 1) * (2 * k + 1));
        break;
    }
    y[k] = acc;
  }
}

// The q with which each kind's angles are exact multiples of 2*pi/q.
std::ptrdiff_t r2r_period(R2r kind, std::ptrdiff_t n) {
  switch (kind) {
    case R2r::kR2HC:
    case R2r::kHC2R:
    case R2r::kDHT:
      return n;
    case R2r::kREDFT00:
      return 2 * (n - 1);
    case R2r::kRODFT00:
      return 2 * (n + 1);
    case R2r::kREDFT10:
    case R2r::kREDFT01:
    case R2r::kRODFT10:
    case R2r::kRODFT01:
      return 4 * n;
    case R2r::kREDFT11:
    case R2r::kRODFT11:
      return 8 * n;
  }
  return n;
}

}  // namespace

const char* r2r_name(R2r kind) {
  switch (kind) {
    case R2r::kR2HC: return "R2HC";
    case R2r::kHC2R: return "HC2R";
    case R2r::kDHT: return "DHT";
    case R2r::kREDFT00: return "REDFT00";
    case R2r::kREDFT01: return "REDFT01";
    case R2r::kREDFT10: return "REDFT10";
    case R2r::kREDFT11: return "REDFT11";
    case R2r::kRODFT00: return "RODFT00";
    case R2r::kRODFT01: return "RODFT01";
    case R2r::kRODFT10: return "RODFT10";
    case R2r::kRODFT11: return "RODFT11";
  }
  return "?";
}

std::ptrdiff_t r2r_min_n(R2r kind) { return kind == R2r::kREDFT00 ? 2 : 1; }

std::ptrdiff_t product(const Shape& n) {
  std::ptrdiff_t p = 1;
  for (std::ptrdiff_t v : n) p *= v;
  return p;
}

Shape half_shape(const Shape& n) {
  Shape h = n;
  if (!h.empty()) h.back() = h.back() / 2 + 1;
  return h;
}

void dft(const Shape& n, int sign, std::vector<Complex>& a) {
  for (std::size_t d = 0; d < n.size(); ++d) dft_along(n, d, sign, a);
}

std::vector<Complex> r2c(const Shape& n, const std::vector<Real>& x) {
  if (n.empty()) return std::vector<Complex>(x.begin(), x.end());
  const std::size_t last = n.size() - 1;
  const std::ptrdiff_t nl = n[last], hl = nl / 2 + 1;
  Twiddles w(nl);
  std::vector<Complex> out = along<Real, Complex>(
      n, last, hl, x, [&](const std::vector<Real>& xl, std::vector<Complex>& y) {
        for (std::ptrdiff_t k = 0; k < hl; ++k) {
          Real re = 0, im = 0;
          for (std::ptrdiff_t j = 0; j < nl; ++j) {
            re += xl[j] * w.cos(j * k);
            im -= xl[j] * w.sin(j * k);
          }
          y[k] = Complex(re, im);
        }
      });
  Shape h = half_shape(n);
  for (std::size_t d = 0; d < last; ++d) dft_along(h, d, -1, out);
  return out;
}

std::vector<Real> c2r(const Shape& n, const std::vector<Complex>& X) {
  if (n.empty()) {
    std::vector<Real> r;
    for (const Complex& z : X) r.push_back(z.real());
    return r;
  }
  const std::size_t last = n.size() - 1;
  const std::ptrdiff_t nl = n[last], hl = nl / 2 + 1;
  Shape h = half_shape(n);
  std::vector<Complex> a = X;
  for (std::size_t d = 0; d < last; ++d) dft_along(h, d, +1, a);
  Twiddles w(nl);
  return along<Complex, Real>(
      h, last, nl, a, [&](const std::vector<Complex>& z, std::vector<Real>& y) {
        for (std::ptrdiff_t j = 0; j < nl; ++j) {
          Real acc = z[0].real();
          for (std::ptrdiff_t k = 1; k < (nl + 1) / 2; ++k)
            acc += 2 * (z[k].real() * w.cos(j * k) - z[k].imag() * w.sin(j * k));
          if (nl % 2 == 0)
            acc += (j % 2 ? -z[hl - 1].real() : z[hl - 1].real());
          y[j] = acc;
        }
      });
}

void make_hermitian(const Shape& n, std::vector<Complex>& X) {
  if (n.empty()) return;
  const std::size_t r = n.size();
  const std::ptrdiff_t nl = n[r - 1], hl = nl / 2 + 1;
  // Index over the leading dims (0..r-2) of the half array.
  Shape lead(n.begin(), n.end() - 1);
  const std::ptrdiff_t nlead = product(lead);
  std::vector<std::ptrdiff_t> idx(r - 1), partner(r - 1);
  std::vector<std::ptrdiff_t> planes = {0};
  if (nl % 2 == 0 && hl - 1 != 0) planes.push_back(hl - 1);
  for (std::ptrdiff_t plane : planes) {
    for (std::ptrdiff_t a = 0; a < nlead; ++a) {
      // decompose a, build -idx mod n
      std::ptrdiff_t rem = a, b = 0;
      for (std::size_t d = r - 1; d-- > 0;) {
        idx[d] = rem % lead[d];
        rem /= lead[d];
      }
      for (std::size_t d = 0; d + 1 < r; ++d) {
        partner[d] = (lead[d] - idx[d]) % lead[d];
        b = b * lead[d] + partner[d];
      }
      Complex& za = X[static_cast<std::size_t>(a * hl + plane)];
      Complex& zb = X[static_cast<std::size_t>(b * hl + plane)];
      if (a == b)
        za = Complex(za.real(), 0);
      else if (a < b)
        zb = std::conj(za);
    }
  }
}

void r2r(const Shape& n, const std::vector<R2r>& kinds, std::vector<Real>& a) {
  if (kinds.size() != n.size()) throw std::invalid_argument("r2r: rank");
  for (std::size_t d = 0; d < n.size(); ++d) {
    if (n[d] < r2r_min_n(kinds[d])) throw std::invalid_argument("r2r: n");
    Twiddles w(r2r_period(kinds[d], n[d]));
    R2r kind = kinds[d];
    a = along<Real, Real>(
        n, d, n[d], a,
        [&](const std::vector<Real>& x, std::vector<Real>& y) {
          r2r_line(kind, w, x, y);
        });
  }
}

}  // namespace ref
}  // namespace sweep
