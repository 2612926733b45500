#include "mpi/composed/steps.h"

#include <gpufftw/gpufftw.h>

#include <algorithm>

namespace gpufftw {
namespace mpi {
namespace composed {
namespace {

// The real side of an r2c or c2r: FFTW's padded array holds 2 (n/2 + 1)
// reals where the complex side holds n/2 + 1 values along the last
// dimension, so each real stride that steps over that dimension is twice
// the complex one; the last dimension (dims' last, of n real points) and
// the howmany transforms (howmany's last where there are several) keep
// theirs. `input`: the real side is the input (an r2c), else the output.
void to_real(const Layout &l, bool input, Dims *dims, Dims *howmany) {
  auto twice = [input](fftw_iodim64 &d) { (input ? d.is : d.os) *= 2; };
  for (size_t i = 0; i + 1 < dims->size(); ++i) twice((*dims)[i]);
  dims->back().n = l.real_last;
  const size_t planes = howmany->size() - (l.howmany > 1 ? 1 : 0);
  for (size_t i = 0; i < planes; ++i) twice((*howmany)[i]);
}

}  // namespace

void append_rest(const Layout &l, Dims *dims) {
  ptrdiff_t stride = l.rest;
  for (int k = 2; k < l.rnk; ++k) {
    stride /= l.n[k];
    dims->push_back({l.n[k], stride, stride});
  }
}

void append_howmany(const Layout &l, Dims *howmany) {
  if (l.howmany > 1) howmany->push_back({l.howmany, 1, 1});
}

Shape first_step(const Layout &l, ptrdiff_t planes, ptrdiff_t my_f) {
  const ptrdiff_t R = l.rest, no = l.n[1 - l.in_dim];
  Shape s{{{no, R, my_f * R}}, {{planes, no * R, R}}};
  append_rest(l, &s.dims);
  append_howmany(l, &s.howmany);
  return s;
}

Shape third_step_in_place(const Layout &l, ptrdiff_t planes) {
  const ptrdiff_t R = l.rest, nf = l.n[l.in_dim];
  return {{{nf, R, R}}, {{planes, nf * R, nf * R}, {R, 1, 1}}};
}

Shape third_step_across(const Layout &l, ptrdiff_t lo) {
  const ptrdiff_t R = l.rest, nf = l.n[l.in_dim];
  return {{{nf, R, lo * R}}, {{lo, nf * R, R}, {R, 1, 1}}};
}

unsigned serial_flags(unsigned flags) {
  return flags &
         ~unsigned{FFTW_MPI_SCRAMBLED_IN | FFTW_MPI_SCRAMBLED_OUT | FFTW_MPI_TRANSPOSED_IN | FFTW_MPI_TRANSPOSED_OUT};
}

Shape first_step_in_place(const Layout &l, ptrdiff_t planes) {
  const ptrdiff_t R = l.rest, no = l.n[1 - l.in_dim];
  Shape s{{{no, R, R}}, {{planes, no * R, no * R}}};
  append_rest(l, &s.dims);
  append_howmany(l, &s.howmany);
  return s;
}

Shape third_step_in_middle(const Layout &l, ptrdiff_t lo) {
  const ptrdiff_t R = l.rest, nf = l.n[l.in_dim];
  return {{{nf, lo * R, lo * R}}, {{lo * R, 1, 1}}};
}

Where where_of(const void *plan) {
  Where w = Where::None;
  return where_from_name(gpufftw_plan_where(plan), &w) ? w : Where::None;
}

std::string describe(const char *step, const void *plan) {
  return std::string(step) + " on " + gpufftw_plan_where(plan) + " (" + gpufftw_plan_why(plan) + ")";
}

std::string describe_steps(const std::vector<std::pair<int, const void *>> &steps) {
  std::vector<std::pair<std::string, std::vector<int>>> alike;  // " on where (why)", its steps
  for (const auto &[number, plan] : steps) {
    if (!plan) continue;
    const std::string said = std::string(" on ") + gpufftw_plan_where(plan) + " (" + gpufftw_plan_why(plan) + ")";
    auto it = std::find_if(alike.begin(), alike.end(), [&said](const auto &a) { return a.first == said; });
    if (it == alike.end())
      alike.push_back({said, {number}});
    else
      it->second.push_back(number);
  }
  std::string out;
  for (const auto &[said, numbers] : alike) {
    out += std::string(out.empty() ? "" : "; ") + (numbers.size() > 1 ? "steps " : "step ");
    for (size_t i = 0; i < numbers.size(); ++i)
      out += std::string(i == 0 ? "" : i + 1 == numbers.size() ? " and " : ", ") + std::to_string(numbers[i]);
    out += said;
  }
  return out;
}

template <class R>
typename Serial<R>::Plan Steps<R>::plan(const Layout &l, Shape shape, void *from, void *to, Kind kind, int sign,
                                        unsigned serial_flags) {
  Dims &dims = shape.dims, &howmany = shape.howmany;
  const int r = static_cast<int>(dims.size()), hr = static_cast<int>(howmany.size());
  if (kind != Kind::C2C) to_real(l, kind == Kind::R2C, &dims, &howmany);
  switch (kind) {
    case Kind::R2C:
      return S::plan_r2c(r, dims.data(), hr, howmany.data(), static_cast<R *>(from), static_cast<C *>(to),
                         serial_flags);
    case Kind::C2R:
      return S::plan_c2r(r, dims.data(), hr, howmany.data(), static_cast<C *>(from), static_cast<R *>(to),
                         serial_flags);
    case Kind::C2C:
      break;
  }
  return S::plan(r, dims.data(), hr, howmany.data(), static_cast<C *>(from), static_cast<C *>(to), sign,
                 serial_flags);
}

template <class R>
void Steps<R>::run(typename S::Plan step, Kind kind, void *from, void *to) {
  switch (kind) {
    case Kind::C2C: S::execute(step, static_cast<C *>(from), static_cast<C *>(to)); break;
    case Kind::R2C: S::execute_r2c(step, static_cast<R *>(from), static_cast<C *>(to)); break;
    case Kind::C2R: S::execute_c2r(step, static_cast<C *>(from), static_cast<R *>(to)); break;
  }
}

template struct Steps<double>;
template struct Steps<float>;

}  // namespace composed
}  // namespace mpi
}  // namespace gpufftw
