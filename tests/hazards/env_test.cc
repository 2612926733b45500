// Every GPUFFTW_* variable with a bad value: one warning that
// names the variable, what it takes and the default used, then the
// default, never a crash. The parsers are tested directly; each variable
// through a child process (env_child.c) that plans, executes and checks a
// transform with the bad value set. (GPUFFTW_FFTW_DIR and
// GPUFFTW_FFTW_MPI_DIR take any folders: one where the real FFTW is not
// is the way to run without it, and gpufftw says once what it tried.)
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/env.h"
#include "gpufftw/gpufftw.h"

namespace {

using gpufftw::env::parse_bytes;
using gpufftw::env::parse_integer;

TEST(EnvParse, Bytes) {
  size_t v = 0;
  EXPECT_TRUE(parse_bytes("4096", &v));
  EXPECT_EQ(v, 4096u);
  EXPECT_TRUE(parse_bytes("64M", &v));
  EXPECT_EQ(v, size_t{64} << 20);
  EXPECT_TRUE(parse_bytes("1.5G", &v));
  EXPECT_EQ(v, size_t{3} << 29);
  EXPECT_TRUE(parse_bytes("2K", &v));
  EXPECT_EQ(v, 2048u);
  for (const char *bad : {"", "lots", "12X", "64MB", "-5", "0", "0.5", "nan", "inf", "1e30G", "M", "7 ", " 7"}) {
    v = 99;
    EXPECT_FALSE(parse_bytes(bad, &v)) << bad;
    EXPECT_EQ(v, 99u) << bad;
  }
}

TEST(EnvParse, Integers) {
  long long v = 0;
  EXPECT_TRUE(parse_integer("7", 0, 10, &v));
  EXPECT_EQ(v, 7);
  EXPECT_TRUE(parse_integer("0", 0, 10, &v));
  EXPECT_EQ(v, 0);
  for (const char *bad : {"", "x", "7x", "11", "-1", "99999999999999999999", "1.0", " 3"}) {
    v = 5;
    EXPECT_FALSE(parse_integer(bad, 0, 10, &v)) << bad;
    EXPECT_EQ(v, 5) << bad;
  }
}

TEST(EnvParse, OneWarningPerVariableAndValue) {
  setenv("GPUFFTW_TEST_SETTING", "nine", 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(gpufftw::env::integer("GPUFFTW_TEST_SETTING", 3, 1, 8, "3"), 3);
  EXPECT_EQ(gpufftw::env::integer("GPUFFTW_TEST_SETTING", 3, 1, 8, "3"), 3);
  setenv("GPUFFTW_TEST_SETTING", "5", 1);
  EXPECT_EQ(gpufftw::env::integer("GPUFFTW_TEST_SETTING", 3, 1, 8, "3"), 5);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(said, "gpufftw: GPUFFTW_TEST_SETTING=nine is not an integer from 1 to 8; using the default (3)\n");
  unsetenv("GPUFFTW_TEST_SETTING");
}

// Where a variable is read: always, or by the library with the GPU engine
// built in (GPU or not).
enum class ReadWhere { Always, CudaBuild };

struct Row {
  const char *var, *bad;
  const char *mode;  // GPUFFTW_MODE for the child: what makes it read the variable
  ReadWhere where;
  const char *name = nullptr;  // the test's, where not the variable's
};

void PrintTo(const Row &r, std::ostream *os) { *os << r.var << "=" << r.bad; }

const Row kRows[] = {
    {"GPUFFTW_MODE", "fast", nullptr, ReadWhere::Always},
    {"GPUFFTW_LOG", "verbose", "auto", ReadWhere::Always},
    {"GPUFFTW_REPORT", "yes", "auto", ReadWhere::Always},
    {"GPUFFTW_MEASURE", "sometimes", "auto", ReadWhere::Always},
    {"GPUFFTW_PRECISION", "fp8", "auto", ReadWhere::Always},
    {"GPUFFTW_FP16_WAY", "fastest", "auto", ReadWhere::Always},
    {"GPUFFTW_COMPARE", "yes", "auto", ReadWhere::Always},
    {"GPUFFTW_COMPARE_EVERY", "0", "auto", ReadWhere::Always},
    {"GPUFFTW_COMPARE_PERTURB", "2", "auto", ReadWhere::Always},
    {"GPUFFTW_PINNED_MIN", "lots", "auto", ReadWhere::CudaBuild},
    {"GPUFFTW_DEVICE_MEMORY", "12X", "gpu", ReadWhere::CudaBuild},
    {"GPUFFTW_DEVICES", "0,zero", "gpu", ReadWhere::CudaBuild},
    {"GPUFFTW_DEVICE", "-1", "gpu", ReadWhere::CudaBuild},
    {"GPUFFTW_SPLIT_TEST", "0", "gpu", ReadWhere::CudaBuild},
    {"GPUFFTW_FAULT", "explode", "gpu", ReadWhere::CudaBuild},
    {"GPUFFTW_FFTW_DIR", ":::", nullptr, ReadWhere::Always},
    {"GPUFFTW_CACHE_DIR", "relative/folder", "auto", ReadWhere::CudaBuild},
    {"GPUFFTW_CACHE_DIR", "/proc/gpufftw-cache", "auto", ReadWhere::CudaBuild, "GPUFFTW_CACHE_DIR_unusable"},
};

// Runs the child with `var`=`bad` (and GPUFFTW_MODE=`mode`): its exit
// status and stderr.
int run_child(const Row &r, std::string *err) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], 2);
    close(pipe_fds[0]);
    setenv(r.var, r.bad, 1);
    if (r.mode) setenv("GPUFFTW_MODE", r.mode, 1);
    execl(GPUFFTW_ENV_CHILD, GPUFFTW_ENV_CHILD, static_cast<char *>(nullptr));
    _exit(127);
  }
  close(pipe_fds[1]);
  char buf[4096];
  for (ssize_t got; (got = read(pipe_fds[0], buf, sizeof buf)) > 0;) err->append(buf, static_cast<size_t>(got));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

