// gpufftw's log: one line per message on stderr, prefixed "gpufftw: ".
// GPUFFTW_LOG=off|info|debug; warnings print unless it is off.
#pragma once

namespace gpufftw {

enum class LogLevel { Off = 0, Warn = 1, Info = 2, Debug = 3 };

LogLevel log_level();
void log_message(LogLevel level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

}  // namespace gpufftw

#define GPUFFTW_LOG(level, ...)                                  \
  do {                                                           \
    if (::gpufftw::log_level() >= ::gpufftw::LogLevel::level)    \
      ::gpufftw::log_message(::gpufftw::LogLevel::level, __VA_ARGS__); \
  } while (0)
