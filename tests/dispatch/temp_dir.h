// A folder of a test's own under /tmp, removed with all it holds when the
// test ends.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace gpufftw {

class TempDir {
 public:
  // /tmp/gpufftw-<name>-XXXXXX.
  explicit TempDir(const std::string &name) : path_("/tmp/gpufftw-" + name + "-XXXXXX") {
    if (!mkdtemp(path_.data())) throw std::runtime_error("mkdtemp(" + path_ + "): " + std::strerror(errno));
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace gpufftw