class BadValue : public testing::TestWithParam<Row> {};

TEST_P(BadValue, OneWarningThenTheDefault) {
  const Row &r = GetParam();
#if !GPUFFTW_TEST_CUDA_BUILD
  if (r.where != ReadWhere::Always) GTEST_SKIP() << r.var << " is read by the GPU engine, not built here";
#endif
  for (const char *other : {"GPUFFTW_MODE", "GPUFFTW_LOG", "GPUFFTW_FAULT", "GPUFFTW_COMPARE", "GPUFFTW_REPORT"})
    unsetenv(other);
  std::string err;
  const int rc = run_child(r, &err);
  EXPECT_EQ(rc, 0) << r.var << "=" << r.bad << ": " << err;
  const std::string warning = std::string("gpufftw: ") + r.var + "=" + r.bad + " is not ";
  size_t seen = 0;
  for (size_t at = err.find(warning); at != std::string::npos; at = err.find(warning, at + 1)) ++seen;
  EXPECT_EQ(seen, 1u) << err;
  const size_t at = err.find(warning);
  if (at != std::string::npos) {
    const std::string line = err.substr(at, err.find('\n', at) - at);
    EXPECT_NE(line.find("; using the default ("), std::string::npos) << line;
  }
}

std::string row_name(const testing::TestParamInfo<Row> &info) {
  return info.param.name ? info.param.name : info.param.var;
}
INSTANTIATE_TEST_SUITE_P(EveryVariable, BadValue, testing::ValuesIn(kRows), row_name);

size_t count_of(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// GPUFFTW_MODE=gpu where no GPU can be used: one warning, at the default
// log level, that every plan runs on the real FFTW, and why.
TEST(NoGpu, GpuModeSaysOnceThatEveryPlanRunsOnTheRealFftw) {
  if (gpufftw_gpu_available()) GTEST_SKIP() << "a GPU is usable here";
  for (const char *other : {"GPUFFTW_LOG", "GPUFFTW_FAULT", "GPUFFTW_COMPARE", "GPUFFTW_REPORT"}) unsetenv(other);
  std::string err;
  EXPECT_EQ(run_child({"GPUFFTW_MODE", "gpu", nullptr, ReadWhere::Always}, &err), 0) << err;
  EXPECT_EQ(count_of(err, "gpufftw: GPUFFTW_MODE=gpu, but no GPU can be used: "), 1u) << err;
  EXPECT_EQ(count_of(err, "; every plan runs on the real FFTW\n"), 1u) << err;
}

// A dispatch.txt that is no store is told at the first plan, at the
// default log level, GPU or not.
TEST(DispatchFile, JunkIsToldAtTheFirstPlan) {
#if !GPUFFTW_TEST_CUDA_BUILD
  GTEST_SKIP() << "the dispatch store is the GPU engine's, not built here";
#endif
  char dir[] = "/tmp/gpufftw-env-cache-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string file = std::string(dir) + "/dispatch.txt";
  const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  ASSERT_GE(fd, 0);
  const char junk[] = "these are not the lines of a dispatch store\n";
  ASSERT_EQ(write(fd, junk, sizeof junk - 1), static_cast<ssize_t>(sizeof junk - 1));
  close(fd);
  for (const char *other : {"GPUFFTW_MODE", "GPUFFTW_LOG", "GPUFFTW_FAULT", "GPUFFTW_COMPARE", "GPUFFTW_REPORT"})
    unsetenv(other);
  std::string err;
  EXPECT_EQ(run_child({"GPUFFTW_CACHE_DIR", dir, "auto", ReadWhere::CudaBuild}, &err), 0) << err;
  EXPECT_EQ(count_of(err, "gpufftw: " + file + " is not a gpufftw dispatch store"), 1u) << err;
  std::filesystem::remove_all(dir);  // with what a GPU's plan made there
}

}  // namespace
