#include "engine/multi/phases.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "core/env.h"

namespace gpufftw::engine {

Phases::Phases(cudaStream_t stream, std::string job, std::vector<std::string> names)
    : stream_(stream), job_(std::move(job)), names_(std::move(names)) {
  const char *level = env::get("GPUFFTW_LOG");
  on_ = level && std::string(level) == "debug";
  if (on_) mark();
}

Phases::~Phases() {
  for (cudaEvent_t e : events_) cudaEventDestroy(e);
}

void Phases::mark(cudaStream_t s) {
  if (!on_) return;
  cudaEvent_t e;
  if (cudaEventCreate(&e) != cudaSuccess) return (void)cudaGetLastError();
  cudaEventRecord(e, s ? s : stream_);
  events_.push_back(e);
}

void Phases::print(int device) const {
  if (!on_ || events_.size() < 2) return;
  std::string text;
  for (size_t i = 1; i < events_.size() && i <= names_.size(); ++i) {
    float ms = 0;
    if (cudaEventElapsedTime(&ms, events_[i - 1], events_[i]) != cudaSuccess) cudaGetLastError();
    text += (i > 1 ? ", " : "") + names_[i - 1] + " " + std::to_string(ms) + " ms";
  }
  std::fprintf(stderr, "gpufftw: %s on GPU %d: %s\n", job_.c_str(), device, text.c_str());
}

}  // namespace gpufftw::engine
