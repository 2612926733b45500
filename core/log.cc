#include "core/log.h"

#include <cstdarg>
#include <cstdio>

#include "core/config.h"

namespace gpufftw {

LogLevel log_level() { return config().log; }

void log_message(LogLevel, const char *fmt, ...) {
  // One fprintf per line so lines from several threads do not interleave.
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "gpufftw: %s\n", line);
}

}  // namespace gpufftw
