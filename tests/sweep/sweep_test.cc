// The parameterized correctness sweep: one test per case of sweep_cases(),
// each run in its own precision by case_runner.h.
//
// Inputs are fresh random numbers every run (seed from std::random_device,
// printed on failure); GPUFFTW_SWEEP_SEED=<n> fixes the seed of every test
// to reproduce a failure.  At exit the worst error seen per precision is
// printed, as a multiple of eps * sqrt(log2 N) (the c the run needed).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "case_runner.h"
#include "sweep_cases.h"
#include "tolerance.h"

namespace sweep {
namespace {

std::uint64_t test_seed() {
  if (const char* s = std::getenv("GPUFFTW_SWEEP_SEED"))
    return std::strtoull(s, nullptr, 0);
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

class Sweep : public ::testing::TestWithParam<Case> {};

TEST_P(Sweep, MatchesReference) {
  const Case& c = GetParam();
  if (c.precision == Precision::kF32)
    run_case<float>(c, test_seed());
  else
    run_case<double>(c, test_seed());
}

INSTANTIATE_TEST_SUITE_P(
    Fftw3Api, Sweep, ::testing::ValuesIn(sweep_cases()),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

class ErrorSummary : public ::testing::Environment {
 public:
  void TearDown() override {
    for (Precision p : {Precision::kF32, Precision::kF64}) {
      const ErrorRecord& r = error_record(p);
      if (!r.cases) continue;
      std::printf(
          "[sweep] %s: %ld cases, worst error %.3g = %.3f * eps*sqrt(log2 N) "
          "(tolerance c = %.1f) in %s\n",
          precision_name(p), r.cases, r.worst_error, r.worst_ratio,
          kToleranceC, r.worst_case.c_str());
    }
  }
};

const auto* const kErrorSummary =
    ::testing::AddGlobalTestEnvironment(new ErrorSummary);

}  // namespace
}  // namespace sweep
