// With GPUFFTW_LOG=debug, a split's time on one GPU in each of its phases,
// on stderr: where a split runs slower than its links allow.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace gpufftw::engine {

class Phases {
 public:
  // `job` names the split in the line; `names` the phases, in order: the
  // first runs from here to the first mark(), each next to the next mark.
  Phases(cudaStream_t stream, std::string job, std::vector<std::string> names);
  ~Phases();
  Phases(const Phases &) = delete;
  Phases &operator=(const Phases &) = delete;
  // The end of the phase under way, on `s` (the constructor's stream by default).
  void mark(cudaStream_t s = nullptr);
  // "gpufftw: JOB on GPU D: PHASE x ms, ...", the phases that were marked.
  void print(int device) const;

 private:
  bool on_;
  cudaStream_t stream_;
  std::string job_;
  std::vector<std::string> names_;
  std::vector<cudaEvent_t> events_;
};

}  // namespace gpufftw::engine
