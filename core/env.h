// Reading the GPUFFTW_* environment variables. A value that does not parse
// gets one warning on stderr naming the variable, what it takes and the
// default used instead, and then the default: a bad setting never stops a
// program. Printed directly, not through the log: settings are read before
// the log exists, and the engine has no log of its own.
#pragma once

#include <cstddef>
#include <string>

namespace gpufftw::env {

// The variable's value, or nullptr where it is unset or empty.
const char *get(const char *var);

// "gpufftw: VAR=value is not <expected>; using the default (<fallback>)",
// printed once per variable and value in a process.
void warn_bad(const char *var, const char *value, const std::string &expected, const std::string &fallback);
// The same with what the variable takes and its default as the list of
// switches (core/switches.h) says them: "is not one of auto, gpu, cpu".
void warn_bad(const char *var, const char *value);

// A count of bytes above zero, optionally with a K, M or G suffix (powers
// of 1024); `fallback_text` says what the default is in the warning.
size_t bytes(const char *var, size_t fallback, const std::string &fallback_text);

// A decimal integer in [lo, hi].
long long integer(const char *var, long long fallback, long long lo, long long hi, const std::string &fallback_text);

// One of `names`, giving the value at the same place; the warning names
// the values and the default as the list of switches does.
template <class T, size_t N>
T choice(const char *var, const char *const (&names)[N], const T (&values)[N], T fallback) {
  const char *s = get(var);
  if (!s) return fallback;
  for (size_t i = 0; i < N; ++i)
    if (std::string(s) == names[i]) return values[i];
  warn_bad(var, s);
  return fallback;
}

// Parsers of a value already read, for the readers above and their tests:
// false where `text` is not such a value.
bool parse_bytes(const char *text, size_t *out);
bool parse_integer(const char *text, long long lo, long long hi, long long *out);

}  // namespace gpufftw::env
