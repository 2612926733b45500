// A job that computes nothing and names itself: what the engine planner's
// tests make from their stand-in solvers.
#pragma once

#include <string>
#include <utility>

#include "engine/engine.h"

namespace gpufftw::engine {

class FakeJob final : public FftJob {
 public:
  explicit FakeJob(std::string path) : path_(std::move(path)) {}
  bool run(void *const[2], void *const[2], std::string *) override { return true; }
  std::string path() const override { return path_; }

 private:
  std::string path_;
};

}  // namespace gpufftw::engine
