// Calls the FFTW planner for a sweep case through the case's interface
// (basic 1d/2d/3d, basic rank-n, plan_many, guru, guru64) and executes a plan
// on new arrays with the matching fftw_execute_<kind>.  Templates over
// FftwApi<T>, so one source serves fftw_ and fftwf_.
#ifndef GPUFFTW_TESTS_SWEEP_PLAN_FACTORY_H
#define GPUFFTW_TESTS_SWEEP_PLAN_FACTORY_H

#include <vector>

#include "fftw_traits.h"
#include "sweep_cases.h"

namespace sweep {

// The pointers FFTW is given. For interleaved complex arrays in_re/out_re
// point at the complex array (im is re + 1).
template <class T>
struct ArrayPtrs {
  T* in_re = nullptr;
  T* in_im = nullptr;
  T* out_re = nullptr;
  T* out_im = nullptr;
};

inline unsigned planner_flags(Flags f) {
  switch (f) {
    case Flags::kEstimate: return FFTW_ESTIMATE;
    case Flags::kMeasure: return FFTW_MEASURE;
    case Flags::kEstimatePreserve: return FFTW_ESTIMATE | FFTW_PRESERVE_INPUT;
    case Flags::kEstimateUnaligned: return FFTW_ESTIMATE | FFTW_UNALIGNED;
  }
  return FFTW_ESTIMATE;
}

inline fftw_r2r_kind fftw_kind(ref::R2r k) {
  switch (k) {
    case ref::R2r::kR2HC: return FFTW_R2HC;
    case ref::R2r::kHC2R: return FFTW_HC2R;
    case ref::R2r::kDHT: return FFTW_DHT;
    case ref::R2r::kREDFT00: return FFTW_REDFT00;
    case ref::R2r::kREDFT01: return FFTW_REDFT01;
    case ref::R2r::kREDFT10: return FFTW_REDFT10;
    case ref::R2r::kREDFT11: return FFTW_REDFT11;
    case ref::R2r::kRODFT00: return FFTW_RODFT00;
    case ref::R2r::kRODFT01: return FFTW_RODFT01;
    case ref::R2r::kRODFT10: return FFTW_RODFT10;
    case ref::R2r::kRODFT11: return FFTW_RODFT11;
  }
  return FFTW_R2HC;
}

template <class T>
typename FftwApi<T>::plan make_plan(const Case& c, const ArrayPtrs<T>& p) {
  using F = FftwApi<T>;
  using C = typename F::complex;
  const unsigned flags = planner_flags(c.flags);
  const int rank = static_cast<int>(c.n.size());
  const int* n = c.n.data();
  const ManyParams& m = c.many;
  const int* inembed = m.inembed.empty() ? nullptr : m.inembed.data();
  const int* onembed = m.onembed.empty() ? nullptr : m.onembed.data();
  C* cin = reinterpret_cast<C*>(p.in_re);
  C* cout = reinterpret_cast<C*>(p.out_re);

  std::vector<typename F::iodim> d32, h32;
  std::vector<typename F::iodim64> d64, h64;
  for (const IoDim& d : c.geo.dims) {
    d32.push_back({static_cast<int>(d.n), static_cast<int>(d.is), static_cast<int>(d.os)});
    d64.push_back({d.n, d.is, d.os});
  }
  for (const IoDim& d : c.geo.howmany) {
    h32.push_back({static_cast<int>(d.n), static_cast<int>(d.is), static_cast<int>(d.os)});
    h64.push_back({d.n, d.is, d.os});
  }
  const int hr = static_cast<int>(c.geo.howmany.size());
  std::vector<typename F::r2r_kind> kinds;
  for (ref::R2r k : c.r2r) kinds.push_back(fftw_kind(k));

  switch (c.kind) {
    case Kind::kC2C:
      switch (c.api) {
        case Api::kBasic:
          if (rank == 1) return F::plan_dft_1d(n[0], cin, cout, c.sign, flags);
          if (rank == 2) return F::plan_dft_2d(n[0], n[1], cin, cout, c.sign, flags);
          if (rank == 3)
            return F::plan_dft_3d(n[0], n[1], n[2], cin, cout, c.sign, flags);
          return F::plan_dft(rank, n, cin, cout, c.sign, flags);
        case Api::kBasicNd:
          return F::plan_dft(rank, n, cin, cout, c.sign, flags);
        case Api::kMany:
          return F::plan_many_dft(rank, n, m.howmany, cin, inembed, m.istride,
                                  m.idist, cout, onembed, m.ostride, m.odist,
                                  c.sign, flags);
        case Api::kGuru:
          return F::plan_guru_dft(rank, d32.data(), hr, h32.data(), cin, cout,
                                  c.sign, flags);
        case Api::kGuru64:
          return F::plan_guru64_dft(rank, d64.data(), hr, h64.data(), cin,
                                    cout, c.sign, flags);
      }
      break;
    case Kind::kR2C:
      switch (c.api) {
        case Api::kBasic:
          if (rank == 1) return F::plan_dft_r2c_1d(n[0], p.in_re, cout, flags);
          if (rank == 2) return F::plan_dft_r2c_2d(n[0], n[1], p.in_re, cout, flags);
          if (rank == 3)
            return F::plan_dft_r2c_3d(n[0], n[1], n[2], p.in_re, cout, flags);
          return F::plan_dft_r2c(rank, n, p.in_re, cout, flags);
        case Api::kBasicNd:
          return F::plan_dft_r2c(rank, n, p.in_re, cout, flags);
        case Api::kMany:
          return F::plan_many_dft_r2c(rank, n, m.howmany, p.in_re, inembed,
                                      m.istride, m.idist, cout, onembed,
                                      m.ostride, m.odist, flags);
        case Api::kGuru:
          return F::plan_guru_dft_r2c(rank, d32.data(), hr, h32.data(),
                                      p.in_re, cout, flags);
        case Api::kGuru64:
          return F::plan_guru64_dft_r2c(rank, d64.data(), hr, h64.data(),
                                        p.in_re, cout, flags);
      }
      break;
    case Kind::kC2R:
      switch (c.api) {
        case Api::kBasic:
          if (rank == 1) return F::plan_dft_c2r_1d(n[0], cin, p.out_re, flags);
          if (rank == 2) return F::plan_dft_c2r_2d(n[0], n[1], cin, p.out_re, flags);
          if (rank == 3)
            return F::plan_dft_c2r_3d(n[0], n[1], n[2], cin, p.out_re, flags);
          return F::plan_dft_c2r(rank, n, cin, p.out_re, flags);
        case Api::kBasicNd:
          return F::plan_dft_c2r(rank, n, cin, p.out_re, flags);
        case Api::kMany:
          return F::plan_many_dft_c2r(rank, n, m.howmany, cin, inembed,
                                      m.istride, m.idist, p.out_re, onembed,
                                      m.ostride, m.odist, flags);
        case Api::kGuru:
          return F::plan_guru_dft_c2r(rank, d32.data(), hr, h32.data(), cin,
                                      p.out_re, flags);
        case Api::kGuru64:
          return F::plan_guru64_dft_c2r(rank, d64.data(), hr, h64.data(), cin,
                                        p.out_re, flags);
      }
      break;
    case Kind::kR2R:
      switch (c.api) {
        case Api::kBasic:
          if (rank == 1)
            return F::plan_r2r_1d(n[0], p.in_re, p.out_re, kinds[0], flags);
          if (rank == 2)
            return F::plan_r2r_2d(n[0], n[1], p.in_re, p.out_re, kinds[0],
                                  kinds[1], flags);
          if (rank == 3)
            return F::plan_r2r_3d(n[0], n[1], n[2], p.in_re, p.out_re,
                                  kinds[0], kinds[1], kinds[2], flags);
          return F::plan_r2r(rank, n, p.in_re, p.out_re, kinds.data(), flags);
        case Api::kBasicNd:
          return F::plan_r2r(rank, n, p.in_re, p.out_re, kinds.data(), flags);
        case Api::kMany:
          return F::plan_many_r2r(rank, n, m.howmany, p.in_re, inembed,
                                  m.istride, m.idist, p.out_re, onembed,
                                  m.ostride, m.odist, kinds.data(), flags);
        case Api::kGuru:
          return F::plan_guru_r2r(rank, d32.data(), hr, h32.data(), p.in_re,
                                  p.out_re, kinds.data(), flags);
        case Api::kGuru64:
          return F::plan_guru64_r2r(rank, d64.data(), hr, h64.data(), p.in_re,
                                    p.out_re, kinds.data(), flags);
      }
      break;
    case Kind::kSplitC2C: {
      // The split interface has no sign: the backward transform is the
      // forward one with real and imaginary parts swapped (FFTW manual).
      const bool fwd = c.sign < 0;
      T* ri = fwd ? p.in_re : p.in_im;
      T* ii = fwd ? p.in_im : p.in_re;
      T* ro = fwd ? p.out_re : p.out_im;
      T* io = fwd ? p.out_im : p.out_re;
      if (c.api == Api::kGuru)
        return F::plan_guru_split_dft(rank, d32.data(), hr, h32.data(), ri, ii,
                                      ro, io, flags);
      return F::plan_guru64_split_dft(rank, d64.data(), hr, h64.data(), ri, ii,
                                      ro, io, flags);
    }
    case Kind::kSplitR2C:
      if (c.api == Api::kGuru)
        return F::plan_guru_split_dft_r2c(rank, d32.data(), hr, h32.data(),
                                          p.in_re, p.out_re, p.out_im, flags);
      return F::plan_guru64_split_dft_r2c(rank, d64.data(), hr, h64.data(),
                                          p.in_re, p.out_re, p.out_im, flags);
    case Kind::kSplitC2R:
      if (c.api == Api::kGuru)
        return F::plan_guru_split_dft_c2r(rank, d32.data(), hr, h32.data(),
                                          p.in_re, p.in_im, p.out_re, flags);
      return F::plan_guru64_split_dft_c2r(rank, d64.data(), hr, h64.data(),
                                          p.in_re, p.in_im, p.out_re, flags);
  }
  return nullptr;
}

// fftw_execute_dft / _split_dft / _dft_r2c / _dft_c2r / _split_dft_r2c /
// _split_dft_c2r / _r2r on the arrays p.
template <class T>
void execute_new_arrays(const Case& c, typename FftwApi<T>::plan plan,
                        const ArrayPtrs<T>& p) {
  using F = FftwApi<T>;
  using C = typename F::complex;
  C* cin = reinterpret_cast<C*>(p.in_re);
  C* cout = reinterpret_cast<C*>(p.out_re);
  switch (c.kind) {
    case Kind::kC2C:
      F::execute_dft(plan, cin, cout);
      break;
    case Kind::kR2C:
      F::execute_dft_r2c(plan, p.in_re, cout);
      break;
    case Kind::kC2R:
      F::execute_dft_c2r(plan, cin, p.out_re);
      break;
    case Kind::kR2R:
      F::execute_r2r(plan, p.in_re, p.out_re);
      break;
    case Kind::kSplitC2C:
      if (c.sign < 0)
        F::execute_split_dft(plan, p.in_re, p.in_im, p.out_re, p.out_im);
      else
        F::execute_split_dft(plan, p.in_im, p.in_re, p.out_im, p.out_re);
      break;
    case Kind::kSplitR2C:
      F::execute_split_dft_r2c(plan, p.in_re, p.out_re, p.out_im);
      break;
    case Kind::kSplitC2R:
      F::execute_split_dft_c2r(plan, p.in_re, p.in_im, p.out_re);
      break;
  }
}

}  // namespace sweep

#endif  // GPUFFTW_TESTS_SWEEP_PLAN_FACTORY_H
