// The driver's account of the machine, which keys the dispatch store
// without starting CUDA: read from a made-up /proc/driver/nvidia.
#include "dispatch/machine.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.h"

namespace {

class DriverFingerprint : public testing::Test {
 protected:
  void SetUp() override {
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("GPUFFTW_DEVICE");
    unsetenv("GPUFFTW_DEVICES");
  }
  void TearDown() override {
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("GPUFFTW_DEVICES");
  }
  void write(const std::string &rel, const std::string &text) {
    const std::filesystem::path p = root_ + "/" + rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  void two_gpus() {
    write("version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Tue Oct 1 2026\nGCC version: 13\n");
    write("gpus/0000:19:00.0/information", "Model: \t\t NVIDIA H100 80GB HBM3\nIRQ: 1\nBus Location: \t 0000:19:00.0\n");
    write("gpus/0000:18:00.0/information", "Model: \t\t NVIDIA L4\nBus Location: \t 0000:18:00.0\n");
  }
  const gpufftw::TempDir temp_{"driver"};
  const std::string root_ = temp_.path();
};

TEST_F(DriverFingerprint, NamesTheDriverAndEachGpuInBusOrder) {
  two_gpus();
  EXPECT_EQ(gpufftw::nvidia_driver_fingerprint(root_),
            "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Tue Oct 1 2026; "
            "NVIDIA L4 @ 0000:18:00.0; NVIDIA H100 80GB HBM3 @ 0000:19:00.0");
}

TEST_F(DriverFingerprint, ChangesWithTheDriverAndWithTheDeviceChosen) {
  two_gpus();
  const std::string before = gpufftw::nvidia_driver_fingerprint(root_);
  setenv("CUDA_VISIBLE_DEVICES", "1", 1);
  const std::string other_device = gpufftw::nvidia_driver_fingerprint(root_);
  EXPECT_NE(other_device, before);
  EXPECT_NE(other_device.find("CUDA_VISIBLE_DEVICES=1"), std::string::npos);
  unsetenv("CUDA_VISIBLE_DEVICES");
  // A set of GPUs is a machine of its own: a choice of the set's split
  // means nothing on one GPU.
  setenv("GPUFFTW_DEVICES", "0", 1);
  const std::string one_of_the_set = gpufftw::nvidia_driver_fingerprint(root_);
  EXPECT_NE(one_of_the_set, before);
  EXPECT_NE(one_of_the_set.find("GPUFFTW_DEVICES=0"), std::string::npos);
  unsetenv("GPUFFTW_DEVICES");
  write("version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  590.10  Mon Jan 4 2027\n");
  EXPECT_NE(gpufftw::nvidia_driver_fingerprint(root_), before);
}

TEST_F(DriverFingerprint, EmptyWithoutTheDriversVersion) {
  EXPECT_EQ(gpufftw::nvidia_driver_fingerprint(root_ + "/absent"), "");
  write("gpus/0000:18:00.0/information", "Model: NVIDIA L4\n");
  EXPECT_EQ(gpufftw::nvidia_driver_fingerprint(root_), "");  // GPUs listed, but no version
}

}  // namespace
