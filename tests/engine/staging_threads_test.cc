// The staging threads: a copy's and a conversion's count for hosts and
// device sets of every size, and a run on the pool gives every part of
// its count to one thread once, a copy on no more threads than its count
// (no GPU needed).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "engine/staging/host_copy.h"

namespace gpufftw::engine {
namespace {

void expect_threads(unsigned cores, unsigned gpus, unsigned copy, unsigned convert) {
  const StagingThreads n = staging_threads(cores, gpus);
  EXPECT_EQ(n.copy, copy) << cores << " cores, " << gpus << " GPUs";
  EXPECT_EQ(n.convert, convert) << cores << " cores, " << gpus << " GPUs";
}

// A dozen copy; on a set of one GPU a conversion takes the cores left
// (two to the program), up to two dozen, never fewer than a copy; on a
// set of several, a copy's.
TEST(StagingThreads, ACopyTakesADozenAConversionOnOneGpuTheCoresLeft) {
  expect_threads(2, 1, 1, 1);
  expect_threads(1, 1, 1, 1);
  expect_threads(8, 1, 6, 6);
  expect_threads(16, 1, 12, 14);
  expect_threads(64, 1, 12, 24);
  expect_threads(256, 0, 12, 24);  // no set yet: as one GPU
  expect_threads(16, 2, 12, 12);
  expect_threads(32, 2, 12, 12);
  expect_threads(64, 4, 12, 12);
  expect_threads(128, 8, 12, 12);
}

// Each part of a run once, on as many parts as the work takes, the same
// at every run of the work; a copy after a conversion on its own count.
TEST(StagingThreads, EveryPartRunsOnce) {
  const StagingThreads n = staging_threads(std::thread::hardware_concurrency(), 1);
  for (StagingWork work : {StagingWork::Convert, StagingWork::Copy, StagingWork::Convert, StagingWork::Copy}) {
    std::vector<std::atomic<int>> hits(64);
    std::atomic<unsigned> seen_parts{0};
    on_staging_threads(work, [&](unsigned part, unsigned parts) {
      seen_parts = parts;
      if (part < hits.size()) hits[part]++;
    });
    const unsigned parts = seen_parts;
    EXPECT_EQ(parts, work == StagingWork::Copy ? n.copy : n.convert);
    for (unsigned p = 0; p < hits.size(); ++p) EXPECT_EQ(hits[p].load(), p < parts ? 1 : 0) << "part " << p;
  }
}

}  // namespace
}  // namespace gpufftw::engine
