// The engine's picks between our kernels and cuFFT in the dispatch store:
// they round-trip through the file, merge with another process's, are
// forgotten with the choices, and a bad line makes the file corrupt.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "dispatch/store.h"
#include "temp_dir.h"

namespace gpufftw {
namespace {

class KernelPicks : public ::testing::Test {
 protected:
  DispatchStore make() {
    return DispatchStore(path_, [] { return std::string("test machine"); }, {});
  }
  const TempDir temp_{"kernel-picks"};
  const std::string path_ = temp_.path() + "/dispatch.txt";
};

TEST_F(KernelPicks, RoundTripAcrossRunsAndAreForgotten) {
  KernelPick got;
  {
    // Another process's store, read before the first one wrote: its save
    // keeps the first one's pick.
    DispatchStore other = make();
    EXPECT_FALSE(other.recall_kernel("c2c.f32.n1009.b16384.oop", &got));
    make().remember_kernel("c2c.f32.n1009.b16384.oop", KernelPick{"stages8-128", 1.5e-4, 2.9e-4});
    other.remember_kernel("c2c.f64.n64.b262144.ip", KernelPick{"cufft", 9.4e-5, 9.1e-5});
  }
  DispatchStore s = make();
  ASSERT_TRUE(s.recall_kernel("c2c.f32.n1009.b16384.oop", &got));
  EXPECT_EQ(got.variant, "stages8-128");
  EXPECT_DOUBLE_EQ(got.own_s, 1.5e-4);
  EXPECT_DOUBLE_EQ(got.cufft_s, 2.9e-4);
  ASSERT_TRUE(s.recall_kernel("c2c.f64.n64.b262144.ip", &got));
  EXPECT_EQ(got.variant, "cufft");
  EXPECT_FALSE(s.recall_kernel("c2c.f32.n1009.b16384.ip", &got));
  // A choice of the same key is another record.
  Choice c;
  EXPECT_FALSE(s.recall("c2c.f32.n1009.b16384.oop", &c));

  s.forget([](const std::string &k) { return k.find(".f32.") != std::string::npos; });
  EXPECT_FALSE(s.recall_kernel("c2c.f32.n1009.b16384.oop", &got));
  s.remember_kernel("c2c.f64.n17.b1.oop", KernelPick{"stages16-256", 1e-5, 2e-5});
  DispatchStore after = make();
  EXPECT_FALSE(after.recall_kernel("c2c.f32.n1009.b16384.oop", &got));
  EXPECT_TRUE(after.recall_kernel("c2c.f64.n64.b262144.ip", &got));
  EXPECT_TRUE(after.recall_kernel("c2c.f64.n17.b1.oop", &got));
}

TEST_F(KernelPicks, BadLineMakesTheFileCorrupt) {
  make().remember_kernel("c2c.f32.n16.b1.oop", KernelPick{"registers-256", 1e-5, 2e-5});
  {
    std::ofstream out(path_, std::ios::app);
    out << "kernel c2c.f32.n8.b1.oop registers-256 1e-5\n";  // a time missing
  }
  KernelPick got;
  EXPECT_FALSE(make().recall_kernel("c2c.f32.n16.b1.oop", &got));
}

}  // namespace
}  // namespace gpufftw
