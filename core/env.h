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

// A count of bytes above zero, optionally with a K, M or G suffix (powers
// of 1024); `fallback_text` says what the default is in the warning.
size_t bytes(const char *var, size_t fallback, const std::string &fallback_text);

// A decimal integer in [lo, hi].
long long integer(const char *var, long long fallback, long long lo, long long hi, const std::string &fallback_text);

// One of `names`, giving the value at the same place; the default's name
// is told in the warning.
template <class T, size_t N>
T choice(const char *var, const char *const (&names)[N], const T (&values)[N], T fallback) {
  const char *s = get(var);
  if (!s) return fallback;
  std::string expected = "one of";
  const char *fallback_name = "unset";
  for (size_t i = 0; i < N; ++i) {
    if (std::string(s) == names[i]) return values[i];
    expected += std::string(" ") + names[i];
    if (values[i] == fallback) fallback_name = names[i];
  }
  warn_bad(var, s, expected, fallback_name);
  return fallback;
}

// Parsers of a value already read, for the readers above and their tests:
// false where `text` is not such a value.
bool parse_bytes(const char *text, size_t *out);
bool parse_integer(const char *text, long long lo, long long hi, long long *out);

}  // namespace gpufftw::env
