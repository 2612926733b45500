// The GPUFFTW_* environment switches, read once.
#pragma once

#include "core/log.h"
#include "gpufftw/gpufftw.h"

namespace gpufftw {

struct Config {
  gpufftw_mode mode = GPUFFTW_MODE_AUTO;  // GPUFFTW_MODE=auto|gpu|cpu
  gpufftw_precision precision = GPUFFTW_PRECISION_FP32;  // GPUFFTW_PRECISION=fp32|fp16
  LogLevel log = LogLevel::Warn;          // GPUFFTW_LOG=off|info|debug
  bool report = false;                    // GPUFFTW_REPORT=1: table at exit
  // GPUFFTW_FP16_WAY=auto|ours|cufft-fp16|fp32-on-halves|fp32: auto,
  // dispatch chooses how each fp16 plan computes (dispatch/fp16_ways.h);
  // else that way wherever it takes the problem, for tests and benchmarks.
  const char *fp16_way = "auto";
  bool measure_always = false;            // GPUFFTW_MEASURE=always: FFTW_MEASURE times both sides even where the model is sure
};

// The environment's settings, parsed on first use; a bad value is warned
// about and its default kept.
const Config &config();

// The environment's settings as they are now, parsed again (config() keeps
// the first); for the tests.
Config read_config();

}  // namespace gpufftw
