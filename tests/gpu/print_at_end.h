// A line a GPU test binary prints once all its tests have run (a
// GoogleTest environment's TearDown), such as the largest error they saw,
// so that the GPU run's log records it.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <utility>

inline const testing::Environment *print_at_end(std::function<void()> print) {
  struct AtEnd : testing::Environment {
    explicit AtEnd(std::function<void()> p) : print(std::move(p)) {}
    void TearDown() override { print(); }
    std::function<void()> print;
  };
  return testing::AddGlobalTestEnvironment(new AtEnd(std::move(print)));
}
