#include "shim/trace.h"

#include <atomic>
#include <cstdio>

namespace gpufftw {
namespace {

std::atomic<unsigned long> reentries{0};

}  // namespace

void note_reentry(const char *name) {
  reentries.fetch_add(1, std::memory_order_relaxed);
  GPUFFTW_LOG(Debug, "re-entered through %s", name);
}

unsigned long reentry_count() { return reentries.load(std::memory_order_relaxed); }

std::string trace_arg(long long v) { return std::to_string(v); }
std::string trace_arg(unsigned long long v) { return std::to_string(v); }
std::string trace_arg(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}
std::string trace_arg(const void *p) {
  char b[32];
  std::snprintf(b, sizeof b, "%p", p);
  return b;
}
std::string trace_arg(const char *s) { return s ? "\"" + std::string(s) + "\"" : "NULL"; }

}  // namespace gpufftw
