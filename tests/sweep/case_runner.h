// Runs one sweep case against whatever FFTW API the test is linked with and
// judges it by the long-double oracle:
//
//  1. allocate the case's buffers with fftw_malloc (one scalar off the
//     alignment for FFTW_UNALIGNED cases, guard scalars after each), poison
//     every scalar with NaN and write random input ([-0.5, 0.5)) into the
//     input slots -- gaps between strided elements stay NaN;
//  2. plan; unless FFTW_MEASURE, the arrays must be byte-identical after
//     planning;
//  3. refill (fresh input; for MEASURE this is the refill after planning
//     overwrote the arrays), or fill a second, identically aligned set of
//     arrays for new-array execute;
//  4. execute; then every output element must have been written (no NaN
//     left), the relative L2 error must be within tolerance, every scalar that
//     is neither input nor output (gaps, padding, guards) must be untouched,
//     and the input must be unchanged where FFTW promises that.
#ifndef GPUFFTW_TESTS_SWEEP_CASE_RUNNER_H
#define GPUFFTW_TESTS_SWEEP_CASE_RUNNER_H

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fftw_traits.h"
#include "plan_factory.h"
#include "reference_dft.h"
#include "sweep_cases.h"
#include "tolerance.h"

namespace sweep {

// Scalars after every buffer that nobody may write.
constexpr Index kGuardScalars = 8;

template <class T>
class CaseBuffers {
 public:
  CaseBuffers(const MemorySpec& mem, Index shift) : shift_(shift) {
    for (Index s : mem.buffer_scalars) {
      Index total = shift + s + kGuardScalars;
      T* b = FftwApi<T>::alloc_real(static_cast<std::size_t>(total));
      base_.push_back(b);
      total_.push_back(total);
    }
  }
  ~CaseBuffers() {
    for (T* b : base_) FftwApi<T>::free(b);
  }
  CaseBuffers(const CaseBuffers&) = delete;
  CaseBuffers& operator=(const CaseBuffers&) = delete;

  bool ok() const {
    return std::all_of(base_.begin(), base_.end(), [](T* b) { return b != nullptr; });
  }
  std::size_t count() const { return base_.size(); }
  Index total(std::size_t b) const { return total_[b]; }
  T* base(std::size_t b) const { return base_[b]; }
  // The scalar FFTW sees at `off` of buffer `buf` (after the shift).
  T* at(const Ptr& p) const { return base_[static_cast<std::size_t>(p.buf)] + shift_ + p.off; }
  Index shift() const { return shift_; }

  ArrayPtrs<T> ptrs(const MemorySpec& mem) const {
    ArrayPtrs<T> p;
    p.in_re = at(mem.in.re);
    if (mem.in.complex) p.in_im = at(mem.in.im);
    p.out_re = at(mem.out.re);
    if (mem.out.complex) p.out_im = at(mem.out.im);
    return p;
  }

  std::vector<std::vector<unsigned char>> snapshot() const {
    std::vector<std::vector<unsigned char>> s;
    for (std::size_t b = 0; b < base_.size(); ++b) {
      const unsigned char* p = reinterpret_cast<const unsigned char*>(base_[b]);
      s.emplace_back(p, p + total_[b] * static_cast<Index>(sizeof(T)));
    }
    return s;
  }

