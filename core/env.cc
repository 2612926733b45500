#include "core/env.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>

#include "core/switches.h"

namespace gpufftw::env {

// secure_getenv: in a program that runs with more rights than its user's
// (setuid, setgid, file capabilities), the environment is the user's to
// write, and a setting that names a library to load or a file to write
// would run the user's code, or write where the user may not, with the
// program's rights. There every setting reads as unset, as the loader
// ignores LD_PRELOAD and LD_LIBRARY_PATH.
const char *get(const char *var) {
  const char *s = secure_getenv(var);
  return s && *s ? s : nullptr;
}

void warn_bad(const char *var, const char *value, const std::string &expected, const std::string &fallback) {
  // Never destroyed: settings may be read from other libraries' destructors.
  static std::mutex *mutex = new std::mutex;
  static std::set<std::string> *said = new std::set<std::string>;
  {
    std::lock_guard<std::mutex> lock(*mutex);
    if (!said->insert(std::string(var) + "=" + value).second) return;
  }
  std::fprintf(stderr, "gpufftw: %s=%s is not %s; using the default (%s)\n", var, value, expected.c_str(),
               fallback.c_str());
}

void warn_bad(const char *var, const char *value) {
  const Switch *s = find_switch(var);
  if (!s) return warn_bad(var, value, "a value it takes", "unset");
  warn_bad(var, value, s->choice ? std::string("one of ") + s->values : s->values, s->fallback);
}

namespace {

// strtod and strtoll skip leading blanks; a setting with them is a typo.
bool starts_with_digit(const char *text) {
  const char *t = *text == '-' || *text == '+' ? text + 1 : text;
  return *t >= '0' && *t <= '9';
}

}  // namespace

bool parse_bytes(const char *text, size_t *out) {
  if (!starts_with_digit(text)) return false;
  errno = 0;
  char *end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || errno == ERANGE || !std::isfinite(v) || v <= 0) return false;
  double unit = 1;
  switch (*end) {
    case 'K': unit = 1024.0, ++end; break;
    case 'M': unit = 1048576.0, ++end; break;
    case 'G': unit = 1073741824.0, ++end; break;
    default: break;
  }
  const double b = v * unit;
  // Under one byte, or past what a size_t holds, is no size.
  if (*end != '\0' || b < 1 || b >= 18446744073709551615.0) return false;
  *out = static_cast<size_t>(b);
  return true;
}

bool parse_integer(const char *text, long long lo, long long hi, long long *out) {
  if (!starts_with_digit(text)) return false;
  errno = 0;
  char *end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < lo || v > hi) return false;
  *out = v;
  return true;
}

size_t bytes(const char *var, size_t fallback, const std::string &fallback_text) {
  const char *s = get(var);
  size_t v = fallback;
  if (s && !parse_bytes(s, &v)) {
    warn_bad(var, s, "a size in bytes above 0 (a K, M or G suffix allowed)", fallback_text);
    return fallback;
  }
  return v;
}

long long integer(const char *var, long long fallback, long long lo, long long hi, const std::string &fallback_text) {
  const char *s = get(var);
  long long v = fallback;
  if (s && !parse_integer(s, lo, hi, &v)) {
    warn_bad(var, s, "an integer from " + std::to_string(lo) + " to " + std::to_string(hi), fallback_text);
    return fallback;
  }
  return v;
}

}  // namespace gpufftw::env
