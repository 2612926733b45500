// The sweep's case list: what each case transforms (kind, sizes, r2r kinds),
// through which FFTW interface, with which layout, placement, precision,
// planner flags and execute style.  The list is a covering sweep, not a
// cartesian product: every (kind, interface, rank, placement) combination is
// present, and precision, flags, new-array execute and the layout details
// rotate (from a fixed seed, so test names are stable) so that every value of
// every axis is hit many times (sweep_cases_test.cc checks that).
#ifndef GPUFFTW_TESTS_SWEEP_SWEEP_CASES_H
#define GPUFFTW_TESTS_SWEEP_SWEEP_CASES_H

#include <ostream>
#include <string>
#include <vector>

#include "layouts.h"
#include "reference_dft.h"

namespace sweep {

enum class Kind { kC2C, kR2C, kC2R, kR2R, kSplitC2C, kSplitR2C, kSplitC2R };
enum class Api {
  kBasic,   // plan_dft_1d/2d/3d, plan_dft_r2c_1d.., plan_r2r_1d..
  kBasicNd, // plan_dft / plan_dft_r2c / plan_dft_c2r / plan_r2r (rank, n[])
  kMany,    // plan_many_*
  kGuru,    // plan_guru_* (fftw_iodim)
  kGuru64,  // plan_guru64_* (fftw_iodim64)
};
enum class Flags { kEstimate, kMeasure, kEstimatePreserve, kEstimateUnaligned };
enum class Precision { kF32, kF64 };

const char* kind_name(Kind k);
const char* api_name(Api a);
const char* flags_name(Flags f);
const char* precision_name(Precision p);
bool is_split(Kind k);
bool is_guru(Api a);

// Parameters of the advanced (plan_many) interface.  Empty embed = NULL.
struct ManyParams {
  int howmany = 1;
  std::vector<int> inembed, onembed;
  int istride = 1, idist = 0, ostride = 1, odist = 0;
};

struct Case {
  Kind kind = Kind::kC2C;
  int sign = -1;                  // c2c and split c2c
  std::vector<ref::R2r> r2r;      // r2r: one kind per dimension
  Api api = Api::kBasic;
  bool inplace = false;
  Precision precision = Precision::kF64;
  Flags flags = Flags::kEstimate;
  bool new_array = false;         // execute with fftw_execute_<kind>(p, ...)
  bool split_interleaved = false; // split arrays that are one interleaved
                                  // array (im = re + 1, doubled strides)
  Index split_pad = 0;            // split: im array starts this many scalars
                                  // after the end of the re array
  std::vector<int> n;             // logical transform size
  ManyParams many;                // kMany only
  Geometry geo;                   // the canonical guru64 geometry (all APIs)
  MemorySpec mem;                 // buffers and views
  std::string name;               // unique, [A-Za-z0-9_]

  // Which side's last dim holds n/2+1 elements.
  bool input_is_half() const {
    return kind == Kind::kC2R || kind == Kind::kSplitC2R;
  }
  bool output_is_half() const {
    return kind == Kind::kR2C || kind == Kind::kSplitR2C;
  }
  bool input_is_complex() const {
    return kind == Kind::kC2C || kind == Kind::kC2R ||
           kind == Kind::kSplitC2C || kind == Kind::kSplitC2R;
  }
  bool output_is_complex() const {
    return kind == Kind::kC2C || kind == Kind::kR2C ||
           kind == Kind::kSplitC2C || kind == Kind::kSplitR2C;
  }
  // Out-of-place and FFTW promises not to touch the input: the default for
  // every out-of-place transform except c2r and hc2r (manual, "Planner
  // Flags"), or FFTW_PRESERVE_INPUT.
  bool input_must_be_preserved() const;
  // FFTW 3.3.10 has no input-preserving multi-dimensional c2r and returns a
  // NULL plan for FFTW_PRESERVE_INPUT there (the manual says so too): an
  // out-of-place c2r with a dimension other than the last of size > 1.
  bool fftw_has_no_plan() const;
};

// gtest prints a parameter with this.
inline void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// The whole sweep, built once (deterministic).
const std::vector<Case>& sweep_cases();

// Fills geo/mem of a case whose kind/api/n/layout parameters are set
// (used by the generator; exposed for the edge-case tests).
void finish_case(Case& c);

}  // namespace sweep

#endif  // GPUFFTW_TESTS_SWEEP_SWEEP_CASES_H
