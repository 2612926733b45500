#include "core/library_search.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include "core/env.h"
#include "core/log.h"

namespace gpufftw {

std::string real_path(const std::string &path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

std::string dir_of(const std::string &file) {
  const auto slash = file.rfind('/');
  return slash == std::string::npos ? std::string(".") : file.substr(0, slash);
}

std::vector<std::string> dirs_setting(const char *var) {
  std::vector<std::string> dirs;
  const char *list = env::get(var);
  if (!list) return dirs;
  const std::string s = list;
  for (size_t pos = 0; pos <= s.size();) {
    size_t end = s.find(':', pos);
    if (end == std::string::npos) end = s.size();
    if (end > pos) dirs.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  if (dirs.empty()) env::warn_bad(var, list);
  return dirs;
}

void append_default_dirs(std::vector<std::string> *dirs) {
  dirs->push_back(GPUFFTW_FFTW_LIBDIR);
  for (const char *d : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"}) dirs->push_back(d);
}

void *find_symbol(void *handle, const std::string &name, const char *library) {
  void *p = dlsym(handle, name.c_str());
  if (!p) GPUFFTW_LOG(Warn, "%s lacks %s", library, name.c_str());
  return p;
}

}  // namespace gpufftw