 private:
  Index shift_;
  std::vector<T*> base_;
  std::vector<Index> total_;
};

// Scalar positions (buffer, index from the buffer base) of one side's
// elements, in logical order; im empty for real arrays.
struct Slots {
  std::vector<std::pair<int, Index>> re, im;
};

inline Slots make_slots(const ArrayView& v, const std::vector<Index>& offsets,
                        Index shift) {
  Slots s;
  for (Index o : offsets) {
    s.re.emplace_back(v.re.buf, shift + v.re.off + o * v.scale);
    if (v.complex) s.im.emplace_back(v.im.buf, shift + v.im.off + o * v.scale);
  }
  return s;
}

// The input as the oracle sees it (exactly the T values written).
struct LogicalInput {
  std::vector<ref::Real> real;
  std::vector<ref::Complex> cplx;
};

template <class T>
T uniform_half(std::mt19937_64& rng) {
  // Exactly representable values k * 2^-digits - 0.5, uniform in [-0.5, 0.5).
  constexpr int kDigits = std::numeric_limits<T>::digits;
  return std::ldexp(static_cast<T>(rng() >> (64 - kDigits)), -kDigits) - T(0.5);
}

template <class T>
void fill_arrays(const Case& c, const CaseBuffers<T>& bufs, const Slots& in,
                 std::mt19937_64& rng, LogicalInput& logical) {
  for (std::size_t b = 0; b < bufs.count(); ++b)
    std::fill(bufs.base(b), bufs.base(b) + bufs.total(b),
              std::numeric_limits<T>::quiet_NaN());
  auto put = [&](const std::pair<int, Index>& slot, T v) {
    bufs.base(static_cast<std::size_t>(slot.first))[slot.second] = v;
  };
  const std::size_t count = in.re.size();
  logical.real.clear();
  logical.cplx.clear();
  if (!c.input_is_complex()) {
    for (std::size_t i = 0; i < count; ++i) {
      T v = uniform_half<T>(rng);
      put(in.re[i], v);
      logical.real.push_back(v);
    }
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    T re = uniform_half<T>(rng), im = uniform_half<T>(rng);
    logical.cplx.emplace_back(re, im);
  }
  if (c.input_is_half()) {
    // c2r input: Hermitian-consistent per transform (conjugation and zeroing
    // keep the values exactly representable in T).
    const ref::Shape n = logical_shape(c.geo);
    const std::size_t per = static_cast<std::size_t>(ref::product(ref::half_shape(n)));
    for (std::size_t h = 0; per && h < count / per; ++h) {
      std::vector<ref::Complex> one(logical.cplx.begin() + static_cast<std::ptrdiff_t>(h * per),
                                    logical.cplx.begin() + static_cast<std::ptrdiff_t>((h + 1) * per));
      ref::make_hermitian(n, one);
      std::copy(one.begin(), one.end(), logical.cplx.begin() + static_cast<std::ptrdiff_t>(h * per));
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    put(in.re[i], static_cast<T>(logical.cplx[i].real()));
    put(in.im[i], static_cast<T>(logical.cplx[i].imag()));
  }
}

// Reference output of the whole case (all howmany transforms, logical order),
// flattened to reals (re, im interleaved for complex outputs).
inline std::vector<ref::Real> reference_output(const Case& c,
                                               const LogicalInput& in) {
  const ref::Shape n = logical_shape(c.geo);
  const ref::Shape h = ref::half_shape(n);
  const std::size_t per_in = static_cast<std::size_t>(
      ref::product(c.input_is_half() ? h : n));
  const std::size_t total_in =
      c.input_is_complex() ? in.cplx.size() : in.real.size();
  const std::size_t transforms = per_in ? total_in / per_in : 0;
  std::vector<ref::Real> out;
  for (std::size_t t = 0; t < transforms; ++t) {
    const std::ptrdiff_t b = static_cast<std::ptrdiff_t>(t * per_in);
    const std::ptrdiff_t e = b + static_cast<std::ptrdiff_t>(per_in);
    switch (c.kind) {
      case Kind::kC2C:
      case Kind::kSplitC2C: {
        std::vector<ref::Complex> a(in.cplx.begin() + b, in.cplx.begin() + e);
        ref::dft(n, c.sign, a);
        for (const ref::Complex& z : a) {
          out.push_back(z.real());
          out.push_back(z.imag());
        }
        break;
      }
      case Kind::kR2C:
      case Kind::kSplitR2C: {
        std::vector<ref::Real> x(in.real.begin() + b, in.real.begin() + e);
        for (const ref::Complex& z : ref::r2c(n, x)) {
          out.push_back(z.real());
          out.push_back(z.imag());
        }
        break;
      }
      case Kind::kC2R:
      case Kind::kSplitC2R: {
        std::vector<ref::Complex> X(in.cplx.begin() + b, in.cplx.begin() + e);
        for (ref::Real v : ref::c2r(n, X)) out.push_back(v);
        break;
      }
      case Kind::kR2R: {
        std::vector<ref::Real> a(in.real.begin() + b, in.real.begin() + e);
        ref::r2r(n, c.r2r, a);
        out.insert(out.end(), a.begin(), a.end());
        break;
      }
    }
  }
  return out;
}

// Per-precision record of the worst error seen, printed at the end of the
// run (see sweep_test.cc) to justify the tolerance constant.
struct ErrorRecord {
  double worst_ratio = 0;  // error / (eps * sqrt(log2 N)), i.e. the c needed
  double worst_error = 0;
  std::string worst_case;
  long cases = 0;
};
inline ErrorRecord& error_record(Precision p) {
  static ErrorRecord rec[2];
  return rec[p == Precision::kF32 ? 0 : 1];
}

inline std::string describe_slot(const std::pair<int, Index>& s, Index shift) {
  std::ostringstream o;
  o << "buffer " << s.first << " scalar " << (s.second - shift);
  return o.str();
}

template <class T>
void run_case(const Case& c, std::uint64_t seed) {
  using F = FftwApi<T>;
  std::ostringstream trace;
  trace << "case " << c.name << ", input seed " << seed
        << " (rerun: GPUFFTW_SWEEP_SEED=" << seed << ")";
  SCOPED_TRACE(trace.str());

  const Index shift = c.flags == Flags::kEstimateUnaligned ? 1 : 0;
  const Slots in = make_slots(c.mem.in, element_offsets(c.geo, true, c.input_is_half()), shift);
  const Slots out = make_slots(c.mem.out, element_offsets(c.geo, false, c.output_is_half()), shift);

  std::mt19937_64 rng(seed);
  LogicalInput logical;
  CaseBuffers<T> plan_bufs(c.mem, shift);
  ASSERT_TRUE(plan_bufs.ok()) << "fftw_malloc failed";
  fill_arrays(c, plan_bufs, in, rng, logical);
  const auto before_planning = plan_bufs.snapshot();

  typename F::plan plan = make_plan<T>(c, plan_bufs.ptrs(c.mem));
  if (c.fftw_has_no_plan() && plan == nullptr) {
    // FFTW 3.3.10 answers a multi-dim c2r with FFTW_PRESERVE_INPUT with NULL
    // (fftw_null_plans_test.cc pins that down); a library that does give a
    // plan here must compute right and preserve the input, checked below.
    return;
  }
  ASSERT_NE(plan, nullptr) << "planner returned NULL";
  struct PlanGuard {
    typename F::plan p;
    ~PlanGuard() { F::destroy_plan(p); }
  } guard{plan};

  if (c.flags != Flags::kMeasure) {
    EXPECT_TRUE(plan_bufs.snapshot() == before_planning)
        << "planning without FFTW_MEASURE modified the arrays";
  }

  // Execution arrays: the planning arrays refilled, or a second set with the
  // same alignment (same offsets from fftw_malloc'ed bases).
  std::unique_ptr<CaseBuffers<T>> fresh;
  const CaseBuffers<T>* exec_bufs = &plan_bufs;
  if (c.new_array) {
    fresh.reset(new CaseBuffers<T>(c.mem, shift));
    ASSERT_TRUE(fresh->ok()) << "fftw_malloc failed";
    exec_bufs = fresh.get();
    const ArrayPtrs<T> a = plan_bufs.ptrs(c.mem), b = fresh->ptrs(c.mem);
    ASSERT_EQ(F::alignment_of(a.in_re), F::alignment_of(b.in_re));
    ASSERT_EQ(F::alignment_of(a.out_re), F::alignment_of(b.out_re));
    if (a.in_im) {
      ASSERT_EQ(F::alignment_of(a.in_im), F::alignment_of(b.in_im));
    }
    if (a.out_im) {
      ASSERT_EQ(F::alignment_of(a.out_im), F::alignment_of(b.out_im));
    }
  }
  fill_arrays(c, *exec_bufs, in, rng, logical);
  const auto before_exec = exec_bufs->snapshot();

  if (c.new_array)
    execute_new_arrays<T>(c, plan, exec_bufs->ptrs(c.mem));
  else
    F::execute(plan);

  // Role of every scalar: 1 input, 2 output.
  std::vector<std::vector<unsigned char>> role(exec_bufs->count());
  for (std::size_t b = 0; b < role.size(); ++b)
    role[b].assign(static_cast<std::size_t>(exec_bufs->total(b)), 0);
  for (const auto* v : {&in.re, &in.im})
    for (const auto& s : *v) role[static_cast<std::size_t>(s.first)][static_cast<std::size_t>(s.second)] |= 1;
  for (const auto* v : {&out.re, &out.im})
    for (const auto& s : *v) role[static_cast<std::size_t>(s.first)][static_cast<std::size_t>(s.second)] |= 2;

  // Outputs: written, and close to the oracle.
  const std::vector<ref::Real> want = reference_output(c, logical);
  auto value = [&](const std::pair<int, Index>& s) {
    return exec_bufs->base(static_cast<std::size_t>(s.first))[s.second];
  };
  ASSERT_EQ(want.size(), out.re.size() + out.im.size());
  long unwritten = 0;
  std::string first_unwritten;
  ref::Real num = 0, den = 0;
  const bool cplx = c.output_is_complex();
  for (std::size_t i = 0; i < out.re.size(); ++i) {
    for (int part = 0; part < (cplx ? 2 : 1); ++part) {
      const auto& slot = part ? out.im[i] : out.re[i];
      const ref::Real w = want[cplx ? 2 * i + static_cast<std::size_t>(part) : i];
      const T got = value(slot);
      if (std::isnan(got)) {
        if (!unwritten++) first_unwritten = describe_slot(slot, shift);
        continue;
      }
      num += (static_cast<ref::Real>(got) - w) * (static_cast<ref::Real>(got) - w);
      den += w * w;
    }
  }
  EXPECT_EQ(unwritten, 0) << "output elements not written (still NaN), first at "
                          << first_unwritten;

  const Index N = ref::product(logical_shape(c.geo));
  const double tol = tolerance(F::epsilon, N);
  const double err = den > 0 ? static_cast<double>(std::sqrt(num / den))
                             : static_cast<double>(std::sqrt(num));
  EXPECT_LE(err, tol) << "relative L2 error " << err << " > tolerance " << tol
                      << " (N=" << N << ")";
  ErrorRecord& rec = error_record(c.precision);
  ++rec.cases;
  const double ratio = err / error_scale(F::epsilon, N);
  if (ratio > rec.worst_ratio) {
    rec.worst_ratio = ratio;
    rec.worst_error = err;
    rec.worst_case = c.name;
  }

  // Scalars that are neither input nor output must be untouched; inputs too
  // where FFTW promises to preserve them.
  const bool keep_input = c.input_must_be_preserved();
  const auto after = exec_bufs->snapshot();
  long clobbered = 0, destroyed = 0;
  std::string first_clobbered, first_destroyed;
  for (std::size_t b = 0; b < role.size(); ++b) {
    for (std::size_t i = 0; i < role[b].size(); ++i) {
      const unsigned char r = role[b][i];
      if (r & 2) continue;
      if (std::memcmp(&after[b][i * sizeof(T)], &before_exec[b][i * sizeof(T)],
                      sizeof(T)) == 0)
        continue;
      std::ostringstream where;
      where << describe_slot({static_cast<int>(b), static_cast<Index>(i)}, shift);
      if (r == 0 && !clobbered++) first_clobbered = where.str();
      if (r == 1 && keep_input && !destroyed++) first_destroyed = where.str();
    }
  }
  EXPECT_EQ(clobbered, 0) << "scalars outside the input/output elements "
                             "(gaps, padding, guards) were written, first at "
                          << first_clobbered;
  EXPECT_EQ(destroyed, 0) << "input modified although FFTW must preserve it, "
                             "first at "
                          << first_destroyed;
}

}  // namespace sweep

#endif  // GPUFFTW_TESTS_SWEEP_CASE_RUNNER_H
