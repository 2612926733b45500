// The comparison mode's page (GPUFFTW_COMPARE_HTML=F, gpufftw-compare
// --html F): one self-contained HTML file, its charts inline SVG, nothing
// fetched from elsewhere, so that it opens the same anywhere, offline.
// One chart puts, per plan, gpufftw's error, the real FFTW's own error in
// the plan's precision and the tolerance on one log axis; the other the
// time the plan's executes took where they ran.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpufftw {

// One plan's comparison, as the table at exit gives it.
struct ComparedPlan {
  uint64_t plan = 0;
  std::string problem, where;
  uint64_t executes = 0, compared = 0;
  double rel_l2 = 0, fftw_rel_l2 = 0, tolerance = 0;  // worst relative L2 errors
  bool half = false, over = false;
  uint64_t execute_ns = 0;  // the plan's own executes, the comparison's work left out
};

// Writes the page to `path`; where it cannot be, warns with the failed call
// and the system's reason.
void write_compare_html(const std::string &path, const std::vector<ComparedPlan> &plans, double tolerance_c,
                        double half_tolerance_c);

}  // namespace gpufftw
