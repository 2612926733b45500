#include "core/config.h"

#include "core/env.h"

namespace gpufftw {

Config read_config() {
  Config c;
  static const char *const mode_names[] = {"auto", "gpu", "cpu"};
  static const gpufftw_mode modes[] = {GPUFFTW_MODE_AUTO, GPUFFTW_MODE_GPU, GPUFFTW_MODE_CPU};
  c.mode = env::choice("GPUFFTW_MODE", mode_names, modes, c.mode);
  static const char *const log_names[] = {"off", "warn", "info", "debug"};
  static const LogLevel levels[] = {LogLevel::Off, LogLevel::Warn, LogLevel::Info, LogLevel::Debug};
  c.log = env::choice("GPUFFTW_LOG", log_names, levels, c.log);
  static const char *const bool_names[] = {"0", "1"};
  static const bool bools[] = {false, true};
  c.report = env::choice("GPUFFTW_REPORT", bool_names, bools, c.report);
  static const char *const measure_names[] = {"auto", "always"};
  c.measure_always = env::choice("GPUFFTW_MEASURE", measure_names, bools, c.measure_always);
  static const char *const precision_names[] = {"fp32", "fp16"};
  static const gpufftw_precision precisions[] = {GPUFFTW_PRECISION_FP32, GPUFFTW_PRECISION_FP16};
  c.precision = env::choice("GPUFFTW_PRECISION", precision_names, precisions, c.precision);
  static const char *const way_names[] = {"auto", "ours", "cufft-fp16", "fp32-on-halves", "fp32"};
  c.fp16_way = env::choice("GPUFFTW_FP16_WAY", way_names, way_names, c.fp16_way);
  return c;
}

const Config &config() {
  static const Config c = read_config();
  return c;
}

}  // namespace gpufftw
