// Every public entry point opens an ApiScope: it counts calls that arrive
// while another public call is still running on this thread (re-entry: a call
// wrapped twice), and at GPUFFTW_LOG=debug logs the call with its arguments.
#pragma once

#include <string>

#include "core/log.h"

namespace gpufftw {

// Public calls open on this thread and not yet returned. Inline, as every
// fftw_execute opens a scope and a 16-point transform takes 20-50 ns: an
// inline variable with a constant initializer needs no TLS wrapper call,
// and CMakeLists.txt asks for TLS descriptors (one cheap call where the
// library's TLS is static). Not initial-exec TLS, which would stop the
// library from being dlopen'ed (no room in the static TLS block: Dlopen
// tests).
inline thread_local int api_depth = 0;
void note_reentry(const char *name);

class ApiScope {
 public:
  explicit ApiScope(const char *name) {
    if (api_depth++ > 0) note_reentry(name);
  }
  ~ApiScope() { --api_depth; }
  ApiScope(const ApiScope &) = delete;
  ApiScope &operator=(const ApiScope &) = delete;
};

unsigned long reentry_count();

// Argument formatting for the debug log.
std::string trace_arg(long long v);
std::string trace_arg(unsigned long long v);
std::string trace_arg(double v);
std::string trace_arg(const void *p);
std::string trace_arg(const char *s);
inline std::string trace_arg(int v) { return trace_arg(static_cast<long long>(v)); }
inline std::string trace_arg(long v) { return trace_arg(static_cast<long long>(v)); }
inline std::string trace_arg(unsigned v) { return trace_arg(static_cast<unsigned long long>(v)); }
inline std::string trace_arg(unsigned long v) { return trace_arg(static_cast<unsigned long long>(v)); }
template <class T>
std::string trace_arg(T *p) { return trace_arg(static_cast<const void *>(p)); }
template <class T>
std::string trace_arg(const T *p) { return trace_arg(static_cast<const void *>(p)); }
template <class F, class... A>
std::string trace_arg(F (*f)(A...)) { return trace_arg(reinterpret_cast<const void *>(f)); }

template <class... A>
void trace_call(const char *name, const A &...args) {
  std::string line = name;
  line += "(";
  ((line += trace_arg(args), line += ", "), ...);
  if (sizeof...(args) > 0) line.resize(line.size() - 2);
  line += ")";
  log_message(LogLevel::Debug, "%s", line.c_str());
}

}  // namespace gpufftw

// Opens the scope of a public entry point; its arguments are logged at debug.
#define GPUFFTW_API(name, ...)                                  \
  ::gpufftw::ApiScope gpufftw_api_scope_(name);                 \
  if (::gpufftw::log_level() >= ::gpufftw::LogLevel::Debug)     \
    ::gpufftw::trace_call(name, ##__VA_ARGS__)
