#include "core/problem.h"

#include "core/plan.h"

#include <climits>
#include <cstddef>
#include <cstring>
#include <sstream>

namespace gpufftw {

int64_t Problem::transform_size() const {
  int64_t n = 1;
  for (const Dim &d : dims) n *= d.n;
  return n;
}

int64_t Problem::batch() const {
  int64_t n = 1;
  for (const Dim &d : howmany) n *= d.n;
  return n;
}

int64_t SideAxes::count() const {
  int64_t c = 1;
  for (int64_t v : n) c *= v;
  return c;
}

SideAxes side_axes(const Problem &p, bool output) {
  SideAxes s;
  s.complex = p.kind == Kind::C2C || p.kind == (output ? Kind::R2C : Kind::C2R);
  s.split = s.complex && p.split;
  for (const Dim &d : p.howmany) s.n.push_back(d.n), s.stride.push_back(output ? d.os : d.is);
  for (const Dim &d : p.dims) s.n.push_back(d.n), s.stride.push_back(output ? d.os : d.is);
  if (s.complex && p.kind != Kind::C2C && !p.dims.empty()) s.n.back() = s.n.back() / 2 + 1;
  const int64_t real = p.precision == Precision::F32 ? 4 : 8;
  s.elem = s.complex && !s.split ? 2 * real : real;
  return s;
}

namespace {

// The bytes [lo, hi) one array of a side spans from its pointer; false
// where that does not fit 64 bits.
struct Span {
  int64_t lo = 0, hi = 0;
};
bool span(const Problem &p, bool output, Span *s) {
  const SideAxes side = side_axes(p, output);
  int64_t lo = 0, hi = 0;
  for (size_t i = 0; i < side.n.size(); ++i) {
    int64_t reach;
    if (__builtin_mul_overflow(side.n[i] - 1, side.stride[i], &reach)) return false;
    if (__builtin_add_overflow(reach < 0 ? lo : hi, reach, reach < 0 ? &lo : &hi)) return false;
  }
  return !__builtin_mul_overflow(lo, side.elem, &s->lo) && !__builtin_add_overflow(hi, 1, &hi) &&
         !__builtin_mul_overflow(hi, side.elem, &s->hi);
}

}  // namespace

bool arrays_overlap(const Problem &p) {
  Span si, so;
  if (!span(p, false, &si) || !span(p, true, &so)) return true;
  for (void *a : p.in)
    for (void *b : p.out) {
      if (!a || !b || a == b) continue;
      const int64_t ia = reinterpret_cast<intptr_t>(a), ob = reinterpret_cast<intptr_t>(b);
      int64_t a_lo, a_hi, b_lo, b_hi;
      if (__builtin_add_overflow(ia, si.lo, &a_lo) || __builtin_add_overflow(ia, si.hi, &a_hi) ||
          __builtin_add_overflow(ob, so.lo, &b_lo) || __builtin_add_overflow(ob, so.hi, &b_hi))
        return true;
      if (a_lo < b_hi && b_lo < a_hi) return true;
    }
  return false;
}

const char *kind_name(Kind k) {
  switch (k) {
    case Kind::C2C: return "c2c";
    case Kind::R2C: return "r2c";
    case Kind::C2R: return "c2r";
    case Kind::R2R: return "r2r";
  }
  return "?";
}

Problem Problem::estimated() const {
  Problem q = *this;
  q.flags = (flags & ~(FFTW_MEASURE | FFTW_PATIENT | FFTW_EXHAUSTIVE | FFTW_WISDOM_ONLY)) | FFTW_ESTIMATE;
  return q;
}

std::string Problem::describe() const {
  std::ostringstream s;
  s << kind_name(kind) << (split ? "-split" : "") << (precision == Precision::F32 ? " f32" : " f64") << " n=[";
  for (size_t i = 0; i < dims.size(); ++i) s << (i ? "x" : "") << dims[i].n;
  s << "]";
  if (!howmany.empty()) {
    s << " howmany=[";
    for (size_t i = 0; i < howmany.size(); ++i) s << (i ? "x" : "") << howmany[i].n;
    s << "]";
  }
  if (kind == Kind::C2C) s << (sign == FFTW_FORWARD ? " fwd" : " bwd");
  s << (in_place() ? " in-place" : " out-of-place");
  return s.str();
}

bool valid(const Problem &p) {
  for (const Dim &d : p.dims)
    if (d.n <= 0) return false;
  for (const Dim &d : p.howmany)
    if (d.n < 0) return false;
  if (p.kind == Kind::C2C && p.sign != FFTW_FORWARD && p.sign != FFTW_BACKWARD) return false;
  // Split c2c: both pointers in place or neither (the real FFTW makes an
  // unsolvable problem, a NULL plan, of ri == ro with ii != io).
  if (p.split && p.kind == Kind::C2C && (p.in[0] == p.out[0]) != (p.in[1] == p.out[1])) return false;
  if (p.kind == Kind::R2R) {
    if (p.r2r_kinds.size() != p.dims.size()) return false;
    // Read as ints: a value outside the enum's range is no fftw_r2r_kind
    // (loading it as one is undefined behaviour); the shim maps such
    // values as the real FFTW does before a Problem is made.
    for (size_t i = 0; i < p.r2r_kinds.size(); ++i) {
      int k;
      std::memcpy(&k, &p.r2r_kinds[i], sizeof k);
      if (k < FFTW_R2HC || k > FFTW_RODFT11) return false;
    }
  }
  return true;
}

namespace {

// FFTW's rdft2_pad: the physical size of the last dimension of an r2c/c2r
// array when the caller gave no nembed.
std::vector<int> padded(const ManyLayout &m, const int *nembed, bool complex_side, bool in_place) {
  std::vector<int> dims(m.n, m.n + m.rank);
  if (nembed) return std::vector<int>(nembed, nembed + m.rank);
  if (m.rank > 0 && (in_place || complex_side))
    dims[m.rank - 1] = (m.n[m.rank - 1] / 2 + 1) * (complex_side ? 1 : 2);
  return dims;
}

}  // namespace

bool from_many(const ManyLayout &m, Problem *p) {
  // INT_MAX: the real FFTW's rank minus infinity, which it refuses before
  // reading n (and n has not that many entries).
  if (m.rank < 0 || m.rank == INT_MAX || m.howmany < 0 || (m.rank > 0 && !m.n)) return false;
  for (int i = 0; i < m.rank; ++i)
    if (m.n[i] <= 0) return false;
  std::vector<int> iphys, ophys;
  if (p->kind == Kind::C2C || p->kind == Kind::R2R) {
    iphys = m.inembed ? std::vector<int>(m.inembed, m.inembed + m.rank) : std::vector<int>(m.n, m.n + m.rank);
    ophys = m.onembed ? std::vector<int>(m.onembed, m.onembed + m.rank) : std::vector<int>(m.n, m.n + m.rank);
  } else {
    // FFTW decides in-placeness of r2c/c2r by comparing the real array with
    // the real part of the complex one, before any padding.
    bool in_place = p->in[0] == p->out[0];
    iphys = padded(m, m.inembed, p->kind == Kind::C2R, in_place);
    ophys = padded(m, m.onembed, p->kind == Kind::R2C, in_place);
  }
  p->dims.assign(m.rank, Dim{0, 0, 0});
  int64_t is = m.istride, os = m.ostride;
  for (int i = m.rank - 1; i >= 0; --i) {
    p->dims[i] = {m.n[i], is, os};
    is *= iphys[i];
    os *= ophys[i];
  }
  p->howmany.assign(1, Dim{m.howmany, m.idist, m.odist});
  return true;
}

bool resolve_arrays(const Problem &p, const Arrays &x, void *in[2], void *out[2]) {
  const size_t real_size = p.precision == Precision::F32 ? sizeof(float) : sizeof(double);
  auto next = [real_size](void *const v[2]) {
    return static_cast<char *>(v[1]) - static_cast<char *>(v[0]) == static_cast<ptrdiff_t>(real_size);
  };
  // FFTW's execute_dft reads a split plan's arrays as {a, a + 1} only where
  // the plan's imaginary parts lay one real after its real parts on both
  // sides, else as {a + 1, a}: the order its plan_guru_split_dft drew the
  // plan's direction from. A c2r's or r2c's complex side is always {a, a + 1}.
  const bool swapped = x.entry == Entry::Dft && p.split && p.kind == Kind::C2C && !(next(p.in) && next(p.out));
  auto pair = [&](void *a, void *v[2]) {
    char *const b = p.split ? static_cast<char *>(a) + real_size : nullptr;
    v[0] = swapped ? b : a;
    v[1] = swapped ? a : b;
  };
  in[0] = in[1] = out[0] = out[1] = nullptr;
  switch (x.entry) {
    case Entry::Execute:
      for (int i = 0; i < 2; ++i) in[i] = p.in[i], out[i] = p.out[i];
      return true;
    case Entry::Dft: pair(x.a[0], in), pair(x.a[1], out); return true;
    case Entry::DftR2c: in[0] = x.a[0], pair(x.a[1], out); return true;
    case Entry::DftC2r: pair(x.a[0], in), out[0] = x.a[1]; return true;
    case Entry::R2r: in[0] = x.a[0], out[0] = x.a[1]; return true;
    case Entry::SplitDft: in[0] = x.a[0], in[1] = x.a[1], out[0] = x.a[2], out[1] = x.a[3]; return p.split;
    case Entry::SplitDftR2c: in[0] = x.a[0], out[0] = x.a[1], out[1] = x.a[2]; return p.split;
    case Entry::SplitDftC2r: in[0] = x.a[0], in[1] = x.a[1], out[0] = x.a[2]; return p.split;
  }
  return false;
}

}  // namespace gpufftw
