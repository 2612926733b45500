// A program with FFTW linked into it statically calls its own copy directly:
// no call can reach a preloaded gpufftw, and a silent report would read as
// "no FFT here". Where the report or the comparison is on and no plan was
// asked of gpufftw, the program's file is read at the end for FFTW's version
// string; found there, gpufftw says why nothing arrived and how to relink.
// A process with no FFTW in its file (a shell starting FFTW programs) stays
// silent.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "core/log.h"
#include "shim/at_end.h"
#include "shim/compare.h"
#include "shim/report.h"

namespace gpufftw {
namespace {

// Whether `file` holds `needle`, read in blocks that overlap by its length.
bool file_holds(const char *file, const std::string &needle) {
  FILE *f = std::fopen(file, "rb");
  if (!f) return false;
  std::vector<char> buf(1 << 20);
  size_t kept = 0;
  bool found = false;
  while (!found) {
    const size_t got = std::fread(buf.data() + kept, 1, buf.size() - kept, f);
    if (got == 0) break;
    const size_t have = kept + got;
    const std::string_view view(buf.data(), have);
    found = view.find(needle) != std::string_view::npos;
    kept = std::min(needle.size() - 1, have);
    std::memmove(buf.data(), buf.data() + have - kept, kept);
  }
  std::fclose(f);
  return found;
}

void say_if_fftw_is_static() {
  if (any_plan_asked()) return;
  // FFTW's fftw_version string ("fftw-3.3.10-sse2-avx") is in every program
  // that has FFTW's code inside it, stripped or not.
  if (!file_holds("/proc/self/exe", "fftw-3.")) return;
  char exe[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  log_message(LogLevel::Warn,
              "no FFTW call of %s reached gpufftw: it has FFTW linked in statically (its own copy, which a "
              "preloaded library cannot stand in for), so its FFTs ran on that copy. To run them through gpufftw, "
              "link it to the shared FFTW (-lfftw3f -lfftw3 in place of libfftw3*.a) or to gpufftw itself "
              "(-lgpufftw)",
              n > 0 ? exe : "this program");
}

__attribute__((constructor)) void watch_for_static_fftw() {
  if (config().report || compare_enabled()) write_at_end(say_if_fftw_is_static);
}

}  // namespace
}  // namespace gpufftw
